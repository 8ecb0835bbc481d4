/**
 * `mcp-testkit view <file>`: the traffic in a trace, HAR, call record, journal or recording as
 * a timeline page: written to one self-contained HTML file (`--out`), or served on loopback
 * until Ctrl-C, its URL printed.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { McpTestkitError } from "../../errors.js";
import { withProblems } from "../../view/check-entries.js";
import { timelinePage } from "../../view/page.js";
import { readTimelineInput } from "../../view/read-input.js";
import { servePage } from "../../view/serve-page.js";
import type { TimelineData } from "../../view/timeline-data.js";
import { ListenError } from "../../wire/http/listen-error.js";
import { plural } from "../../util/text.js";
import { CommandError, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { checkOutputFolder, FLAG_NAMES, stopRequests } from "../serve-flags.js";

export const summary = "Show a trace, HAR, call record, journal or recording as a web timeline";

export const help = `Usage: mcp-testkit view [options] <file>

Shows the messages in <file> as a timeline: lanes per session and test id, each call with its
latency on one time axis, and under it the server's requests, notifications, MRTR rounds and
task polls. Faults, errors and the validator's problems are marked; filters, search, foldable
JSON bodies, and lines that replay a message (server.handle() or curl) are on the page.
<file> is any of:
  a trace (JSON Lines, as mockMcp({ trace }) or --trace write)
  a HAR (saved from browser devtools, or by mcp-testkit trace convert)
  a call record (mcp-testkit mock --record), a journal (GET /__mcp-testkit/journal)
  a recording (mcp-testkit record --out)
With --out the page is one HTML file that loads nothing from a network; without it the page
is served on 127.0.0.1 and its URL printed, until Ctrl-C.

Options:
  --out <file>     Write the page to this HTML file instead of serving it
  --port <n>       Serve on this port (default: a free one)
  --no-validate    Do not check messages with the validator (faster for large files)
  -h, --help       Show this help

Examples:
  mcp-testkit view run.trace.jsonl --out timeline.html
  mcp-testkit view calls.json
  mcp-testkit view session.har --port 4000`;

const OPTIONS = {
  out: { type: "string" },
  port: { type: "string" },
  "no-validate": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError("missing the file to view (a trace, HAR, call record, journal or recording)");
  if (positionals.length > 1) throw new UsageError(`views one file at a time, got ${positionals.length}: ${positionals.join(", ")}`);
  if (values.out !== undefined && values.port !== undefined) throw new UsageError("--out writes a file and --port serves the page; give one of them");
  const port = values.port === undefined ? undefined : parsePort(values.port);
  const file = positionals[0]!;
  if (values.out !== undefined) await checkOutputFolder(values.out, "the timeline page");

  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CommandError(`Cannot read "${file}": ${(error as Error).message}`);
  }
  let data: TimelineData;
  try {
    data = readTimelineInput(text, basename(file));
  } catch (error) {
    if (error instanceof McpTestkitError) throw new CommandError(error.detail);
    throw error;
  }
  if (values["no-validate"] !== true) data = { ...data, entries: withProblems(data.entries) };
  const html = await timelinePage(data);
  const counted = `${plural(data.entries.length, "message")} from ${data.kind === "trace" ? "the trace" : `the ${data.kind}`} "${file}"`;

  if (values.out !== undefined) {
    try {
      await writeFile(values.out, html);
    } catch (error) {
      throw new CommandError(`Cannot write the timeline page to "${values.out}": ${(error as Error).message}`);
    }
    process.stdout.write(`mcp-testkit view: wrote ${counted} to ${values.out} (${Math.ceil(Buffer.byteLength(html) / 1024)} KB)\n`);
    return EXIT_OK;
  }
  const stopping = stopRequests();
  try {
    const served = await servePage(html, port).catch((error: unknown) => {
      if (error instanceof ListenError) throw new CommandError(`Cannot serve the timeline on 127.0.0.1:${port ?? 0}: ${error.problem(FLAG_NAMES)}.`);
      throw error;
    });
    process.stdout.write(`mcp-testkit view: ${counted} at ${served.origin}/\n  Press Ctrl-C to stop.\n`);
    const why = await stopping.requested;
    await served.close();
    process.stdout.write(`mcp-testkit view: stopped (${why})\n`);
    return EXIT_OK;
  } finally {
    stopping.release();
  }
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  return port;
}
