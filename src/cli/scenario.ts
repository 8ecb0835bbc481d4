/**
 * Scenario files for `mcp-testkit mock`: `mockMcp()` options as JSON, or as the default export
 * of a JS or TS module (so steps can be functions). TypeScript is loaded with tsx, imported only
 * when a .ts file is given, because Node 20 cannot run TypeScript by itself.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CommandError } from "./command.js";
import { describeJsonError, withoutByteOrderMark } from "../util/json-syntax.js";
import { errorText } from "../util/text.js";

const JS_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);
const TS_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

export type Scenario = Record<string, unknown>;

/** Reads a scenario file; every failure is a `CommandError` that names the file. */
export async function loadScenario(file: string): Promise<Scenario> {
  const path = resolve(file);
  await checkReadable(file, path);
  const extension = extname(path).toLowerCase();
  const isModule = JS_EXTENSIONS.has(extension) || TS_EXTENSIONS.has(extension);
  const scenario = isModule ? await importModule(file, path, TS_EXTENSIONS.has(extension)) : await readJson(file, path);
  if (typeof scenario !== "object" || scenario === null || Array.isArray(scenario)) {
    const where = isModule ? `The default export of scenario module "${file}"` : `Scenario file "${file}"`;
    throw new CommandError(`${where} must be an object of mockMcp() options such as { "tools": { "search": { "returns": "found" } } }, but it is ${describe(scenario)}.`);
  }
  return withoutSchemaKey(scenario as Scenario);
}

/** A scenario's options without its `$schema` (the editor's pointer to schemas/scenario.schema.json, not a mockMcp() option). */
export function withoutSchemaKey(scenario: Scenario): Scenario {
  if (typeof scenario.$schema !== "string") return scenario;
  const { $schema: _editorsOnly, ...options } = scenario;
  return options;
}

async function checkReadable(file: string, path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : `it cannot be read (${code ?? (error as Error).message})`;
    throw new CommandError(`Cannot load scenario file "${file}": ${why}. Relative paths start from ${process.cwd()}.`);
  }
  if (!isFile) throw new CommandError(`Cannot load scenario file "${file}": it is a directory, not a file.`);
}

async function readJson(file: string, path: string): Promise<unknown> {
  const text = withoutByteOrderMark(await readFile(path, "utf8"));
  try {
    return JSON.parse(text);
  } catch (error) {
    const { reason, excerpt } = describeJsonError(text, error);
    throw new CommandError(
      `Scenario file "${file}" is not valid JSON: ${reason}. ` + `A scenario is JSON (or a .js/.ts module whose default export is the options); comments and trailing commas are not JSON.${excerpt}`,
    );
  }
}

async function importModule(file: string, path: string, typescript: boolean): Promise<unknown> {
  let namespace: Record<string, unknown>;
  try {
    if (typescript) {
      const { tsImport } = await import("tsx/esm/api");
      namespace = (await tsImport(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
    } else {
      namespace = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    }
  } catch (error) {
    throw new CommandError(`Scenario module "${file}" failed to load: ${errorText(error)}`);
  }
  let exported = namespace.default;
  // A module compiled to CommonJS (a .ts file outside a "type": "module" package, or a .cjs file
  // with `exports.default`) arrives as { __esModule, default }: the options are one level down.
  if (typeof exported === "object" && exported !== null && (exported as { __esModule?: unknown }).__esModule === true) {
    exported = (exported as { default?: unknown }).default;
  }
  if (exported === undefined) {
    throw new CommandError(`Scenario module "${file}" has no default export; end it with \`export default { tools: { ... } }\` (the mockMcp() options).`);
  }
  return exported;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value)}`;
    case "function":
      return "a function (export the options object itself)";
    default:
      return `the ${typeof value} ${String(value)}`;
  }
}
