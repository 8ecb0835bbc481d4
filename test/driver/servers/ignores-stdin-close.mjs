// Ignores stdin closing and SIGTERM, and starts a child of its own: only killing the tree ends it.
import { spawn } from "node:child_process";
import { serve } from "./zoo-server.mjs";
const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
console.error(`zoo: server ${process.pid}`);
console.error(`zoo: grandchild ${child.pid}`);
process.on("SIGTERM", () => console.error("zoo: ignoring SIGTERM"));
setInterval(() => {}, 1000);
serve().on("close", () => console.error("zoo: stdin closed, staying up"));
