/**
 * `mcp-testkit call <command | url> <tool> --args '{…}'`: calls one tool and prints its result;
 * `--read <uri>` reads a resource and `--prompt <name>` gets a prompt instead. A tool error
 * (`isError: true`) or a JSON-RPC error exits 1 with the message. `--json` prints the result
 * (or `{ "error": … }`) as JSON.
 */
import { RequestFailedError, TaskError, type McpDriver, type TaskOptions, type ToolCallResult } from "../../driver/index.js";
import { callAsTask, parseTaskFlags, TASK_HELP, TASK_OPTIONS } from "../call-task.js";
import { checkToolCall } from "../call-preflight.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { createProgress, type Progress } from "../output/progress.js";
import { parseTarget, plainLine, plainMessage, TARGET_EXPLAINED, TARGET_HELP, TARGET_OPTIONS, withConnectedDriver } from "../target/target.js";
import { describeEra, ERA_HELP, ERA_OPTIONS, parseEra, type EraChoice } from "../target/era.js";

export const summary = "Call a tool (or read a resource, get a prompt) on an MCP server and print the result";

export const help = `Usage: mcp-testkit call [options] <command | url> <tool> ['<json object>' | --args '<json object>']
       mcp-testkit call [options] <command | url> --read <uri>
       mcp-testkit call [options] <command | url> --prompt <name> [--args '<json object>']

Calls a tool and prints its result: text as it is, other content as a short line, and
structuredContent as JSON. A tool error (isError: true) or a JSON-RPC error exits 1 with
the message. --read reads a resource; --prompt gets a prompt (its arguments are strings).
The arguments go after the tool name or in --args. With an era flag, a line on stderr
says which protocol version and era were spoken.
${TARGET_EXPLAINED}

Options:
  --args <json>        The tool's (or prompt's) arguments, a JSON object (default {})
  --read <uri>         Read this resource instead of calling a tool
  --prompt <name>      Get this prompt instead of calling a tool
${TASK_HELP}
${ERA_HELP}
${TARGET_HELP}

Before calling a tool it checks the server's tools/list: an unknown tool name gets the list
of tools and the closest name, and --args missing a required argument gets the input schema.

Exit codes: 0 done; 1 a tool or JSON-RPC error, an unknown tool or missing arguments, or the
server could not be started or reached; 2 bad usage.

Examples:
  mcp-testkit call "node server.js" echo --args '{"message":"hi"}'
  mcp-testkit call http://127.0.0.1:3000/mcp echo '{"text":"hi"}' --version-negotiation pin
  mcp-testkit call http://127.0.0.1:3000/mcp --read file:///README.md
  mcp-testkit call "node server.js" --prompt review --args '{"code":"x = 1"}' --json
  mcp-testkit call http://127.0.0.1:3000/mcp slow_compute '{"seconds":3}' --task`;

const OPTIONS = {
  ...TARGET_OPTIONS,
  ...ERA_OPTIONS,
  args: { type: "string" },
  read: { type: "string" },
  prompt: { type: "string" },
  ...TASK_OPTIONS,
} as const;

type Json = Record<string, unknown>;

/** A JSON value (`{…}`, `[…]`, `"…"`) or words with spaces or `=`: meant as the tool's arguments, not as one more word of an unquoted command. */
function looksLikeArguments(text: string): boolean {
  return /^\s*[{["]/.test(text) || /[\s=]/.test(text.trim());
}

type Action = { kind: "tool"; name: string; args: Json; task?: TaskOptions } | { kind: "read"; uri: string } | { kind: "prompt"; name: string; args: Record<string, string> };

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [targetText, tool, ...extra] = positionals;
  // A JSON object after the tool name is its arguments, as --args would give them; so is a word
  // that looks meant as arguments (`'[1,2]'`, `'not json'`), which then gets the JSON object's error.
  const inline = tool !== undefined && extra.length === 1 && looksLikeArguments(extra[0]!) ? extra.pop() : undefined;
  if (extra.length > 0) {
    throw new UsageError(
      `unexpected argument${extra.length === 1 ? "" : "s"} ${extra.map((p) => JSON.stringify(p)).join(" ")}; quote a command with arguments, e.g. mcp-testkit call "node server.js" echo`,
    );
  }
  if (inline !== undefined && values.args !== undefined) throw new UsageError("give the arguments once: after the tool name or in --args, not both");
  const target = parseTarget(targetText, values);
  const era = parseEra(values);
  const action = readAction(tool, { ...values, args: inline ?? values.args }, inline === undefined ? "--args" : "the arguments after the tool name");
  const task = parseTaskFlags(values);
  if (task !== undefined) {
    if (action.kind !== "tool") throw new UsageError(`--task goes with a tool call, not ${action.kind === "read" ? "--read" : "--prompt"}`);
    action.task = task;
  }
  const json = values.json === true;
  const progress = createProgress();
  return withConnectedDriver(
    "call",
    target,
    progress,
    async (driver) => {
      try {
        return await callOnce(driver, action, json, target.value, progress);
      } finally {
        tellEra(driver, era, progress);
      }
    },
    era,
  );
}

/** With an era flag: which version and era the call spoke (stderr, so stdout stays the result). */
function tellEra(driver: McpDriver, era: EraChoice, progress: Progress): void {
  if (!era.asked || driver.protocolVersion === undefined) return;
  progress.stop();
  process.stderr.write(`mcp-testkit call: protocol ${describeEra(driver, era)}\n`);
}

async function callOnce(driver: McpDriver, action: Action, json: boolean, targetText: string, progress: Progress): Promise<number> {
  progress.step(action.kind === "tool" ? `calling ${action.name}` : action.kind === "read" ? `reading ${action.uri}` : `getting prompt ${action.name}`);
  // An unknown tool or a missing argument is the user's mistake: say so before the server does.
  if (action.kind === "tool") await checkToolCall(driver, action.name, action.args, targetText);
  let result: Json;
  try {
    result = await perform(driver, action, progress);
  } catch (error) {
    progress.stop();
    if (error instanceof TaskError && error.error !== undefined) {
      // A task that failed with a JSON-RPC error is reported as the error a plain call would get.
      if (json) process.stdout.write(`${JSON.stringify({ error: error.error, taskId: error.taskId }, null, 2)}\n`);
      process.stderr.write(`mcp-testkit call: ${plainLine(error)}\n`);
      return EXIT_FAILURE;
    }
    if (!(error instanceof RequestFailedError) || error.code === undefined) throw new CommandError(plainMessage(error));
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.serverMessage, ...(error.data === undefined ? {} : { data: error.data }) } }, null, 2)}\n`);
    process.stderr.write(`mcp-testkit call: ${plainLine(error)}\n`);
    return EXIT_FAILURE;
  }
  progress.stop();
  if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (action.kind === "tool" && (result as unknown as ToolCallResult).isError) {
    if (!json) {
      const text = describeContent((result.content ?? []) as Json[]).join("\n");
      process.stderr.write(`mcp-testkit call: tool "${action.name}" returned an error (isError: true)${text === "" ? "" : `:\n${text}`}\n`);
    } else {
      process.stderr.write(`mcp-testkit call: tool "${action.name}" returned an error (isError: true)\n`);
    }
    return EXIT_FAILURE;
  }
  if (!json) {
    const lines = action.kind === "tool" ? describeToolResult(result) : action.kind === "read" ? describeReadResult(result) : describePromptResult(result);
    if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
  }
  return EXIT_OK;
}

function readAction(tool: string | undefined, values: { args?: string | undefined; read?: string | undefined; prompt?: string | undefined }, argsFrom: string): Action {
  const chosen = [tool === undefined ? undefined : `the tool "${tool}"`, values.read === undefined ? undefined : "--read", values.prompt === undefined ? undefined : "--prompt"].filter(
    (what) => what !== undefined,
  );
  if (chosen.length === 0) throw new UsageError("missing what to call: a tool name after the target, --read <uri> or --prompt <name>");
  if (chosen.length > 1) throw new UsageError(`calls one thing at a time, got ${chosen.join(" and ")}`);
  const args = values.args === undefined ? {} : parseArgsJson(values.args, argsFrom);
  if (values.read !== undefined) {
    if (values.args !== undefined) throw new UsageError("--args goes with a tool or --prompt, not --read");
    return { kind: "read", uri: values.read };
  }
  if (values.prompt !== undefined) {
    const bad = Object.entries(args).filter(([, value]) => typeof value !== "string");
    if (bad.length > 0) throw new UsageError(`prompt arguments must be strings, got ${bad.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(", ")}`);
    return { kind: "prompt", name: values.prompt, args: args as Record<string, string> };
  }
  return { kind: "tool", name: tool!, args };
}

function parseArgsJson(text: string, from: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from} must be a JSON object such as '{"message":"hi"}': ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${from} must be a JSON object such as '{"message":"hi"}', got ${JSON.stringify(value)}`);
  }
  return value as Json;
}

async function perform(driver: McpDriver, action: Action, progress: Progress): Promise<Json> {
  switch (action.kind) {
    case "tool":
      if (action.task !== undefined) {
        const say = (line: string) => (progress.stop(), process.stderr.write(`mcp-testkit call: ${line}\n`));
        return { ...(await callAsTask(driver, action.name, action.args, action.task, say)) };
      }
      return { ...(await driver.callTool(action.name, action.args)) };
    case "read":
      return { ...(await driver.readResource(action.uri)) };
    case "prompt":
      return { ...(await driver.getPrompt(action.name, action.args)) };
  }
}

function describeToolResult(result: Json): string[] {
  const lines = describeContent((result.content ?? []) as Json[]);
  if (result.structuredContent !== undefined) {
    // Servers usually repeat structured content as JSON text; print it once.
    const structured = JSON.stringify(result.structuredContent, null, 2);
    const repeated = lines.some((line) => safeParse(line) !== undefined && JSON.stringify(safeParse(line), null, 2) === structured);
    if (!repeated) lines.push(`structuredContent: ${structured}`);
  }
  return lines;
}

function describeReadResult(result: Json): string[] {
  const contents = Array.isArray(result.contents) ? (result.contents as Json[]) : [];
  const lines: string[] = [];
  for (const item of contents) {
    if (contents.length > 1) lines.push(`--- ${String(item.uri)}${typeof item.mimeType === "string" ? ` (${item.mimeType})` : ""}`);
    if (typeof item.text === "string") lines.push(item.text);
    else if (typeof item.blob === "string") lines.push(`[blob${typeof item.mimeType === "string" ? ` ${item.mimeType}` : ""}, ${Buffer.from(item.blob, "base64").length} bytes]`);
  }
  return lines;
}

function describePromptResult(result: Json): string[] {
  const lines: string[] = [];
  if (typeof result.description === "string") lines.push(`# ${result.description}`);
  for (const message of (Array.isArray(result.messages) ? result.messages : []) as Json[]) {
    const content = describeContent([message.content as Json]);
    lines.push(`${String(message.role)}: ${content.join("\n")}`);
  }
  return lines;
}

function describeContent(blocks: Json[]): string[] {
  return blocks.map((block) => {
    switch (block?.type) {
      case "text":
        return String(block.text);
      case "image":
      case "audio":
        return `[${block.type} ${String(block.mimeType)}, ${typeof block.data === "string" ? Buffer.from(block.data, "base64").length : 0} bytes]`;
      case "resource_link":
        return `[resource_link ${String(block.uri)}${typeof block.name === "string" ? ` "${block.name}"` : ""}]`;
      case "resource": {
        const resource = (block.resource ?? {}) as Json;
        return typeof resource.text === "string"
          ? `[resource ${String(resource.uri)}]\n${resource.text}`
          : `[resource ${String(resource.uri)}, blob${typeof resource.mimeType === "string" ? ` ${resource.mimeType}` : ""}]`;
      }
      default:
        return JSON.stringify(block);
    }
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
