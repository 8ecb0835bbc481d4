// Crashes (exit code 2) when a tool is called.
import { serve } from "./zoo-server.mjs";
serve({
  "tools/call": () => {
    console.error("zoo: crashing in tools/call");
    process.exit(2);
  },
});
