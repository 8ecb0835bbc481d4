#!/usr/bin/env node
// Runs npm scripts side by side (typecheck and build share no output, so neither waits for the
// other); once all have ended, prints each one's output as one block, and fails if any failed.
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs <npm-script> [<npm-script>…]");
  process.exit(2);
}

function run(name) {
  return new Promise((resolve) => {
    // Under npm, npm's own script through this node (no shell, so Windows finds it too); else `npm` from the PATH.
    const npmCli = process.env.npm_execpath;
    const [command, args] = npmCli ? [process.execPath, [npmCli, "run", name, "--silent"]] : ["npm", ["run", name, "--silent"]];
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], shell: !npmCli && process.platform === "win32" });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => resolve({ name, code: 1, output: `${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }));
  });
}

const results = await Promise.all(names.map(run));
for (const { name, code, output } of results) {
  if (output.trim() !== "") process.stdout.write(`── npm run ${name}\n${output}`);
  if (code !== 0) console.error(`npm run ${name} failed (exit ${code})`);
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
