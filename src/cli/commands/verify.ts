/**
 * `mcp-testkit verify <recording> --target <command | url>`: asks the live server each call a
 * recording holds (`verifyRecording`) and shows each drifted call with the paths that changed,
 * a summary, and an exit code CI can gate on.
 */
import type { McpDriver } from "../../driver/index.js";
import { McpTestkitError } from "../../errors.js";
import { readRecordingFile, verifyRecording, type VerifiedCall, type VerifyReport } from "../../record/verify.js";
import type { AnswerDifference } from "../../record/answer-diff.js";
import { parsePathRules } from "../../record/answer-diff.js";
import { Redactor } from "../../record/redact.js";
import { describeValue, plural } from "../../util/text.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { createProgress, type Progress } from "../output/progress.js";
import { describeEra, ERA_HELP, ERA_OPTIONS, parseEra } from "../target/era.js";
import { parseTarget, TARGET_EXPLAINED, TARGET_HELP, TARGET_OPTIONS, withConnectedDriver } from "../target/target.js";

export const summary = "Verify a recording against the live server: does it still answer as recorded?";

export const help = `Usage: mcp-testkit verify [options] <recording> --target <command | url>

Asks the live server each tools/call, resources/read and prompts/get the recording holds (a
file written by mcp-testkit record, scenario or fixture), in the recording's order, and
compares each answer with the recorded one, path by path. Each drifted call is shown with
what changed where (result.content.0.text: expected "3", got "4"), then a summary.
Ignored, since a live server gives new ids and times: _meta, and the keys id, requestId,
timestamp, createdAt, updatedAt, date and time, at any depth; two date-time strings count as
equal. A call that cannot be asked
again as recorded (its arguments were redacted, it is a scripted step) is skipped, saying why.
${TARGET_EXPLAINED}

Options:
  --target <server>    The live server: a command that starts it, or its URL (required)
  --ignore <path>      Also leave this path out (repeatable): result.structuredContent.version,
                       result.content.*.text, error.message, **.etag (a key at any depth)
  --unordered          Compare every array without regard to order
  --unordered-at <path>
                       Compare the array at this path without regard to order (repeatable)
  --strict             Compare ids, timestamps and _meta too (no default ignores)
${ERA_HELP}
${TARGET_HELP}

Values are shown with secrets replaced by "[redacted]", as a recording keeps them.

Exit codes: 0 every call answered as recorded (skipped calls aside); 1 a call drifted or
failed, or the server could not be started or reached; 2 bad usage or an unreadable recording.

Examples:
  mcp-testkit verify recordings/everything.json \\
    --target "npx -y @modelcontextprotocol/server-everything stdio"
  mcp-testkit verify fixtures/github.json --target http://127.0.0.1:8080/mcp \\
    --ignore "**.updated_at" --unordered-at result.structuredContent.labels --json`;

const OPTIONS = {
  ...TARGET_OPTIONS,
  ...ERA_OPTIONS,
  target: { type: "string" },
  ignore: { type: "string", multiple: true },
  unordered: { type: "boolean" },
  "unordered-at": { type: "string", multiple: true },
  strict: { type: "boolean" },
} as const;

/** Values shown on the terminal pass the recorder's own secret rules first. */
const shown = new Redactor({});
const MAX_SHOWN_DIFFERENCES = 20;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'missing the recording: the file written by mcp-testkit record, e.g. mcp-testkit verify recording.json --target "node server.js"'
        : `takes one recording, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(" ")}; give the server with --target (quote a command with arguments)`,
    );
  }
  if (values.target === undefined) throw new UsageError('missing --target <command | url>: the live server to verify the recording against, e.g. --target "node server.js"');
  const target = parseTarget(values.target, values);
  const era = parseEra(values);
  const ignore = values.ignore ?? [];
  const unorderedAt = values["unordered-at"] ?? [];
  try {
    parsePathRules(ignore, "--ignore");
    parsePathRules(unorderedAt, "--unordered-at");
  } catch (error) {
    if (error instanceof McpTestkitError) throw new UsageError(error.detail);
    throw error;
  }
  const file = positionals[0]!;
  let recording: Record<string, unknown>;
  try {
    recording = await readRecordingFile(file);
  } catch (error) {
    if (error instanceof McpTestkitError) throw new UsageError(error.detail);
    throw error;
  }
  const json = values.json === true;
  const progress = createProgress();
  return withConnectedDriver(
    "verify",
    target,
    progress,
    async (driver) => {
      progress.step("verifying");
      const report = await verifyRecording(recording, driver, {
        ignore,
        unorderedArrays: values.unordered === true ? true : unorderedAt,
        defaults: values.strict !== true,
        timeoutMs: target.timeoutMs,
      });
      progress.stop();
      if (json) progress.print(JSON.stringify(shown.redact({ recording: file, server: driver.serverInfo, ...report } as Record<string, unknown>, []), null, 2));
      else printReport(report, file, target.value, driver, describeEra(driver, era), progress);
      return report.ok ? EXIT_OK : EXIT_FAILURE;
    },
    era,
  ).catch((error: unknown) => {
    if (error instanceof McpTestkitError) throw new CommandError(error.detail);
    throw error;
  });
}

function printReport(report: VerifyReport, file: string, target: string, driver: McpDriver, era: string, progress: Progress): void {
  const server = driver.serverInfo === undefined ? "" : ` (${driver.serverInfo.name} ${driver.serverInfo.version}, ${era})`;
  progress.print(`mcp-testkit verify: ${file} against ${target}${server}`);
  for (const call of report.calls) {
    const mark = call.status === "matched" ? "ok  " : call.status === "skipped" ? "skip" : call.status === "failed" ? "FAIL" : "DIFF";
    const why = call.status === "skipped" || call.status === "failed" ? `: ${call.reason}` : "";
    progress.print(`  ${mark} ${label(call)}${why}`);
    for (const difference of call.differences.slice(0, MAX_SHOWN_DIFFERENCES)) progress.print(`         ${describeDifference(difference)}`);
    if (call.differences.length > MAX_SHOWN_DIFFERENCES) progress.print(`         … and ${call.differences.length - MAX_SHOWN_DIFFERENCES} more (--json shows them all)`);
  }
  const { total, matched, drifted, failed, skipped } = report.summary;
  const verdict = report.ok ? "the server answers as recorded" : "the server no longer answers as recorded";
  progress.print(`${plural(total, "call")}: ${matched} matched, ${drifted} drifted, ${failed} failed, ${skipped} skipped; ${verdict}.`);
}

/** `tool lookup #0 {"item":"apple"}`: the call, its entry among that tool's recorded calls, and its arguments. */
function label(call: VerifiedCall): string {
  if (call.kind === "resource") return `resource ${call.uri} #${call.entry}`;
  const args = Object.keys(call.arguments).length === 0 ? "" : ` ${JSON.stringify(shown.redact(call.arguments, []))}`;
  return `${call.kind} ${call.name} #${call.entry}${args.length > 100 ? `${args.slice(0, 99)}…` : args}`;
}

function describeDifference(difference: AnswerDifference): string {
  const show = (value: unknown) => {
    const safe = shown.redact({ value } as Record<string, unknown>, []).value;
    return typeof safe === "object" && safe !== null ? compact(safe) : describeValue(safe);
  };
  if (difference.kind === "removed") return `${difference.path}: removed (was ${show(difference.expected)})`;
  if (difference.kind === "added") return `${difference.path}: added ${show(difference.actual)}`;
  return `${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)}`;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
