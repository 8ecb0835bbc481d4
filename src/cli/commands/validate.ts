/**
 * `mcp-testkit validate <fixtures…>`: checks fixture files of scenario fakes (the mcpFakes
 * format) without serving them, as a mock would load them: every problem of every file, with
 * its rule, file, block and entry, and the shadowed-entry warnings. Exit 0 when all load.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { createFakes, FixtureLoadError, McpFakesAddError, type FakeLoadWarning } from "../../fakes/index.js";
import { checkFakeStep } from "../../mock/fakes-binding.js";
import { plural } from "../../util/text.js";
import { EXIT_OK, parseCommandLine, UsageError } from "../command.js";

export const summary = "Check fixture files of scenario fakes (mcpFakes) without serving them";

export const help = `Usage: mcp-testkit validate [options] <fixtures directory or file>...

Loads each directory (every .json file under it, named by its path relative to it) or file the
way "mcp-testkit mock --fixtures" and mockMcp({ fixtures }) do, and reports every problem:
its rule (such as mcp-fakes/unknown-key), the file, block and entry, and what to fix. Warnings
(an entry that cannot match until an earlier anyArgs entry is used) are printed too.
Exits 0 when every path loads, 1 when any has a problem.

Options:
  --json       Print { ok, paths: [{ path, ok, blocks, errors, warnings }] } instead of text
  -h, --help   Show this help

Examples:
  mcp-testkit validate ./fixtures
  mcp-testkit validate tickets/retry.json travel.json --json`;

const OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

interface PathReport {
  path: string;
  ok: boolean;
  blocks: number;
  errors: Array<{ rule: string; file: string | null; blockId: string | null; entryId: string | null; message: string }>;
  warnings: FakeLoadWarning[];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("missing the fixtures directory or file to check");
  const reports = positionals.map(checkPath);
  const ok = reports.every((report) => report.ok);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ok, paths: reports }, null, 2)}\n`);
  } else {
    for (const report of reports) {
      if (report.ok) process.stdout.write(`ok    ${report.path} (${plural(report.blocks, "block")})\n`);
      else process.stdout.write(`FAIL  ${report.path}: ${plural(report.errors.length, "problem")}\n`);
      for (const error of report.errors) process.stdout.write(`  ${error.rule}: ${error.message}\n`);
      for (const warning of report.warnings) process.stdout.write(`  warning: ${warning.message}\n`);
    }
  }
  return ok ? EXIT_OK : 1;
}

/** Loads one path into fresh fakes (each path alone, so one bad file does not hide another's problems). */
function checkPath(path: string): PathReport {
  // The mock's own step checker, so validate refuses every step the mock would.
  const fakes = createFakes({ checkStep: checkFakeStep });
  const full = resolve(path);
  let directory: boolean;
  try {
    directory = statSync(full).isDirectory();
  } catch {
    return { path, ok: false, blocks: 0, warnings: [], errors: [{ rule: "mcp-fakes/bad-file", file: path, blockId: null, entryId: null, message: `${path} is neither a file nor a directory (looked at ${full}).` }] };
  }
  try {
    const result = directory ? fakes.loadDir(full) : fakes.loadFile(full, path);
    return { path, ok: true, blocks: result.added, errors: [], warnings: result.warnings };
  } catch (error) {
    if (!(error instanceof FixtureLoadError)) throw error;
    const errors = error instanceof McpFakesAddError ? error.errors : [error];
    const warnings = error instanceof McpFakesAddError ? error.warnings : [];
    return {
      path,
      ok: false,
      blocks: 0,
      warnings,
      errors: errors.map((problem) => ({ rule: problem.rule, file: problem.file, blockId: problem.blockId, entryId: problem.entryId, message: problem.detail ?? problem.message })),
    };
  }
}
