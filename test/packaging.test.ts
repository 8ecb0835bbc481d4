/**
 * The package as users get it: copy the repository's files (as a fresh clone has them: no
 * `dist`), `npm pack` there (its `prepack` builds), unpack the tarball into a fresh
 * `"type": "module"` project, and import every public entry point, `require()` it, run the bin
 * and a Jest test from there. Catches a missing build, a missing file in "files", a wrong
 * "exports" path, a bin without its shebang and source maps that point at files not shipped.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, Record<string, string>>; dependencies: Record<string, string> };
let scratch: string;
let project: string;
let installed: string;
let packed: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "mcp-testkit-pack-"));
  // A fresh clone: the files git knows (tracked, or new and not ignored), so no dist/.
  const clone = join(scratch, "clone");
  const { stdout: files } = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  for (const file of files.split("\0").filter(Boolean)) {
    if (existsSync(join(root, file))) cpSync(join(root, file), join(clone, file), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"));
  // What an earlier build left for a source since deleted: the build must clear it, not ship it.
  mkdirSync(join(clone, "dist", "cli"), { recursive: true });
  writeFileSync(join(clone, "dist", "cli", "left-over.js"), "export {};\n");
  project = join(scratch, "consumer");
  mkdirSync(project);
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", project], { cwd: clone, timeout: 120_000 });
  const tarball = join(project, stdout.trim().split("\n").pop()!);
  const { stdout: listing } = await run("tar", ["-tzf", tarball], { timeout: 30_000 });
  packed = listing
    .trim()
    .split("\n")
    .map((entry) => entry.replace(/^package\//, ""));
  installed = join(project, "node_modules", "mcp-testkit");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], { timeout: 30_000 });
  // The package's dependencies come from this checkout, as npm would have installed them.
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (entry === "mcp-testkit" || entry.startsWith(".")) continue;
    symlinkSync(join(root, "node_modules", entry), join(project, "node_modules", entry));
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const expectedExports: Record<string, string[]> = {
  ".": ["mockMcp", "matches", "recordTraffic", "recordMcp", "verifyRecording", "validateMessage", "mcpShell", "mcpConnect", "McpTestkitError", "snapshotServer", "diffSurfaces"],
  "./protocol": ["validateRequest", "validateResponse", "validateToolDefinition", "isValid", "validateMessage", "negotiateVersion"],
  "./inspect": ["recordTraffic", "TrafficRecorder"],
  "./testing": ["mcpTestKit", "createTestKit"],
  "./driver": ["mcpShell", "mcpConnect", "mcpAttach"],
  "./matchers": ["mcpMatchers"],
  "./observe": ["openTelemetryObserver", "traceContextMeta", "MetricsSnapshot", "metricsText", "METRICS_PATH", "MCP_REQUEST_OUTCOMES"],
  "./simulate": ["simulate", "Simulator", "Simulation", "DEFAULT_STREAM_ITEM_QUEUE_CAPACITY"],
  "./trace": ["readTraffic", "traceToHar", "parseTrace"],
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

  it("keeps the engine's internals out of the package root (they are not public API)", async () => {
    // The classes: type-only names (Outcome, Peer) cannot show at runtime at all.
    // And two helpers of ours that an `export *` once carried out: a generic object check and the recorder's direction rule.
    const internals = ["Engine", "Connection", "NegotiatedState", "isObject", "wireDirection"];
    const script = `const m = await import("mcp-testkit"); console.log(JSON.stringify(${JSON.stringify(internals)}.filter((n) => n in m)));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project, timeout: 30_000 });
    // The type side (type-only names such as Outcome and Peer) is test/types/internals.test-d.ts.
    expect(JSON.parse(stdout)).toEqual([]);
  });

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

  it("is built by prepack, with a LICENSE, and without tests", () => {
    expect(packed).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "LICENSE", "README.md", "package.json", "examples/scenarios/weather.ts"]));
    expect(packed.filter((file) => /\.test(-d)?\.ts$/.test(file) || file.startsWith("test/"))).toEqual([]);
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} mcp-testkit contributors\n/);
  });

  it("ships the guides, and every file the README and the guides link to, with the repository named", () => {
    expect(packed).toEqual(expect.arrayContaining(["docs/mocking.md", "docs/fakes.md", "docs/driver.md", "docs/recipes.md"]));
    const documents = packed.filter((file) => file === "README.md" || /^docs\/[^/]+\.md$/.test(file));
    const missing = documents.flatMap((document) =>
      [...readFileSync(join(installed, document), "utf8").matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) => join(dirname(document), target))
        .filter((target) => !existsSync(join(installed, target)))
        .map((target) => `${document} → ${target}`),
    );
    expect(missing).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { repository?: { url?: string }; homepage?: string };
    expect(shipped.repository?.url).toContain("github.com/mcp-testkit/mcp-testkit");
    expect(shipped.homepage).toContain("github.com/mcp-testkit/mcp-testkit");
  });

  it("ships no build output left from an earlier build (the build clears dist first)", () => {
    expect(packed).not.toContain("dist/cli/left-over.js");
    expect(packed).toContain("dist/cli/main.js");
  });

  it("ships every file its source maps and declaration maps point at", () => {
    const maps = packed.filter((file) => file.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    const missing = maps.flatMap((map) => {
      const { sources } = JSON.parse(readFileSync(join(installed, map), "utf8")) as { sources: string[] };
      return sources.map((source) => join(dirname(map), source)).filter((source) => !packed.includes(source));
    });
    expect(missing).toEqual([]);
  });

  it("ships examples that import the package by name, not the repository's sources", () => {
    const examples = packed.filter((file) => file.startsWith("examples/") && /\.(ts|js|mjs)$/.test(file));
    const relative = examples.filter((file) => /from ["'](\.\.\/)+(src|dist)\//.test(readFileSync(join(installed, file), "utf8")));
    expect(relative).toEqual([]);
    expect(readFileSync(join(installed, "examples/scenarios/weather.ts"), "utf8")).toContain('from "mcp-testkit"');
  });

  it("every export has a default condition, so require() finds it", () => {
    for (const [entry, conditions] of Object.entries(manifest.exports)) {
      if (typeof conditions === "object") expect(conditions, entry).toHaveProperty("default");
    }
  });

  it.runIf(process.features.require_module)("loads with require() where Node can load ESM from CommonJS", async () => {
    const script = `const { mockMcp } = require("mcp-testkit"); const { mcpTestKit } = require("mcp-testkit/testing");
      console.log(typeof mockMcp, typeof mcpTestKit);`;
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: project, timeout: 30_000 });
    expect(stdout.trim()).toBe("function function");
  });

  it("runs a Jest test set up as the README says", async () => {
    mkdirSync(join(project, "__tests__"), { recursive: true });
    writeFileSync(
      join(project, "__tests__", "mock.test.js"),
      `import { mockMcp } from "mcp-testkit"; // the matchers come from setupFilesAfterEnv
      test("a mock under Jest", async () => {
        const server = await mockMcp({ transport: "memory", tools: { hi: { returns: "hello" } } });
        try {
          const reply = JSON.parse(await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hi" } })));
          expect(reply.result).toBeSuccessful();
          expect(server).toHaveBeenCalledTool("hi");
        } finally {
          await server.close();
        }
      });`,
    );
    // The README's Jest setup: ESM tests under --experimental-vm-modules, matchers from setupFilesAfterEnv.
    const manifestPath = join(project, "package.json");
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, "utf8")), jest: { setupFilesAfterEnv: ["mcp-testkit/jest"] } }));
    const jest = join(project, "node_modules", "jest", "bin", "jest.js");
    const { stdout } = await run(process.execPath, ["--experimental-vm-modules", jest, "--json", "--no-watchman", "--cacheDirectory", join(scratch, "jest-cache")], {
      cwd: project,
      timeout: 90_000,
      env: { ...process.env, NO_COLOR: "1" },
    });
    const report = JSON.parse(stdout) as { numPassedTests: number; numFailedTests: number };
    expect(report).toMatchObject({ numPassedTests: 1, numFailedTests: 0 });
  }, 120_000);
});
