#!/usr/bin/env node
/**
 * `node bench/wake-cost.js [--rounds=N] [--slice-ms=N]`: how a sequential stdio call's time
 * responds to a client's own work, before the write and after it. Six variants of a minimal
 * hand-written JSON-RPC client (as bench/driver.js's reference row) drive their own
 * bench/servers/minimal-stdio.mjs: no extra work, a busy loop of 5 or 15 µs before each write, or
 * of 5, 15 or 40 µs after it. Slices take turns, the order reversed every other round; the
 * median time per call over rounds is printed per variant.
 *
 * On a VM whose idle vCPUs halt, work before the write costs about its own time, while work after
 * it costs nothing and can even shorten a call (a core that is still busy when the answer comes
 * needs no waking). bench/README.md, "The driver over stdio", describes the method.
 *
 * Bounds: at most 40 rounds, slices of at most 1 s or 20,000 calls, each call within 10 s; every
 * server is ended at the end (stdin closed, then SIGKILL after 2 s).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { benchDir, median, parseArgs, readJsonLines } from "./lib/common.js";

const args = parseArgs();
const rounds = Math.min(Number(args.get("rounds") ?? 16), 40);
const sliceMs = Math.min(Number(args.get("slice-ms") ?? 200), 1000);
const SERVER_SCRIPT = path.join(benchDir, "servers", "minimal-stdio.mjs");
const VARIANTS = {
  "no extra work": [0, 0],
  "5 µs before the write": [5, 0],
  "15 µs before the write": [15, 0],
  "5 µs after the write": [0, 5],
  "15 µs after the write": [0, 15],
  "40 µs after the write": [0, 40],
};

/** Keeps this core busy for `us` microseconds. */
function spin(us) {
  const until = performance.now() + us / 1000;
  let turns = 0;
  while (performance.now() < until) turns++;
  return turns;
}

function openClient(before, after) {
  const child = spawn(process.execPath, [SERVER_SCRIPT], { stdio: ["pipe", "pipe", "inherit"] });
  let nextId = 1;
  let waiting;
  readJsonLines(child.stdout, (message) => {
    const pending = waiting;
    waiting = undefined;
    pending?.resolve(message);
  });
  child.once("exit", () => waiting?.reject(new Error("the server exited")));
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer within 10 s`)), 10_000);
      waiting = { resolve: (value) => (clearTimeout(timer), resolve(value)), reject: (error) => (clearTimeout(timer), reject(error)) };
      if (before) spin(before);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params })}\n`);
      if (after) spin(after);
    });
  return {
    open: () => request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "wake-cost", version: "1.0.0" } }),
    call: () => request("tools/call", { name: "echo", arguments: {} }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const killer = setTimeout(() => child.kill("SIGKILL"), 2000);
        child.once("exit", () => (clearTimeout(killer), resolve()));
        child.stdin.end();
      }),
  };
}

const clients = Object.fromEntries(Object.entries(VARIANTS).map(([name, [before, after]]) => [name, openClient(before, after)]));
try {
  for (const client of Object.values(clients)) {
    await client.open();
    for (let i = 0; i < 2000; i++) await client.call();
  }
  const perCall = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(clients);
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const start = performance.now();
      let calls = 0;
      while (calls < 20_000 && performance.now() - start < sliceMs) {
        await clients[name].call();
        calls++;
      }
      perCall[name].push(((performance.now() - start) * 1000) / calls);
    }
  }
  console.log(`time per sequential call, median over ${rounds} rounds of ${sliceMs} ms slices (node ${process.version})`);
  for (const [name, values] of Object.entries(perCall)) console.log(`${name.padEnd(24)} ${median(values).toFixed(1)} µs`);
} finally {
  await Promise.all(Object.values(clients).map((client) => client.close()));
}
