/**
 * `mcp-testkit trace convert <in> --to har|otlp|trace --out <file>`: a trace (JSON Lines, as a
 * mock, a driver or the recorder writes it), a HAR (ours or one a browser saved) or OTLP JSON,
 * converted to any of the three. The input's format is told by its content.
 */
import { writeFile } from "node:fs/promises";
import { McpTestkitError } from "../../errors.js";
import { readTraffic, TRACE_FORMATS, traceText, type TraceFormat } from "../../trace/convert.js";
import { closest } from "../../util/closest.js";
import { plural } from "../../util/text.js";
import { CommandError, EXIT_OK, parseCommandLine, UsageError } from "../command.js";

export const summary = "Convert traffic between a trace (JSON Lines), HAR 1.2 and OTLP JSON";

export const help = `Usage: mcp-testkit trace convert <file> --to <format> [--out <file>]

Reads a trace (JSON Lines written by mcp-testkit mock --trace, a driver's trace option or the
recorder), a HAR file (ours, or one saved from a browser's devtools: requests that carried no
JSON-RPC are left out, credentials redacted) or OTLP JSON traces, and writes it as --to:
  trace  the trace format: a header line, then one JSON-RPC message per line
  har    HAR 1.2, for the HTTP messages: opens in browser devtools and HAR viewers
  otlp   OTLP JSON: a span per call, named and attributed by the OpenTelemetry conventions
         for MCP, each message an event; POST it to a collector's /v1/traces
The input's format is read from its content, not its name.

Options:
  --to <format>   trace, har or otlp (required)
  --out <file>    Where to write (default: standard output)
  -h, --help      Show this help

Examples:
  mcp-testkit trace convert run.jsonl --to har --out run.har
  mcp-testkit trace convert saved-from-chrome.har --to trace --out run.jsonl`;

const OPTIONS = {
  to: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [action, input, ...extra] = positionals;
  if (action === undefined) throw new UsageError('missing the action: "mcp-testkit trace convert <file> --to <format>"');
  if (action !== "convert") throw new UsageError(`unknown action "${action}"; the one action is "convert"${closest(action, ["convert"]) === undefined ? "" : ' (did you mean "convert"?)'}`);
  if (input === undefined) throw new UsageError("missing the file to convert");
  if (extra.length > 0) throw new UsageError(`one file at a time; also got ${extra.map((name) => `"${name}"`).join(", ")}`);
  const to = values.to;
  if (to === undefined) throw new UsageError(`missing --to: one of ${TRACE_FORMATS.join(", ")}`);
  if (!TRACE_FORMATS.includes(to as TraceFormat)) {
    const near = closest(to, TRACE_FORMATS);
    throw new UsageError(`--to must be one of ${TRACE_FORMATS.join(", ")}, got "${to}"${near === undefined ? "" : ` (did you mean "${near}"?)`}`);
  }
  let text: string;
  let count: number;
  let from: TraceFormat;
  try {
    const read = await readTraffic(input);
    text = traceText(read.trace, to as TraceFormat);
    count = read.trace.entries.length;
    from = read.format;
  } catch (error) {
    if (error instanceof McpTestkitError) throw new CommandError(error.detail);
    throw error;
  }
  if (values.out === undefined) {
    process.stdout.write(text);
    return EXIT_OK;
  }
  try {
    await writeFile(values.out, text);
  } catch (error) {
    throw new CommandError(`Cannot write "${values.out}": ${(error as Error).message}`);
  }
  process.stderr.write(`Wrote ${plural(count, "message")} from ${from} to ${values.out} as ${to}.\n`);
  return EXIT_OK;
}
