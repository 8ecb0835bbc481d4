// Starts a child that runs until killed (its stdio ignored, so no pipe ends with it), and another
// when the tool "start-child" is called (its pid is the answer). It exits when its stdin closes,
// or at once when the tool "crash" is called, either way leaving its children running: only the
// driver ending the tree ends them.
import { spawn } from "node:child_process";
import { result, serve } from "./zoo-server.mjs";
const startChild = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }).pid;
console.error(`zoo: child ${startChild()}`);
serve({
  "tools/call": (request) => {
    if (request.params?.name === "start-child") return result(request, { content: [{ type: "text", text: String(startChild()) }] });
    console.error("zoo: crashing, leaving the children behind");
    process.exit(3);
  },
}).on("close", () => process.exit(0));
