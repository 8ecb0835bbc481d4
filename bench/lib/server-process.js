/**
 * One benchmark HTTP server in a process of its own (bench/servers/http-server.js), so its CPU
 * time is measured apart from the load generator's and from the other servers'. `ask(type)` is
 * one IPC question (`cpu`, `stats`, `stop`) answered by that process; `stop()` ends it, killing
 * it if it does not go within 5 s. `root` is the checkout whose bench/servers and dist/ are used
 * (this one by default; bench/compare-http.js passes another build's). `MCP_BENCH_SERVER_FLAGS`
 * (space-separated node/V8 flags, e.g. "--no-memory-reducer") is added to every server process's
 * flags: for experiments on what a server's runtime settings change (bench/README.md).
 */
import { fork } from "node:child_process";
import path from "node:path";
import { benchDir, within } from "./common.js";

export async function startServerProcess(side, { root = benchDir, label = side } = {}) {
  const child = fork(path.join(root, "servers", "http-server.js"), [side], {
    execArgv: ["--expose-gc", ...(process.env.MCP_BENCH_SERVER_FLAGS?.split(" ").filter(Boolean) ?? [])],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await within(
    new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", (code) => reject(new Error(`the ${label} server exited with ${code} before it was ready`)));
    }),
    20_000,
    `starting the ${label} server`,
  ).catch((error) => {
    // Never ready: nobody holds it to stop it later.
    child.kill("SIGKILL");
    throw error;
  });
  let nextId = 1;
  const ask = (type, extra = {}) => {
    const id = nextId++;
    return within(
      new Promise((resolve) => {
        const onMessage = (message) => {
          if (message.id !== id) return;
          child.off("message", onMessage);
          resolve(message);
        };
        child.on("message", onMessage);
        child.send({ type, id, ...extra });
      }),
      10_000,
      `${type} from the ${label} server`,
    );
  };
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await ask("stop").catch(() => child.kill("SIGKILL"));
    await within(exited, 5000, `the ${label} server's exit`).catch(() => child.kill("SIGKILL"));
  };
  return { side, child, url: ready.url, ask, stop };
}
