/**
 * The per-test kit under the other runners: node:test and Jest run fixture files that import the
 * BUILT package (dist/, from `npm run build`), in child processes with bounded timeouts. A leaked
 * handle would keep the child alive past its timeout and fail the test.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../support/built.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/testing/fixtures");
const CHILD_TIMEOUT_MS = 60_000;

// The fixtures import dist/, so it must be built from the sources as they are now.
beforeAll(() => assertBuilt());

describe("mcpTestKit under node:test", () => {
  it(
    "passes every test of the fixture, with node:test's beforeEach/afterEach",
    async () => {
      const { stdout } = await run(process.execPath, ["--test", "--test-reporter=tap", join(fixtures, "node-test-kit.test.mjs")], {
        cwd: root,
        timeout: CHILD_TIMEOUT_MS,
      });
      expect(stdout).toMatch(/^# tests 6$/m);
      expect(stdout).toMatch(/^# pass 6$/m);
      expect(stdout).toMatch(/^# fail 0$/m);
      expect(stdout).toMatch(/^# cancelled 0$/m);
      expect(stdout).toContain("ok 2 - gives the next test a fresh server and closes the previous client");
    },
    CHILD_TIMEOUT_MS + 5_000,
  );
});

describe("mcpTestKit under Jest (ESM, global hooks)", () => {
  let cacheDirectory: string;
  beforeAll(() => {
    cacheDirectory = mkdtempSync(join(tmpdir(), "mcp-testkit-jest-"));
  });
  afterAll(() => rmSync(cacheDirectory, { recursive: true, force: true }));

  it(
    "passes every test of the fixture",
    async () => {
      // Only the Jest fixture: the node:test fixture in the same folder would match Jest's default testMatch.
      const config = { rootDir: fixtures, testMatch: ["<rootDir>/jest-*.test.mjs"], transform: {}, cacheDirectory };
      const { stdout } = await run(process.execPath, ["--experimental-vm-modules", join(root, "node_modules/jest/bin/jest.js"), "--config", JSON.stringify(config), "--ci", "--json"], {
        cwd: root,
        timeout: CHILD_TIMEOUT_MS,
      });
      const report = JSON.parse(stdout) as {
        success: boolean;
        numTotalTests: number;
        numPassedTests: number;
        numFailedTests: number;
        testResults: Array<{ name: string; status: string; assertionResults: Array<{ title: string; status: string }> }>;
      };
      expect(report.testResults.map((file) => [file.name, file.status])).toEqual([[join(fixtures, "jest-kit.test.mjs"), "passed"]]);
      expect(report.testResults[0]!.assertionResults.map((test) => [test.title, test.status])).toEqual([
        ["gives the test a connected, initialized client", "passed"],
        ["gives the next test a fresh server and closes the previous client", "passed"],
        ["assertToolReturns reports a check that throws (here a failed Jest expect)", "passed"],
        ["assertToolFails passes on a tool error", "passed"],
        ["resources and prompts registered inside the test work through the kit's client", "passed"],
        ["true sends the test's full name", "passed"],
      ]);
      expect([report.success, report.numTotalTests, report.numPassedTests, report.numFailedTests]).toEqual([true, 6, 6, 0]);
    },
    CHILD_TIMEOUT_MS + 5_000,
  );
});
