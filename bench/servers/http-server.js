#!/usr/bin/env node
/**
 * One Streamable HTTP server of the load test in a process of its own, so its CPU time is
 * measured apart from the load generator's and from the other servers' (no shared JIT, heap or
 * GC). Started by bench/http.js with `fork()`: `node --expose-gc bench/servers/http-server.js <side>`.
 *
 * IPC, parent → here: { type: "cpu", id } (collects the heap first when `settle` is set) → here
 * answers { type: "cpu", id, cpuUs, userUs, systemUs, rss }; { type: "stats", id } → { type: "stats", id, stats };
 * { type: "stop", id } → stops the server, answers, exits. It also exits when the parent goes.
 */
import { startSide } from "./http-sides.js";

const side = process.argv[2];
if (typeof process.send !== "function") {
  console.error("bench/servers/http-server.js is started by bench/http.js (it needs an IPC channel)");
  process.exit(2);
}

const server = await startSide(side);
const gc = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

process.on("message", async (message) => {
  const { type, id } = message;
  if (type === "cpu") {
    if (message.settle) {
      gc();
      gc();
    }
    const { user, system } = process.cpuUsage();
    process.send({ type, id, cpuUs: user + system, userUs: user, systemUs: system, rss: process.memoryUsage().rss });
  } else if (type === "stats") {
    process.send({ type, id, stats: server.stats?.() ?? null });
  } else if (type === "stop") {
    await server.stop();
    process.send({ type, id }, () => process.exit(0));
  }
});
// The parent went away (killed, crashed): do not outlive it.
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready", url: server.url, pid: process.pid });
