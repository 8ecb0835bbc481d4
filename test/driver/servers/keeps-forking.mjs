// Ignores stdin closing and SIGTERM; the tool "fork" starts a shell that keeps starting sleepers
// in the background (up to ZOO_FORKS), so the tree grows while the driver is ending it.
import { spawn } from "node:child_process";
import { result, serve } from "./zoo-server.mjs";
const forks = Number(process.env.ZOO_FORKS ?? 400);
process.on("SIGTERM", () => console.error("zoo: ignoring SIGTERM"));
setInterval(() => {}, 1000);
serve({
  "tools/call": (request) => {
    const shell = spawn("/bin/sh", ["-c", `i=0; while [ $i -lt ${forks} ]; do sleep 30 & i=$((i+1)); done; wait`], { stdio: "ignore" });
    result(request, { content: [{ type: "text", text: String(shell.pid) }] });
  },
}).on("close", () => console.error("zoo: stdin closed, staying up"));
