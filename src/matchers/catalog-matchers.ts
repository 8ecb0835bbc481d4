/**
 * Matchers on what a server offers, asked through a driver: its tools, resources, resource
 * templates and prompts. They are async (the driver lists over the wire), so a test awaits them:
 * `await expect(driver).toHaveTool("read_file")`. An error from the driver (the server lacks the
 * capability, the connection is gone) rejects the assertion as it is, rather than being turned
 * into a failed match that `.not` would wave through.
 */
import { revisionsWith } from "../protocol/versions.js";
import { McpTestkitError } from "../errors.js";
import { firstDifference } from "../engine/match.js";
import { asDriver, describeReceived, type DriverListMethod, type PromptDefinitionLike, type ResourceDefinitionLike, type ResourceTemplateDefinitionLike, type ToolDefinitionLike } from "./received.js";
import { closest, listing, misuse, projectOnto, quote, report, show, suggestion, type McpMatcherContext, type McpMatcherResult } from "./report.js";

interface CatalogKind<E> {
  noun: string;
  nouns: string;
  method: DriverListMethod;
  /** What a test may name an entry by. */
  keys(entry: E): string[];
  /** How an entry is shown in a listing. */
  label(entry: E): string;
  /** What a test names an entry by: "name", or "name or URI". */
  namedBy: string;
}

/** " (by name or URI)" after the wanted key, when an entry can be named in more than one way. */
function by(kind: CatalogKind<unknown>): string {
  return kind.namedBy === "name" ? "" : ` (by ${kind.namedBy})`;
}

function withLocation(name: unknown, location: unknown): string {
  const shownName = typeof name === "string" ? name : show(name);
  return location === undefined || location === name ? shownName : `${shownName} (${String(location)})`;
}

const TOOLS: CatalogKind<ToolDefinitionLike> = {
  noun: "tool",
  nouns: "tools",
  method: "getTools",
  keys: (tool) => [tool.name],
  label: (tool) => String(tool.name),
  namedBy: "name",
};

const RESOURCES: CatalogKind<ResourceDefinitionLike> = {
  noun: "resource",
  nouns: "resources",
  method: "getResources",
  keys: (resource) => [resource.name, resource.uri],
  label: (resource) => withLocation(resource.name, resource.uri),
  namedBy: "name or URI",
};

const TEMPLATES: CatalogKind<ResourceTemplateDefinitionLike> = {
  noun: "resource template",
  nouns: "resource templates",
  method: "getResourceTemplates",
  keys: (template) => [template.name, template.uriTemplate],
  label: (template) => withLocation(template.name, template.uriTemplate),
  namedBy: "name or URI template",
};

const PROMPTS: CatalogKind<PromptDefinitionLike> = {
  noun: "prompt",
  nouns: "prompts",
  method: "getPrompts",
  keys: (prompt) => [prompt.name],
  label: (prompt) => String(prompt.name),
  namedBy: "name",
};

const DRIVER_WANTED = 'an mcp-testkit driver (an object marked Symbol.for("mcp-testkit.driver"), from mcpShell(), mcpConnect() or mcpAttach())';

type Loaded<E> = { entries: readonly E[] } | { failure: McpMatcherResult };

async function load<E>(context: McpMatcherContext, received: unknown, kind: CatalogKind<E>, matcher: string): Promise<Loaded<E>> {
  const found = asDriver(received, kind.method);
  if ("missing" in found) {
    const what = found.missing === "marker" ? describeReceived(received) : `a driver without ${found.missing}()`;
    return { failure: misuse(context, `${matcher} expects ${DRIVER_WANTED}; received ${what}`) };
  }
  const entries = (await found.driver[kind.method]()) as unknown;
  if (!Array.isArray(entries)) {
    return { failure: misuse(context, `${matcher}: the driver's ${kind.method}() gave ${describeReceived(entries)} instead of a list of ${kind.nouns}`) };
  }
  // Skip anything that is not an entry object, so one odd item cannot crash the listing.
  return { entries: entries.filter((entry): entry is E => typeof entry === "object" && entry !== null) };
}

/**
 * For a tool the driver itself left out of getTools() (an invalid `x-mcp-header` over HTTP in
 * 2026-07-28): that the server does list it, and why the driver left it out.
 */
function rejectedNote(received: unknown, kind: CatalogKind<unknown>, names: readonly string[]): string {
  if (kind !== (TOOLS as CatalogKind<unknown>)) return "";
  const rejected = (received as { rejectedTools?: unknown }).rejectedTools;
  if (!Array.isArray(rejected)) return "";
  const notes = names.flatMap((name) => {
    const entry = rejected.find((item) => (item as { name?: unknown }).name === name) as { name: string; reason: string } | undefined;
    return entry === undefined
      ? []
      : [`the server does list ${quote(name)}, but the driver left it out of getTools() (over HTTP, ${revisionsWith("requestHeaders")} requires a client to): ${entry.reason}`];
  });
  return notes.length === 0 ? "" : `; ${notes.join("; ")}`;
}

function requireName(matcher: string, kind: CatalogKind<unknown>, value: unknown): string {
  if (typeof value !== "string") throw new McpTestkitError(`${matcher}() takes the ${kind.noun}'s ${kind.namedBy} (a string); got ${show(value)}.`);
  return value;
}

function requireNames(matcher: string, kind: CatalogKind<unknown>, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new McpTestkitError(`${matcher}() takes a list of ${kind.noun} ${kind.namedBy.replace("name", "names")}${kind.namedBy === "name" ? "" : "s"} (strings); got ${show(value)}.`);
  }
  return value;
}

function hasOne<E>(matcher: string, kind: CatalogKind<E>) {
  return async function (this: McpMatcherContext, received: unknown, wanted: unknown): Promise<McpMatcherResult> {
    const key = requireName(matcher, kind as CatalogKind<unknown>, wanted);
    const loaded = await load(this, received, kind, matcher);
    if ("failure" in loaded) return loaded.failure;
    const labels = loaded.entries.map(kind.label);
    const matching = loaded.entries.filter((entry) => kind.keys(entry).includes(key));
    if (matching.length > 0) {
      const label = kind.label(matching[0]);
      return report(true, `expected server not to have ${kind.noun} ${quote(key)}, but it does${label === key ? "" : `: ${label}`}`, {
        actual: labels,
        expected: loaded.entries.filter((entry) => !matching.includes(entry)).map(kind.label),
      });
    }
    const allKeys = loaded.entries.flatMap(kind.keys).filter((k): k is string => typeof k === "string");
    return report(
      false,
      `expected server to have ${kind.noun} ${quote(key)}${by(kind as CatalogKind<unknown>)}; ${listing(labels, kind.nouns)}${suggestion(key, allKeys)}${rejectedNote(received, kind as CatalogKind<unknown>, [key])}`,
      {
        actual: labels,
        expected: [...labels, key],
      },
    );
  };
}

function hasAll<E>(matcher: string, kind: CatalogKind<E>) {
  return async function (this: McpMatcherContext, received: unknown, wanted: unknown): Promise<McpMatcherResult> {
    const keys = requireNames(matcher, kind as CatalogKind<unknown>, wanted);
    const loaded = await load(this, received, kind, matcher);
    if ("failure" in loaded) return loaded.failure;
    const labels = loaded.entries.map(kind.label);
    const allKeys = loaded.entries.flatMap(kind.keys).filter((k): k is string => typeof k === "string");
    const missing = keys.filter((key) => !allKeys.includes(key));
    const wantedText = keys.map(quote).join(", ");
    if (missing.length === 0) {
      return report(true, `expected server not to have all of the ${kind.nouns} ${wantedText}, but it has all of them`);
    }
    const missingText = missing
      .map((key) => {
        const near = closest(key, allKeys);
        return near === undefined ? quote(key) : `${quote(key)} (did you mean ${quote(near)}?)`;
      })
      .join(", ");
    return report(
      false,
      `expected server to have ${kind.nouns} ${wantedText}${by(kind as CatalogKind<unknown>)}; missing: ${missingText}; ${listing(labels, kind.nouns)}${rejectedNote(received, kind as CatalogKind<unknown>, missing)}`,
      {
        actual: labels,
        expected: [...labels, ...missing],
      },
    );
  };
}

/** Partial expectations on a tool's definition, e.g. `{ inputSchema: { required: ["path"] } }`. */
export interface ToolExpectation {
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  [key: string]: unknown;
}

async function toMatchToolSchema(this: McpMatcherContext, received: unknown, name: unknown, expectation: unknown): Promise<McpMatcherResult> {
  const toolName = requireName("toMatchToolSchema", TOOLS as CatalogKind<unknown>, name);
  if (typeof expectation !== "object" || expectation === null || Array.isArray(expectation)) {
    throw new McpTestkitError(`toMatchToolSchema() takes the tool's name and an object of expectations on its definition, e.g. { inputSchema: { required: ["path"] } }; got ${show(expectation)}.`);
  }
  const loaded = await load(this, received, TOOLS, "toMatchToolSchema");
  if ("failure" in loaded) return loaded.failure;
  const not = this.isNot === true ? " not" : "";
  const tool = loaded.entries.find((entry) => entry.name === toolName);
  if (!tool) {
    const names = loaded.entries.map(TOOLS.label);
    return misuse(
      this,
      `expected tool ${quote(toolName)}${not} to match ${show(expectation)}, but the server has no tool ${quote(toolName)}; ${listing(names, "tools")}${suggestion(toolName, names)}${rejectedNote(received, TOOLS as CatalogKind<unknown>, [toolName])}`,
    );
  }
  const difference = firstDifference(tool, expectation);
  if (!difference) return report(true, `expected tool ${quote(toolName)} not to match ${show(expectation)}, but it does`);
  return report(false, `expected tool ${quote(toolName)} to match ${show(expectation)}; at ${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)}`, {
    actual: projectOnto(tool, expectation),
    expected: expectation,
  });
}

export const catalogMatchers = {
  toHaveTool: hasOne("toHaveTool", TOOLS),
  toHaveTools: hasAll("toHaveTools", TOOLS),
  toHaveResource: hasOne("toHaveResource", RESOURCES),
  toHaveResources: hasAll("toHaveResources", RESOURCES),
  toHaveResourceTemplate: hasOne("toHaveResourceTemplate", TEMPLATES),
  toHavePrompt: hasOne("toHavePrompt", PROMPTS),
  toHavePrompts: hasAll("toHavePrompts", PROMPTS),
  toMatchToolSchema,
};
