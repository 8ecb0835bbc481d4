/**
 * What `import("mcp-testkit")` loads: the heavy dependencies (zod, Ajv, prom-client, jose,
 * OpenTelemetry, the SDK's transports) wait until something uses them, so a test file or a CLI
 * start does not pay for them. Each case runs the built package in a fresh node process and
 * lists the packages it loaded, through ESM (a resolve hook) and CommonJS (`require.cache`).
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./support/built.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..");
const HEAVY = ["zod", "ajv", "prom-client", "@opentelemetry/api", "@modelcontextprotocol/sdk", "jose"];

// Registered in the child before the import: every URL an ESM import resolves to is kept.
const HOOK = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;

/** The packages (under node_modules) a fresh process has loaded after running `code`, which may `await`. */
async function packagesLoadedBy(code: string): Promise<string[]> {
  const child = `
import { register, createRequire } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on("message", (url) => urls.push(url));
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(HOOK)}), { data: { port: port2 }, transferList: [port2] });
const dist = ${JSON.stringify(pathToFileURL(resolve(root, "dist")).href)};
${code}
await new Promise((done) => setImmediate(done));
port1.close();
const files = [...urls, ...Object.keys(createRequire(import.meta.url).cache)];
const packages = new Set(files.flatMap((file) => { const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file); return m ? [m[1]] : []; }));
process.stdout.write(JSON.stringify([...packages].sort()));
`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", child], { cwd: root, timeout: 60_000 });
  return JSON.parse(stdout) as string[];
}

beforeAll(() => assertBuilt());

describe("import('mcp-testkit')", () => {
  it("loads none of the heavy dependencies", async () => {
    const loaded = await packagesLoadedBy(`await import(dist + "/index.js");`);
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it("loads zod when a message is first validated, and the answer is the same as ever", async () => {
    const loaded = await packagesLoadedBy(`
const { validateMessage } = await import(dist + "/index.js");
const problems = validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }, { direction: "client-to-server", protocolVersion: "2025-11-25" });
if (problems.length !== 1 || problems[0].path !== "$.params.name") throw new Error("unexpected problems: " + JSON.stringify(problems));`);
    expect(loaded).toContain("zod");
    expect(loaded).not.toContain("ajv");
  });

  it("loads Ajv when a fixture first uses a $schema pattern", async () => {
    const loaded = await packagesLoadedBy(`
const { mockMcp } = await import(dist + "/index.js");
const server = await mockMcp({ transport: "memory", fixtures: [{ scope: "shared", tools: [{ name: "t", calls: [{ argsMatch: { n: { $schema: { type: "integer" } } }, result: "ok" }] }] }] });
await server.close();`);
    expect(loaded).toEqual(expect.arrayContaining(["ajv", "zod"]));
  });

  it("loads the SDK's HTTP transport when a driver first connects over HTTP", async () => {
    const loaded = await packagesLoadedBy(`
const { mockMcp, mcpConnect } = await import(dist + "/index.js");
const server = await mockMcp({ host: "127.0.0.1", tools: { echo: { returns: "hi" } } });
const driver = mcpConnect(server.url);
const text = (await driver.callTool("echo")).getTextContent();
await driver.close();
await server.close();
if (text !== "hi") throw new Error("unexpected answer " + text);`);
    expect(loaded).toContain("@modelcontextprotocol/sdk");
  });
});
