/**
 * `mcp-testkit snapshot <command | url> [--out surface.json]`: a server's surface (info,
 * capabilities and extensions, instructions, tools, resources, templates, prompts; every page) as
 * a normalized JSON file, stable from one run to the next, to commit and diff in pull requests.
 */
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { surfaceText } from "../../snapshot/surface.js";
import { EXIT_OK, parseCommandLine, UsageError, CommandError } from "../command.js";
import { createProgress } from "../output/progress.js";
import { checkOutputFolder } from "../serve-flags.js";
import { readSource } from "../surface-source.js";
import { ERA_HELP, ERA_OPTIONS, parseEra } from "../target/era.js";
import { TARGET_EXPLAINED } from "../target/target.js";

export const summary = "Write a server's surface (tools, schemas, resources, prompts) as a JSON file";

export const help = `Usage: mcp-testkit snapshot [options] <command | url | file> [--out surface.json]

Connects to an MCP server and writes its surface: server info, the protocol version,
capabilities and extensions, instructions, and every tool (schemas, annotations, execution),
resource, resource template and prompt, following every page. Keys and lists are sorted, so
the file is the same bytes from run to run and a change shows as a small diff in a pull
request; compare two with mcp-testkit diff. The file's JSON Schema is schemas/surface.schema.json.
${TARGET_EXPLAINED}
A recording, a scenario file or fixture files may be given instead of a server: their surface
is what a client of their replay sees (without capabilities, which they do not hold).

Options:
  -o, --out <file>     Where to write the snapshot (default: stdout)
${ERA_HELP}
  -H, --header "K: V"  An HTTP header for every request to a URL target (repeatable)
  --timeout <ms>       How long each request may take (default 5000)
  -h, --help           Show this help

Exit codes: 0 written; 1 the server could not be started or reached, or a list failed;
2 bad usage.

Examples:
  mcp-testkit snapshot "npx -y @modelcontextprotocol/server-everything stdio" --out surface.json
  mcp-testkit snapshot http://127.0.0.1:3000/mcp --header "Authorization: Bearer $TOKEN" -o s.json
  mcp-testkit snapshot recordings/everything.json`;

const OPTIONS = {
  out: { type: "string", short: "o" },
  header: { type: "string", multiple: true, short: "H" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
  ...ERA_OPTIONS,
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length === 0) throw new UsageError('missing the target: a command that starts a stdio server (e.g. "node server.js"), an http(s) URL, or a file');
  if (positionals.length > 1) {
    throw new UsageError(
      `takes one target, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(" ")}; quote a command with arguments, e.g. mcp-testkit snapshot "node server.js --port 1"`,
    );
  }
  const era = parseEra(values);
  if (values.out !== undefined) {
    await checkOutputFolder(values.out, "the snapshot");
    if ((await stat(values.out).catch(() => undefined))?.isDirectory())
      throw new CommandError(`Cannot write the snapshot to "${values.out}": it is a directory. Give a file path, such as ${values.out}/surface.json.`);
  }
  const progress = createProgress();
  const source = await readSource(positionals[0]!, values, era, progress, "snapshot");
  progress.stop();
  const text = surfaceText(source.surface);
  if (values.out === undefined) {
    process.stdout.write(text);
    return EXIT_OK;
  }
  await writeAtomically(values.out, text);
  const { tools, resources, resourceTemplates, prompts } = source.surface;
  process.stderr.write(`mcp-testkit snapshot: wrote ${values.out} (${tools.length} tools, ${resources.length} resources, ${resourceTemplates.length} resource templates, ${prompts.length} prompts)\n`);
  return EXIT_OK;
}

/** Beside the target, then renamed over it: a reader (or a failed run) never leaves half a file. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const full = resolve(file);
  const temporary = `${full}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
