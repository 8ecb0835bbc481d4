/**
 * The matchers under Jest: runs test/matchers/fixtures/jest-matchers.test.mjs (which imports the
 * built `dist/matchers/jest.js`) in a Jest child process and checks what passed, what failed and
 * the failure messages, including the diff Jest gets inside the message.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { assertBuilt } from "../support/built.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cacheDir = mkdtempSync(join(tmpdir(), "mcp-testkit-jest-cache-"));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

function runJest(): Promise<{ report: JestReport; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        "--experimental-vm-modules",
        join(root, "node_modules/jest/bin/jest.js"),
        "--rootDir",
        join(root, "test/matchers/fixtures"),
        "--config",
        "{}",
        "--json",
        "--no-watchman",
        "--cacheDirectory",
        cacheDir,
      ],
      { cwd: root, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
      (error, stdout, stderr) => {
        // Jest exits 1 when a test fails, which the fixture's "FAILS:" tests do on purpose.
        if (error && (error as { killed?: boolean }).killed) return reject(new Error(`jest timed out\n${stderr}`));
        try {
          resolve({ report: JSON.parse(stdout) as JestReport, stderr });
        } catch {
          reject(new Error(`jest printed no JSON report (exit ${String(error?.code)})\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }
      },
    );
  });
}

it("runs the built matchers under Jest: passes pass, failures fail with their messages and diffs", async () => {
  // The built matchers use much of the kit (matching, the driver, the mock), so all of it must be built.
  assertBuilt();

  const { report, stderr } = await runJest();
  const tests = report.testResults.flatMap((file) => file.assertionResults);
  const byTitle = new Map(tests.map((test) => [test.title, test]));
  const unexpected = tests.filter((test) => test.title.startsWith("FAILS:") !== (test.status === "failed"));
  expect(
    unexpected.map((test) => `${test.title}: ${test.status}\n${test.failureMessages.join("\n")}`),
    stderr,
  ).toEqual([]);
  expect([report.numPassedTests, report.numFailedTests]).toEqual([3, 5]);

  const message = (title: string) => byTitle.get(title)?.failureMessages.join("\n") ?? "";
  expect(message("FAILS: toHaveTool lists the tools and shows a diff")).toContain(
    'expected server to have tool "write_file"; it has: read_file, list_directory, fetch\n\n- Expected\n+ Received\n\n  Array [\n    "read_file",\n    "list_directory",\n    "fetch",\n-   "write_file",\n  ]',
  );
  expect(message("FAILS: toMatchToolSchema names the difference")).toContain(
    'expected tool "read_file" to match {"annotations":{"readOnlyHint":false}}; at $.annotations.readOnlyHint: expected false, got true\n\n- Expected\n+ Received\n\n  Object {\n    "annotations": Object {\n-     "readOnlyHint": false,\n+     "readOnlyHint": true,',
  );
  expect(message("FAILS: .not.toBeSuccessful on a success")).toContain('expected tool call to fail (isError: true), but it succeeded with text "a.txt"');
  expect(message("FAILS: toHaveTextContent on a value of the wrong kind")).toContain(
    'toHaveTextContent expects a tool call result ({ content: [...], isError? }, from callTool()); received the string "hello"',
  );
  expect(message("FAILS: toHaveBeenCalledTool lists the calls")).toContain('Expected "read_file" to be called 2 times, but it was called 1 time.\nCalls:\n  #0 {"path":"a.txt"}');
}, 90_000);
