/**
 * `mcp-testkit diff <before> <after>`: what changed between two surfaces of a server, each change
 * classed breaking, compatible or informational, as text, JSON, Markdown or JUnit XML; the exit
 * code says whether the changes pass `--fail-on`.
 */
import { writeFile } from "node:fs/promises";
import { McpTestkitError } from "../../errors.js";
import { formatSurfaceDiff, type DiffFormat } from "../../snapshot/diff-report.js";
import { diffSurfaces, worstClass } from "../../snapshot/surface-diff.js";
import { ignoreMatcher } from "../../snapshot/change-paths.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { wantsColour } from "../live-lines.js";
import { createProgress } from "../output/progress.js";
import { checkOutputFolder } from "../serve-flags.js";
import { readSource } from "../surface-source.js";
import { ERA_HELP, ERA_OPTIONS, parseEra } from "../target/era.js";

export const summary = "Compare two surfaces (servers, snapshots, recordings), classing each change";

export const help = `Usage: mcp-testkit diff [options] <before> <after>

Compares two surfaces of an MCP server and classes each change:
  breaking       a client that worked may fail: a tool, resource, template or prompt
                 removed; a capability lost; an input schema that accepts less (a property
                 made required, a new required property, a narrower type or enum, a
                 tighter bound, a property gone under additionalProperties: false); an
                 output schema that promises less (a property removed or made optional, a
                 wider type or enum)
  compatible     added things, input schemas that accept more, outputs that promise more
  informational  descriptions, titles, annotations, server info, instructions
$ref, $defs and 2020-12 keywords are resolved inside each schema; nothing is fetched.

Each side is a server (a command that starts a stdio server, or an http(s) URL), a snapshot
(mcp-testkit snapshot), a recording (mcp-testkit record), a scenario file, or fixture files of
scenario fakes (a JSON file with "mcpFakes", or a directory).

Options:
  --fail-on <level>    Exit 1 when a change is at least: breaking (default), any, or none
  --ignore <path>      Leave out changes at this path and below (repeatable), e.g.
                       serverInfo.version, tools.*.description, "tools.**.title",
                       'resources["file:///a.txt"]'
  --json               Print the diff as JSON
  --markdown           Print it as Markdown (a pull-request comment)
  --junit              Print it as JUnit XML (one test case per change; breaking ones fail)
  -o, --out <file>     Write the report to a file instead of stdout
${ERA_HELP}
  -H, --header "K: V"  An HTTP header for every request to a URL side (repeatable)
  --timeout <ms>       How long each request may take (default 5000)
  -h, --help           Show this help

Exit codes: 0 no change at the --fail-on level; 1 a change at that level, or a side could not
be read; 2 bad usage.

Examples:
  mcp-testkit diff surface.json "node build/server.js"
  mcp-testkit diff main.json pr.json --markdown --out comment.md
  mcp-testkit diff surface.json http://127.0.0.1:3000/mcp --fail-on any --ignore serverInfo.version
  mcp-testkit diff recordings/everything.json "npx -y @modelcontextprotocol/server-everything stdio"`;

const OPTIONS = {
  "fail-on": { type: "string" },
  ignore: { type: "string", multiple: true },
  json: { type: "boolean" },
  markdown: { type: "boolean" },
  junit: { type: "boolean" },
  out: { type: "string", short: "o" },
  header: { type: "string", multiple: true, short: "H" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
  ...ERA_OPTIONS,
} as const;

const FAIL_ON = ["breaking", "any", "none"] as const;
type FailOn = (typeof FAIL_ON)[number];

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 2) {
    throw new UsageError(
      `takes two sides, before and after, got ${positionals.length}${positionals.length === 0 ? "" : `: ${positionals.map((p) => JSON.stringify(p)).join(" ")}`}; quote a command with arguments, e.g. mcp-testkit diff surface.json "node server.js"`,
    );
  }
  const failOn = (values["fail-on"] ?? "breaking") as FailOn;
  if (!FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on takes breaking, any or none, got "${values["fail-on"]}"`);
  const formats = (["json", "markdown", "junit"] as const).filter((name) => values[name] === true);
  if (formats.length > 1) throw new UsageError(`choose one output format, got ${formats.map((name) => `--${name}`).join(" and ")}`);
  const format = (formats[0] ?? "text") as DiffFormat;
  const ignore = values.ignore ?? [];
  try {
    ignoreMatcher(ignore);
  } catch (error) {
    if (error instanceof McpTestkitError) throw new UsageError(`--ignore: ${error.detail}`);
    throw error;
  }
  if (values.out !== undefined) await checkOutputFolder(values.out, "the report");
  const era = parseEra(values);

  const progress = createProgress();
  const [before, after] = [positionals[0]!, positionals[1]!];
  let sides: Awaited<ReturnType<typeof readSource>>[];
  try {
    sides = [await readSource(before, values, era, progress, "diff"), await readSource(after, values, era, progress, "diff")];
  } finally {
    progress.stop();
  }
  const diff = diffSurfaces(sides[0]!.surface, sides[1]!.surface, { ignore });
  const colour = format === "text" && values.out === undefined && wantsColour(process.stdout);
  const report = formatSurfaceDiff(diff, format, { before, after, colour });
  if (values.out === undefined) process.stdout.write(report);
  else {
    try {
      await writeFile(values.out, report);
    } catch (error) {
      throw new CommandError(`Cannot write the report to "${values.out}": ${(error as Error).message}`);
    }
  }
  const worst = worstClass(diff);
  const fails = failOn === "any" ? worst !== "none" : failOn === "breaking" ? worst === "breaking" : false;
  return fails ? EXIT_FAILURE : EXIT_OK;
}
