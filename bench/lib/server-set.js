/**
 * One benchmark side served by several identical server processes (bench/lib/server-process.js).
 *
 * Why: two identical server processes differ by up to about 10% in CPU per call within one run on
 * this machine (each process's own luck: where its code and heap landed, which core it got, what
 * ran beside it), a bias that no number of rounds removes, since every round measures the same
 * process again. A side measured across N processes weighs each one's luck 1/N.
 *
 * Each part ends when the server has gone quiet after its load (`settledCpu`): the work its
 * calls left behind is charged to it, and the next part starts on a quiet machine.
 *
 * A slice of the side is `parts` sub-slices (count and time split evenly) taken by its processes
 * in turn (the order reversed every other round); a side in fewer processes than `parts` takes
 * several back to back, so every side's slice has the same shape (the same ramps and drains) in
 * a run that mixes one- and two-process sides. The side's CPU per call is its processes' CPU
 * over their calls. Each process's own CPU per call is kept too: the last ÷ the first is the
 * side's control, how far its identical processes differ in this run (one process's sub-slice
 * over another's, so noisier than the pooled figure it is read beside).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { cpuMicros } from "./common.js";
import { openSessions, runLoad } from "./loadgen.js";
import { startServerProcess } from "./server-process.js";

/** Starts `count` processes serving `side`; resolves to the set (`stop()` ends them all). */
export async function startServerSet(side, count, options = {}) {
  const processes = [];
  const stop = () => Promise.all(processes.map((server) => server.stop().catch(() => server.child.kill("SIGKILL"))));
  try {
    for (let i = 0; i < count; i++) processes.push(await startServerProcess(side, { ...options, label: count > 1 ? `${side} #${i + 1}` : side }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { side, processes, stop, sessions: [] };
}

/**
 * Runs each process of the set hot before anything is measured: `count` calls (or `ms`, whichever
 * comes first) on `concurrency` sessions of its own, closed after. The first concurrency measured
 * is 1, where a process serves about 2,500 calls a second: without this, our larger code was still
 * being optimized by V8 through the first half of those rounds (its CPU per call fell from 430 to
 * 150 µs round by round, the bare server's from 225 to 125) and the early rounds set the median.
 */
export async function primeSet(set, era, { concurrency, count, ms }) {
  for (const server of set.processes) {
    const sessions = await openSessions(server.url, concurrency, era);
    try {
      await runLoad(sessions, { count, ms });
    } finally {
      for (const session of sessions) session.close();
    }
  }
}

/** Opens `concurrency` sessions on each process of the set (kept on the set), then warms each process up. */
export async function openSetSessions(set, concurrency, era, warmup) {
  set.sessions = [];
  for (const server of set.processes) set.sessions.push(await openSessions(server.url, concurrency, era));
  for (const sessions of set.sessions) await runLoad(sessions, warmup);
  return set.sessions[0][0].version;
}

export function closeSetSessions(set) {
  for (const sessions of set.sessions) for (const session of sessions) session.close();
  set.sessions = [];
}

/**
 * One slice of the side: `{ count, ms }` split into `parts` (default: one per process), each
 * preceded by an unmeasured burst `preload` (`{ count, ms }`, none by default), each
 * measured by its process's own `process.cpuUsage()` (asked over IPC just before and after the
 * part; `settle` collects its heap first, the old method). Returns the pooled figures, this
 * process's (the load generator's) CPU over the load alone, and each server process's CPU per
 * call (NaN for one that answered nothing: medians skip it).
 */
export async function measureSet(set, { count, ms }, { reverse = false, settle = false, parts = set.processes.length, preload } = {}) {
  const n = set.processes.length;
  const order = Array.from({ length: Math.max(parts, n) }, (_, part) => part % n);
  if (reverse) order.reverse();
  const perProcess = set.processes.map(() => ({ calls: 0, cpuUs: 0 }));
  const latencies = [];
  let calls = 0;
  let seconds = 0;
  let cpuUs = 0;
  let userUs = 0;
  let systemUs = 0;
  let loadgenCpuUs = 0;
  let rss = 0;
  for (const index of order) {
    const server = set.processes[index];
    // A burst first, not measured, when asked: the part then measures a server under load, not
    // one waking from its wait while the others took their turns (see PRELOAD in bench/http.js).
    if (preload !== undefined) await runLoad(set.sessions[index], preload);
    const before = await server.ask("cpu", { settle });
    const loadCpu0 = cpuMicros();
    const run = await runLoad(set.sessions[index], { count: Math.ceil(count / order.length), ms: ms / order.length });
    loadgenCpuUs += cpuMicros() - loadCpu0;
    const after = await settledCpu(server);
    calls += run.calls;
    seconds += run.seconds;
    cpuUs += after.cpuUs - before.cpuUs;
    userUs += after.userUs - before.userUs;
    systemUs += after.systemUs - before.systemUs;
    rss = Math.max(rss, after.rss);
    perProcess[index].calls += run.calls;
    perProcess[index].cpuUs += after.cpuUs - before.cpuUs;
    latencies.push(run.latenciesUs);
  }
  const perProcessCpuUsPerCall = perProcess.map((p) => (p.calls > 0 ? p.cpuUs / p.calls : NaN));
  return { calls, seconds, cpuUs, userUs, systemUs, loadgenCpuUs, rss, perProcessCpuUsPerCall, latenciesUs: concatSorted(latencies) };
}

/**
 * A server's CPU once it has gone quiet after its load. A server with a large heap keeps working
 * after its last answer (V8 finishing its collections on helper threads): read at once, that
 * work was charged to no one and ran during the next server's slice, competing with it for this
 * machine's two cores. Polled every 20 ms until under 1 ms of CPU in 20 ms, at most 300 ms.
 */
export async function settledCpu(server, { pollMs = 20, quietUs = 1000, maxMs = 300 } = {}) {
  let last = await server.ask("cpu");
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    await sleep(pollMs);
    const now = await server.ask("cpu");
    if (now.cpuUs - last.cpuUs < quietUs) return now;
    last = now;
  }
  return last;
}

function concatSorted(arrays) {
  if (arrays.length === 1) return arrays[0];
  const all = new Float64Array(arrays.reduce((sum, a) => sum + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    all.set(a, offset);
    offset += a.length;
  }
  return all.sort();
}
