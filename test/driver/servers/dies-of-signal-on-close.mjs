// Serves normally, and when its stdin closes ends itself with a signal (argv[2], SIGTERM by
// default) instead of exiting: a death by a signal that mcp-testkit did not send. With
// "with-child" it first starts a child that runs until killed (its pid on stderr), which its
// death leaves behind for the driver to end.
import { spawn } from "node:child_process";
import { serve } from "./zoo-server.mjs";
const signal = process.argv[2] ?? "SIGTERM";
if (process.argv.includes("with-child")) {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  console.error(`zoo: child ${child.pid}`);
}
serve().on("close", () => {
  console.error(`zoo: stdin closed, ending myself with ${signal}`);
  process.kill(process.pid, signal);
});
