// `npm run fuzz`: the fuzz suite (test/fuzz) with many more runs than `npm test` gives it.
// FUZZ_RUNS (default 2000) runs per property, FUZZ_SECONDS (default 60) the time cap of each,
// FUZZ_SEED to replay a failure. Arguments replace the default file set (e.g. test/fuzz/http.test.ts).
import { spawnSync } from "node:child_process";

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "2000", FUZZ_SECONDS: process.env.FUZZ_SECONDS ?? "60" };
console.log(`fuzz: ${env.FUZZ_RUNS} runs per property, at most ${env.FUZZ_SECONDS} s each${env.FUZZ_SEED ? `, seed ${env.FUZZ_SEED}` : ""}`);
const result = spawnSync("npx", ["vitest", "run", ...(process.argv.length > 2 ? process.argv.slice(2) : ["test/fuzz"])], { env, stdio: "inherit", shell: process.platform === "win32" });
process.exit(result.status ?? 1);
