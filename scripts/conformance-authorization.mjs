#!/usr/bin/env node
/**
 * `node scripts/conformance-authorization.mjs`: runs the official conformance suite's
 * `authorization` mode (0.2.0-alpha.12, `--spec-version 2026-07-28`) against the authorization
 * server of a protected mock. The mock (mockMcp() from dist/index.js, `npm run build` first)
 * knows one pre-registered public client whose redirect URI is the suite's callback; the suite
 * prints an authorization URL "to open in a browser", and this script fetches it instead,
 * following the mock's redirect (it consents by itself) to the suite's callback on 127.0.0.1.
 *
 * The suite runs under Node 22 (CONFORMANCE_NODE=<path to node 22>, this Node if it is 22 or
 * newer, else `npx -p node@22`), from the copy `npm run conformance` installs
 * (node_modules/.cache/mcp-testkit-conformance-2026; CONFORMANCE_SUITE_2026 names another).
 * Exits non-zero unless every check passed.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SUITE = process.env.CONFORMANCE_SUITE_2026 ?? join(ROOT, "node_modules/.cache/mcp-testkit-conformance-2026/node_modules/@modelcontextprotocol/conformance/dist/index.js");
const RUN_TIMEOUT_MS = 120_000;

function fail(message) {
  console.error(`conformance-authorization: ${message}`);
  process.exit(2);
}

function node22() {
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const found = spawnSync("npx", ["-y", "-p", "node@22", "node", "-p", "process.execPath"], { encoding: "utf8", timeout: 300_000 });
  const path = found.status === 0 ? found.stdout.trim().split("\n").pop() : "";
  if (!path || !existsSync(path)) fail("no Node 22 found; set CONFORMANCE_NODE to one");
  return path;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

if (!existsSync(SUITE)) fail(`the suite is not installed at ${SUITE}; run \`npm run conformance -- --spec 2026 --mode client --scenario tools_call\` once to install it`);
if (!existsSync(join(ROOT, "dist/index.js"))) fail("dist/ is missing; run `npm run build` first");
const { mockMcp } = await import(join(ROOT, "dist/index.js"));
const callbackPort = await freePort();
const server = await mockMcp({ auth: { clients: [{ clientId: "conformance-client", redirectUris: [`http://127.0.0.1:${callbackPort}/callback`] }] }, tools: { echo: { returns: "hi" } } });
console.log(`mock: resource ${server.url}, issuer ${server.auth.issuer}`);

const args = [SUITE, "authorization", "--url", server.auth.issuer, "--client-id", "conformance-client", "--resource", server.url, "-p", String(callbackPort), "--spec-version", "2026-07-28"];
const child = spawn(node22(), args, { stdio: ["ignore", "pipe", "inherit"] });
let output = "";
let followed = false;
child.stdout.on("data", (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
  // The suite's "open this in a browser" line: the mock consents by itself, so a fetch that follows redirects is the browser.
  const url = /^(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(output)?.[1];
  if (url !== undefined && !followed) {
    followed = true;
    setTimeout(() => void fetch(url).catch((error) => console.error(`could not follow the authorization URL: ${error.message}`)), 200);
  }
});
const timer = setTimeout(() => child.kill("SIGTERM"), RUN_TIMEOUT_MS);
const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode ?? 1)));
clearTimeout(timer);
await server.close();
const summary = /Total: (\d+) passed, (\d+) failed/.exec(output);
if (code !== 0 || summary === null || summary[2] !== "0") fail(`the suite exited ${code}${summary ? ` (${summary[1]} passed, ${summary[2]} failed)` : ""}`);
console.log(`conformance-authorization: ${summary[1]} checks passed`);
