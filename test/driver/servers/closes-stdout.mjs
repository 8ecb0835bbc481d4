// Serves normally, but a tools/call closes its stdout (fd 1) without answering, and the process
// keeps running until its stdin closes: a server whose answers can no longer arrive.
import { closeSync } from "node:fs";
import { serve } from "./zoo-server.mjs";

serve({
  "tools/call": () => {
    closeSync(1);
    process.stderr.write("zoo: closed stdout, still running\n");
  },
}).on("close", () => process.exit(0));
