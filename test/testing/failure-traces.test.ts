/**
 * The traces of failing tests: the per-test kit, under a real Vitest and a real Jest run in child
 * processes, writes each failing test's trace into MCP_TESTKIT_TRACE_DIR, names the file in the
 * failure message, and keeps nothing for the passing tests.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createTestKit } from "../../src/testing/index.js";
import { onTraceWritten, writeTestTrace } from "../../src/testing/failure-traces.js";
import { parseTrace } from "../../src/trace/index.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(join(tmpdir(), "mcp-failure-traces-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const CHILD_TIMEOUT_MS = 90_000;

/** Runs a child test runner that is expected to fail (one test fails on purpose); resolves with its output. */
async function runFailing(command: string, args: string[], env: Record<string, string>): Promise<string> {
  try {
    await run(command, args, { cwd: root, timeout: CHILD_TIMEOUT_MS, env: { ...process.env, ...env } });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
  }
  throw new Error("the child run passed, but one of its tests fails on purpose");
}

describe("MCP_TESTKIT_TRACE_DIR under Vitest", () => {
  it(
    "holds the failing test's trace, named in its failure; nothing for the passing test",
    async () => {
      const dir = join(scratch, "vitest");
      const output = await runFailing(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", "test/testing/fixtures/vitest-traces.config.ts", "--root", root], {
        MCP_TESTKIT_TRACE_DIR: dir,
      });
      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^traced-fails-after-a-call-[0-9a-f]{8}\.timeline\.html$/);
      expect(files[1]).toMatch(/^traced-fails-after-a-call-[0-9a-f]{8}\.trace\.jsonl$/);
      const trace = parseTrace(readFileSync(join(dir, files[1]!), "utf8"));
      expect(trace.entries.some((entry) => JSON.stringify(entry.message).includes("lost keys"))).toBe(true);
      // The page holds the same messages, with nothing to fetch: its script and data are inline.
      const page = readFileSync(join(dir, files[0]!), "utf8");
      expect(page).toContain("lost keys");
      expect(page).not.toMatch(/<script[^>]+src=/);
      expect(output).toContain(`this test's MCP traffic is in ${join(dir, files[1]!)} (its timeline is ${join(dir, files[0]!)}`);
    },
    CHILD_TIMEOUT_MS + 5_000,
  );
});

describe("MCP_TESTKIT_TRACE_DIR under Jest", () => {
  it(
    "holds the failing test's trace, named in its failure; nothing for the passing test",
    async () => {
      const dir = join(scratch, "jest");
      const fixtures = join(scratch, "jest-fixtures");
      rmSync(fixtures, { recursive: true, force: true });
      (await import("node:fs")).mkdirSync(fixtures, { recursive: true });
      writeFileSync(
        join(fixtures, "traced.test.mjs"),
        `import { mcpTestKit } from ${JSON.stringify(join(root, "dist/testing/index.js"))};
const kit = mcpTestKit({ tools: { search: { returns: "found" } } });
describe("traced", () => {
  test("fails after a call", async () => {
    await kit.client.callTool({ name: "search", arguments: { q: "lost keys" } });
    expect("found").toBe("lost");
  });
  test("passes after a call", async () => {
    await kit.client.callTool({ name: "search", arguments: { q: "bug" } });
  });
});
`,
      );
      const config = { rootDir: fixtures, testMatch: ["<rootDir>/*.test.mjs"], transform: {}, cacheDirectory: join(scratch, "jest-cache") };
      const output = await runFailing(process.execPath, ["--experimental-vm-modules", join(root, "node_modules/jest/bin/jest.js"), "--config", JSON.stringify(config), "--ci"], {
        MCP_TESTKIT_TRACE_DIR: dir,
      });
      const files = readdirSync(dir).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^traced-fails-after-a-call-[0-9a-f]{8}\.timeline\.html$/);
      expect(files[1]).toMatch(/^traced-fails-after-a-call-[0-9a-f]{8}\.trace\.jsonl$/);
      expect(output).toContain("this test's MCP traffic is in");
    },
    CHILD_TIMEOUT_MS + 5_000,
  );
});

describe("writing a test's trace yourself", () => {
  it("writes the trace of a single-test kit, and tells onTraceWritten where", async () => {
    await using kit = await createTestKit({ trace: true, tools: { search: { returns: "found" } } });
    await kit.client.callTool({ name: "search", arguments: {} });
    const heard: string[] = [];
    const stop = onTraceWritten((written) => heard.push(`${written.testName} ${written.failed} ${written.file}`));
    const file = writeTestTrace(kit.server.trace!, join(scratch, "own"), "my suite > my test", true);
    stop();
    expect(heard).toEqual([`my suite > my test true ${file}`]);
    expect(parseTrace(readFileSync(file, "utf8")).entries.length).toBeGreaterThan(3);
  });

  it("refuses a bad traceDir or keepTraces", async () => {
    await expect(createTestKit({ traceDir: "" })).rejects.toThrow('"traceDir" must be a folder name');
    await expect(createTestKit({ keepTraces: "some" as never })).rejects.toThrow('"keepTraces" must be "failed" (the default: traces of failing tests) or "all", got "some"');
  });
});
