/**
 * `mcp-testkit validate <fixtures…>`: checks fixture files of scenario fakes (the mcpFakes
 * format) without serving them, as a mock would load them: every problem of every file, with
 * its rule, file, block and entry, and the shadowed-entry warnings. A scenario file (mockMcp()
 * options, such as `mcp-testkit record` writes) is checked whole: its inline blocks of fakes,
 * named by the file, then the options themselves, by a mock made in memory. Exit 0 when all load.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createFakes, FixtureLoadError, McpFakesAddError, type FakeLoadWarning, type LoadResult } from "../../fakes/index.js";
import { mockMcp, type MockMcpOptions } from "../../mock/mock-mcp.js";
import { McpTestkitError } from "../../errors.js";
import { problemsOf } from "../../mock/option-problems.js";
import { fromAimockConfig, isAimockConfig } from "../../mock/aimock-config.js";
import { problemLines } from "../output/problems.js";
import { withoutByteOrderMark } from "../../util/json-syntax.js";
import { plural } from "../../util/text.js";
import { CommandError, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { loadScenario, type Scenario } from "../scenario.js";

export const summary = "Check fixture files of scenario fakes (mcpFakes) or a scenario file, not serving them";

export const help = `Usage: mcp-testkit validate [options] <fixtures directory or file | scenario file>...

Loads each directory (every .json file under it, named by its path relative to it) or file the
way "mcp-testkit mock --fixtures" and mockMcp({ fixtures }) do, and reports every problem:
its rule (such as mcp-fakes/unknown-key), the file, block and entry, and what to fix. Warnings
(an entry that cannot match until an earlier anyArgs entry is used) are printed too.
A scenario file (mockMcp() options as JSON, or a .js/.ts module, such as mcp-testkit record
writes) is checked as "mcp-testkit mock <file>" would load it: the blocks of fakes in its
"fixtures" (named by the file), then the whole scenario (rule mcp-testkit/scenario).
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
  /** What the path held: fixture files of fakes, or a scenario. */
  kind: "fixtures" | "scenario";
  blocks: number;
  errors: Array<{ rule: string; file: string | null; blockId: string | null; entryId: string | null; message: string }>;
  warnings: FakeLoadWarning[];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("missing the fixtures directory or file to check");
  const reports: PathReport[] = [];
  for (const path of positionals) reports.push(await checkPath(path));
  const ok = reports.every((report) => report.ok);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ok, paths: reports }, null, 2)}\n`);
  } else {
    for (const report of reports) {
      const what = report.kind === "scenario" ? `scenario, ${plural(report.blocks, "block")} of fakes` : plural(report.blocks, "block");
      if (report.ok) process.stdout.write(`ok    ${report.path} (${what})\n`);
      else process.stdout.write(`FAIL  ${report.path}: ${plural(report.errors.length, "problem")}\n`);
      for (const line of problemLines(report.errors)) process.stdout.write(`${line}\n`);
      for (const warning of report.warnings) process.stdout.write(`  warning: ${warning.message}\n`);
    }
  }
  return ok ? EXIT_OK : 1;
}

/** Loads one path into fresh fakes (each path alone, so one bad file does not hide another's problems). */
async function checkPath(path: string): Promise<PathReport> {
  const full = resolve(path);
  let directory: boolean;
  try {
    directory = statSync(full).isDirectory();
  } catch {
    return failed(path, "fixtures", "mcp-fakes/bad-file", `${path} is neither a file nor a directory (looked at ${full}).`);
  }
  if (!directory && isScenarioFile(full)) return await checkScenario(path);
  return loadFakes(path, "fixtures", (fakes) => (directory ? fakes.loadDir(full) : fakes.loadFile(full, path)));
}

/** Loads fakes into a fresh store and reports every problem, or how many blocks loaded. */
function loadFakes(path: string, kind: PathReport["kind"], load: (fakes: ReturnType<typeof createFakes>) => LoadResult): PathReport {
  // A fixture's steps are checked by the description the mock checks its scripts with, so validate refuses every step the mock would.
  const fakes = createFakes();
  try {
    const result = load(fakes);
    return { path, ok: true, kind, blocks: result.added, errors: [], warnings: result.warnings };
  } catch (error) {
    if (!(error instanceof FixtureLoadError)) throw error;
    const errors = error instanceof McpFakesAddError ? error.errors : [error];
    const warnings = error instanceof McpFakesAddError ? error.warnings : [];
    return {
      path,
      ok: false,
      kind,
      blocks: 0,
      warnings,
      errors: errors.map((problem) => ({ rule: problem.rule, file: problem.file, blockId: problem.blockId, entryId: problem.entryId, message: problem.detail ?? problem.message })),
    };
  }
}

/**
 * A scenario: its inline blocks first (named by the file, with every problem), then the whole of
 * it as `mcp-testkit mock <file>` would take it, by a mock made in memory and closed at once.
 */
async function checkScenario(path: string): Promise<PathReport> {
  let scenario: Scenario;
  try {
    scenario = await loadScenario(path);
  } catch (error) {
    if (error instanceof CommandError) return failed(path, "scenario", "mcp-testkit/scenario", error.message);
    throw error;
  }
  try {
    if (isAimockConfig(scenario)) scenario = fromAimockConfig(scenario) as Scenario;
  } catch (error) {
    if (error instanceof McpTestkitError) return { ...failed(path, "scenario", "mcp-testkit/scenario", ""), errors: problemsOf(error).map((problem) => ({ ...problem, file: path })) };
    throw error;
  }
  const listed = scenario.fixtures === undefined ? [] : Array.isArray(scenario.fixtures) ? scenario.fixtures : [scenario.fixtures];
  const blocks = listed.filter((item) => typeof item !== "string");
  const fakes = loadFakes(path, "scenario", (store) => (blocks.length === 0 ? { added: 0, warnings: [] } : store.load(blocks, path)));
  // The rest of the scenario is checked whatever its blocks held, so every problem shows in one run.
  const { transport: _transport, http: _http, fixtures: _checkedAbove, ...options } = scenario;
  const paths = listed.filter((item) => typeof item === "string");
  try {
    const mock = await mockMcp({ ...(options as MockMcpOptions), ...(paths.length > 0 && { fixtures: paths }), transport: "memory" });
    await mock.close();
  } catch (error) {
    if (!(error instanceof McpTestkitError || error instanceof TypeError || error instanceof RangeError)) throw error;
    const errors = problemsOf(error).map(({ rule, file, blockId, entryId, message }) => ({ rule, file: file ?? path, blockId, entryId, message }));
    return { ...fakes, ok: false, blocks: 0, errors: [...fakes.errors, ...errors] };
  }
  return fakes;
}

/** A module, or JSON that is not a fixture file (no "mcpFakes") and holds mockMcp() options. */
function isScenarioFile(full: string): boolean {
  if (/\.(c|m)?(j|t)s$/i.test(full)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutByteOrderMark(readFileSync(full, "utf8")));
  } catch {
    return false; // the fixture loader reports the file's syntax
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || "mcpFakes" in parsed) return false;
  const object = parsed as Record<string, unknown>;
  // A fixture file's "fixtures" is aimock's LLM array ({ match, response }); a scenario's holds blocks of fakes or paths.
  const fixtures = Array.isArray(object.fixtures) ? object.fixtures : [];
  const holdsBlocks = fixtures.some((item) => typeof item === "string" || (typeof item === "object" && item !== null && "scope" in item));
  return holdsBlocks || isAimockConfig(object) || ["tools", "resources", "prompts", "serverInfo", "instructions"].some((key) => key in object);
}

function failed(path: string, kind: PathReport["kind"], rule: string, message: string): PathReport {
  return { path, ok: false, kind, blocks: 0, warnings: [], errors: [{ rule, file: path, blockId: null, entryId: null, message }] };
}
