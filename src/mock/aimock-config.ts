/**
 * aimock's config file as `mockMcp()` options, so a config written for aimock runs unchanged:
 * `{ "mcp": { path, serverInfo, tools, resources, prompts }, "llm": { "fixtures": … } }`.
 * Its `mcp` part becomes the mock's catalog (a config `result` is one fixed answer per tool),
 * the `mcpFakes` in the files that `llm.fixtures` names become the mock's fixtures, and
 * `port`, `host` and `metrics` keep their meaning. What only an LLM mock can use is left out,
 * and said in one line. A key aimock does not know either is refused with a did-you-mean.
 */
import { statSync } from "node:fs";
import { McpTestkitError } from "../errors.js";
import { unknownKeysMessage } from "../engine/spec-checks.js";
import { fixtureFilesIn, readFixtureFile } from "../fakes/fixture-files.js";
import { isObject } from "../protocol/jsonrpc.js";
import { typeLabel } from "../util/text.js";
import type { MockMcpOptions } from "./mock-options.js";

type Json = Record<string, unknown>;

/** The keys of an aimock config, and of its parts that mcp-testkit reads. */
const CONFIG_KEYS = ["mcp", "llm", "a2a", "agui", "vector", "services", "auth", "metrics", "strict", "port", "host"];
const MCP_KEYS = ["path", "serverInfo", "tools", "resources", "prompts"];
const TOOL_KEYS = ["name", "description", "inputSchema", "result"];
const RESOURCE_KEYS = ["uri", "name", "mimeType", "description", "text", "blob"];
const PROMPT_KEYS = ["name", "description", "arguments", "result"];
/** The config keys that mean the same to mcp-testkit; every other key but `mcp` and `llm` is for aimock's other mocks. */
const SHARED_KEYS = new Set(["mcp", "llm", "metrics", "port", "host"]);

export interface AimockConfigOptions {
  /**
   * Told, once, which parts of the config only an LLM mock (or aimock's other mocks) can use and
   * are left out. The library says nothing by itself; `mcp-testkit mock` prints the line.
   */
  onIgnored?: (line: string) => void;
}

/** Whether a parsed JSON file is an aimock config rather than `mockMcp()` options (which have neither key). */
export function isAimockConfig(value: unknown): boolean {
  return isObject(value) && (Object.hasOwn(value, "mcp") || Object.hasOwn(value, "llm"));
}

/**
 * `mockMcp()` options from an aimock config (the parsed JSON):
 * `await mockMcp(fromAimockConfig(JSON.parse(readFileSync("aimock.json", "utf8"))))`.
 * Paths in `llm.fixtures` start from the working directory, as in aimock. Throws a
 * `McpTestkitError` for a key aimock would not read, naming the closest one.
 */
export function fromAimockConfig(config: unknown, options: AimockConfigOptions = {}): MockMcpOptions {
  const root = objectAt(config, "The aimock config", '{ "mcp": { "tools": [...] } }');
  checkKeysOf(root, CONFIG_KEYS, "The aimock config");
  const ignored = Object.keys(root).filter((key) => !SHARED_KEYS.has(key));
  const mock: Json = {};
  for (const key of ["port", "host", "metrics"]) if (root[key] !== undefined) mock[key] = root[key];
  if (root.mcp !== undefined) Object.assign(mock, mcpOptions(objectAt(root.mcp, '"mcp"', '{ "tools": [...] }')));
  if (root.llm !== undefined) {
    const llm = objectAt(root.llm, '"llm"', '{ "fixtures": "./fixtures" }');
    ignored.push(
      ...Object.keys(llm)
        .filter((key) => key !== "fixtures")
        .map((key) => `llm.${key}`),
    );
    const fixtures = llm.fixtures;
    if (fixtures !== undefined && typeof fixtures !== "string") throw new McpTestkitError(`"llm.fixtures" must be the path of a fixture file or directory, got ${typeLabel(fixtures)}.`);
    if (fixtures !== undefined) {
      if (holdsFakes(fixtures)) mock.fixtures = fixtures;
      else ignored.push(`llm.fixtures (${fixtures} holds no mcpFakes)`);
    }
  }
  if (ignored.length > 0) {
    options.onIgnored?.(`ignoring the aimock config's parts for its other mocks: ${ignored.join(", ")}; mcp-testkit serves its "mcp" part and the mcpFakes in "llm.fixtures".`);
  }
  return mock as MockMcpOptions;
}

function mcpOptions(mcp: Json): Json {
  checkKeysOf(mcp, MCP_KEYS, '"mcp"');
  const options: Json = {};
  if (mcp.path !== undefined) options.path = mcp.path;
  if (mcp.serverInfo !== undefined) options.serverInfo = mcp.serverInfo;
  const tools = listAt(mcp.tools, "mcp.tools", TOOL_KEYS);
  if (tools.length > 0) {
    options.tools = Object.fromEntries(
      tools.map(({ name, result, ...definition }) => [name, { ...definition, ...(result !== undefined && { responses: Array.isArray(result) ? { content: result } : { returns: result } }) }]),
    );
  }
  const resources = listAt(mcp.resources, "mcp.resources", RESOURCE_KEYS, "uri");
  if (resources.length > 0) options.resources = Object.fromEntries(resources.map(({ uri, ...definition }) => [uri, definition]));
  const prompts = listAt(mcp.prompts, "mcp.prompts", PROMPT_KEYS);
  if (prompts.length > 0) {
    options.prompts = Object.fromEntries(
      prompts.map(({ name, result, ...definition }) => [name, { ...definition, messages: isObject(result) && result.messages !== undefined ? result.messages : [] }]),
    );
  }
  return options;
}

/** A list of objects keyed by `id` ("name" or "uri"), each with only `keys`. */
function listAt(value: unknown, where: string, keys: readonly string[], id = "name"): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new McpTestkitError(`"${where}" must be a list of objects with "${id}", got ${typeLabel(value)}.`);
  return value.map((item, i) => {
    const entry = objectAt(item, `${where}[${i}]`, `{ "${id}": ... }`);
    checkKeysOf(entry, keys, `${where}[${i}]`);
    if (typeof entry[id] !== "string") throw new McpTestkitError(`${where}[${i}] needs "${id}" (a string), got ${typeLabel(entry[id])}.`);
    return entry;
  });
}

function objectAt(value: unknown, where: string, example: string): Json {
  if (!isObject(value)) throw new McpTestkitError(`${where} must be an object such as ${example}, got ${typeLabel(value)}.`);
  return value;
}

function checkKeysOf(record: Json, known: readonly string[], where: string): void {
  const unknown = Object.keys(record).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new McpTestkitError(unknownKeysMessage(where, unknown, known));
}

/**
 * Whether `path` holds MCP fakes, or something the fixture loader should report (a file that is
 * not JSON, a path that is not there). A path of LLM fixtures alone has nothing for this mock.
 */
function holdsFakes(path: string): boolean {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return true; // the loader says the path is missing
  }
  const files = directory ? fixtureFilesIn(path) : [{ path, name: path }];
  return files.some((file) => {
    const read = readFixtureFile(file.path, file.name);
    return read.mcpFakes !== undefined || read.problem !== undefined;
  });
}
