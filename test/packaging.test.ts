/**
 * The package as users get it: `npm pack` the built project, unpack it into a fresh
 * `"type": "module"` project, and import every public entry point and run the bin from there.
 * Catches a missing file in "files", a wrong "exports" path or a bin without its shebang.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown>; dependencies: Record<string, string> };
let project: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "mcp-testkit-pack-"));
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", project], { cwd: root, timeout: 60_000 });
  const tarball = join(project, stdout.trim().split("\n").pop()!);
  const installed = join(project, "node_modules", "mcp-testkit");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], { timeout: 30_000 });
  // The package's dependencies come from this checkout, as npm would have installed them.
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (entry === "mcp-testkit" || entry.startsWith(".")) continue;
    symlinkSync(join(root, "node_modules", entry), join(project, "node_modules", entry));
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
}, 90_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

const expectedExports: Record<string, string[]> = {
  ".": ["mockMcp", "matches", "recordTraffic", "validateMessage", "mcpShell", "mcpConnect", "McpTestkitError"],
  "./protocol": ["validateRequest", "validateResponse", "validateToolDefinition", "isValid", "validateMessage", "negotiateVersion"],
  "./inspect": ["recordTraffic", "TrafficRecorder"],
  "./testing": ["mcpTestKit", "createTestKit"],
  "./driver": ["mcpShell", "mcpConnect", "mcpAttach"],
  "./matchers": ["mcpMatchers"],
  "./observe": ["openTelemetryObserver", "traceContextMeta", "MetricsSnapshot", "metricsText", "METRICS_PATH", "MCP_REQUEST_OUTCOMES"],
  "./simulate": ["simulate", "Simulator", "Simulation", "DEFAULT_STREAM_ITEM_QUEUE_CAPACITY"],
};

describe("the packed package", () => {
  it("lists every entry point this test checks", () => {
    const entries = Object.keys(manifest.exports).filter((entry) => entry !== "./package.json" && entry !== "./vitest" && entry !== "./jest");
    expect(entries.sort()).toEqual(Object.keys(expectedExports).sort());
  });

  for (const [entry, names] of Object.entries(expectedExports)) {
    it(`imports "mcp-testkit${entry.slice(1)}" with its public names`, async () => {
      const specifier = `mcp-testkit${entry.slice(1)}`;
      const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(${JSON.stringify(names)}.filter((n) => !(n in m))));`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project, timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual([]);
    });
  }

  it("runs a mock from the installed package", async () => {
    const script = `import { mockMcp } from "mcp-testkit";
      const server = await mockMcp({ transport: "memory", tools: { hi: { returns: "hello" } } });
      const reply = await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hi" } }));
      await server.close();
      console.log(reply);`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hello" }] } });
  });

  it("has a working bin", async () => {
    const bin = join(project, "node_modules", "mcp-testkit", "dist", "cli", "main.js");
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    const { stdout } = await run(process.execPath, [bin, "--help"], { cwd: project, timeout: 30_000 });
    expect(stdout).toMatch(/Usage: mcp-testkit <command>/);
    expect(stdout).toMatch(/\bmock\b/);
  });
});
