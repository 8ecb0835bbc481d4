import { median, quartiles } from "./lib/common.js";
import { openSessions, runLoad } from "./lib/loadgen.js";
import { startServerProcess } from "./lib/server-process.js";
const sliceMs = Number(process.argv[2] ?? 300), rounds = Number(process.argv[3] ?? 40);
const procs = [["bare", 0], ["bare", 1], ["ours-json", 0], ["ours-json", 1], ["ours-fn", 0], ["ours-fn", 1]];
const S = [];
for (const [side, i] of procs) { const p = await startServerProcess(side, { label: `${side}#${i}` }); p.side = side; p.sessions = await openSessions(p.url, 32, "legacy"); await runLoad(p.sessions, { count: 3000, ms: 900 }); S.push(p); }
const slice = async (p) => { const b = await p.ask("cpu"); const r = await runLoad(p.sessions, { count: 1e6, ms: sliceMs }); const a = await p.ask("cpu"); return { cpu: a.cpuUs - b.cpuUs, calls: r.calls }; };
const out = { json: [], fn: [], fnVsJson: [], control: [] };
const t0 = performance.now();
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...S].reverse() : S; const m = new Map();
  for (const p of order) m.set(p, await slice(p));
  const per = (side) => { const ps = S.filter((p) => p.side === side); return ps.reduce((s, p) => s + m.get(p).cpu, 0) / ps.reduce((s, p) => s + m.get(p).calls, 0); };
  out.json.push(per("ours-json") / per("bare")); out.fn.push(per("ours-fn") / per("bare")); out.fnVsJson.push(per("ours-fn") / per("ours-json"));
  out.control.push((m.get(S[1]).cpu / m.get(S[1]).calls) / (m.get(S[0]).cpu / m.get(S[0]).calls));
}
console.log(`${rounds} rounds of ${sliceMs} ms slices, ${((performance.now() - t0) / 1000).toFixed(0)} s; two processes per server, pooled`);
for (const [k, v] of Object.entries(out)) { const q = quartiles(v); console.log(k.padEnd(9), median(v).toFixed(3), `(${q[0].toFixed(2)}–${q[1].toFixed(2)})`); }
for (const p of S) { for (const s of p.sessions) s.close(); await p.stop(); }
