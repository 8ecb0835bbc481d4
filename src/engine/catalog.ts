/**
 * The mock's catalog: its tools, resources, resource templates and prompts, normalized from
 * the shorthand forms users write into one shape each. Checking happens here, so a malformed
 * option fails at `mockMcp()` (or `setTool()`) with a message that names it.
 */
import { McpTestkitError } from "../errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { checkJsonSchema, checkKeys, checkResourceUri, checkValueKinds, unknownKeysMessage, type ValueKind } from "./spec-checks.js";
import { typeLabel } from "../util/text.js";
import { checkStep, checkThrows, isStepKey, Script, STEP_KEYS, type Step, type ThrownError } from "./steps.js";
import { UriTemplate } from "./uri-template.js";
import { checkCacheHints, type CacheHints } from "./cache-hints.js";
import type { HandlerView } from "./interaction/run-handler.js";
import { checkFault, type Fault, type FaultSpec } from "./interaction/faults.js";
import { normalizeSkill, type SkillRecord, type SkillSpec } from "./skills/skill-catalog.js";
import { checkToolViews, normalizeApp, type AppSpec } from "./apps/app-catalog.js";
import { APP_SCHEME } from "../protocol/apps.js";

type Json = Record<string, unknown>;

export interface ToolDefinition {
  title?: string;
  description?: string;
  inputSchema?: Json;
  outputSchema?: Json;
  annotations?: Json;
  icons?: Json[];
  _meta?: Json;
  /**
   * How the tool may run (2025-11-25 lists it): `taskSupport` `"optional"` (a client may ask for a
   * task), `"required"` (every call must be a task: -32601 without one; 2026-07-28: -32021 for a
   * client without the tasks extension) or `"forbidden"`. Default: `"optional"` when a step of
   * the tool has a `task`, else none (see docs/tasks.md).
   */
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  /** The tool's script: a step, or a list of steps (the last one repeats). Default: an empty result. */
  responses?: Step | Step[];
}

/** A tool: one step, a list of steps, or a full definition. */
export type ToolSpec = Step | Step[] | ToolDefinition;

const TOOL_DEFINITION_KINDS: Record<keyof ToolDefinition, ValueKind | undefined> = {
  title: "string",
  description: "string",
  inputSchema: "object",
  outputSchema: "object",
  annotations: "object",
  icons: "object list",
  _meta: "object",
  execution: "object",
  responses: undefined, // checked step by step below
};
const TOOL_DEFINITION_KEYS = new Set(Object.keys(TOOL_DEFINITION_KINDS));

/** A value a resource read may give: a text, or one or more contents. */
export type ResourceReadValue = string | ResourceContent | ResourceContent[];

export interface ResourceContent {
  text?: string;
  /** Base64 text, or raw bytes that are encoded for you. */
  blob?: string | Uint8Array;
  mimeType?: string;
  uri?: string;
  _meta?: Json;
}

export type CompletionSource = readonly string[] | ((value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>);

export interface ResourceDefinition {
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Json;
  icons?: Json[];
  _meta?: Json;
  text?: string;
  blob?: string | Uint8Array;
  /**
   * Worked out at each read; for a template, `variables` holds the values from the URI. May
   * answer `{ inputRequired }` (2026-07-28) to ask the client for input first, or a fault
   * (`delay(ms, value)`, `hang()`, `disconnect()`…).
   */
  read?: (
    uri: string,
    variables: Record<string, string>,
    request: ContentRequest,
  ) => ResourceReadValue | InputRequiredAnswer | Fault<ResourceReadValue> | Promise<ResourceReadValue | InputRequiredAnswer | Fault<ResourceReadValue>>;
  /** Templates only: completions for each template variable (`completion/complete`). */
  complete?: Record<string, CompletionSource>;
  /** Caching hints on this resource's `resources/read` results (2026-07-28), over the mock's `cache` option. */
  cache?: CacheHints;
  /** Every read answers this JSON-RPC error instead (a message alone: -32603), as a tool step's `throws`. */
  throws?: string | ThrownError;
  /** Every read is answered through this fault: a delay, a hang, a dropped connection, raw bytes or a cut stream. */
  fault?: FaultSpec;
}

/** A resource: its text (served as text/plain), or a definition. A URI with `{var}` is a template. */
export type ResourceSpec = string | ResourceDefinition;

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: "user" | "assistant";
  /** A string is one text block. */
  content: string | Json;
}

export interface PromptDefinition {
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Json[];
  _meta?: Json;
  /**
   * The messages `prompts/get` returns; a function gets the arguments and the request (2026-07-28:
   * the client's capabilities, its retry's `inputResponses`), and may answer `{ inputRequired }`
   * to ask the client for input first (MRTR, raw control). Default: none.
   */
  messages?: PromptMessage[] | ((args: Record<string, string>, request: PromptRequest) => PromptAnswer | Fault<PromptMessage[]> | Promise<PromptAnswer | Fault<PromptMessage[]>>);
  /** Completions for each argument (`completion/complete`). */
  complete?: Record<string, CompletionSource>;
  /** Every `prompts/get` answers this JSON-RPC error instead (a message alone: -32603), as a tool step's `throws`. */
  throws?: string | ThrownError;
  /** Every `prompts/get` is answered through this fault: a delay, a hang, a dropped connection, raw bytes or a cut stream. */
  fault?: FaultSpec;
}

/**
 * What a prompt's messages function or a resource's read function learns about the request it
 * answers, and how it asks the client something first, as a tool's step function does (legacy: a
 * request on this request's stream; 2026-07-28: an input round, the function waiting for the
 * client's retry, which it then answers), sends progress and log messages.
 */
export type ContentRequest = HandlerView;

/** The `prompts/get` a messages function answers. */
export type PromptRequest = ContentRequest;

/** 2026-07-28 (MRTR, raw control): ask the client for input first; its retry comes with `inputResponses`. */
export interface InputRequiredAnswer {
  inputRequired: { inputRequests?: Json; requestState?: string };
}

/** A prompt's messages, or (2026-07-28) a request for input first. */
export type PromptAnswer = PromptMessage[] | InputRequiredAnswer;

/** A prompt: a text (one user message), or a definition. */
export type PromptSpec = string | PromptDefinition;

export interface ToolEntry {
  name: string;
  /** What `tools/list` shows, before shaping for the protocol version. */
  listing: Json;
  script: Script;
  /** Its `outputSchema`, if it has one: `returns` of a value it admits is also the structured content. */
  outputSchema?: Json;
  /** How it may run (`{ taskSupport }`), declared or implied by a step's `task`. */
  execution?: Json;
}

export interface ResourceEntry {
  uri: string;
  listing: Json;
  definition: ResourceDefinition;
}

export interface TemplateEntry {
  uriTemplate: string;
  template: UriTemplate;
  listing: Json;
  definition: ResourceDefinition;
}

export interface PromptEntry {
  name: string;
  listing: Json;
  definition: PromptDefinition;
}

function quoteAll(keys: Iterable<string>): string {
  return [...keys].map((key) => `"${key}"`).join(", ");
}

function defined(entries: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value;
  return out;
}

export function normalizeTool(name: string, spec: ToolSpec): ToolEntry {
  if (typeof name !== "string" || name.length === 0) throw new McpTestkitError(`A tool name must be a non-empty string, got ${typeLabel(name)}.`);
  let definition: ToolDefinition;
  if (typeof spec === "function" || Array.isArray(spec)) definition = { responses: spec };
  else if (isObject(spec) && Object.keys(spec).some((key) => TOOL_DEFINITION_KEYS.has(key))) {
    const stray = Object.keys(spec).filter((key) => !TOOL_DEFINITION_KEYS.has(key));
    if (stray.length > 0 && stray.every(isStepKey)) {
      throw new McpTestkitError(`Tool "${name}" mixes a definition with ${stray.map((k) => `"${k}"`).join(", ")}. Put steps under "responses".`);
    }
    checkKeys(spec, TOOL_DEFINITION_KEYS, `Tool "${name}"`, `A tool definition takes ${quoteAll(TOOL_DEFINITION_KEYS)}`);
    definition = spec as ToolDefinition;
  } else {
    // Neither a definition nor a step: a typo of either, so suggest from both vocabularies.
    const unknown = isObject(spec) ? Object.keys(spec).filter((key) => !isStepKey(key)) : [];
    if (unknown.length > 0) {
      throw new McpTestkitError(
        unknownKeysMessage(
          `Tool "${name}"`,
          unknown,
          [...TOOL_DEFINITION_KEYS, ...STEP_KEYS],
          `A tool is a step (${quoteAll(STEP_KEYS)}), a list of steps, or a definition (${quoteAll(TOOL_DEFINITION_KEYS)})`,
        ),
      );
    }
    definition = { responses: spec as Step };
  }

  checkValueKinds(definition as Json, TOOL_DEFINITION_KINDS, `Tool "${name}"`);
  for (const key of ["inputSchema", "outputSchema"] as const) {
    if (definition[key] !== undefined) checkJsonSchema(definition[key], key, `Tool "${name}"`);
  }
  const responses = definition.responses;
  const steps: Step[] = responses === undefined ? [{}] : Array.isArray(responses) ? responses : [responses];
  if (steps.length === 0) throw new McpTestkitError(`Tool "${name}" has an empty list of steps; give at least one.`);
  steps.forEach((step, i) => checkStep(step, steps.length === 1 ? `Tool "${name}"'s step` : `Tool "${name}" step ${i + 1}`));
  const execution = toolExecution(name, definition.execution, steps);

  return {
    name,
    script: new Script(steps),
    outputSchema: definition.outputSchema,
    execution,
    listing: defined({
      name,
      title: definition.title,
      description: definition.description ?? `Mock tool: ${name}`,
      inputSchema: definition.inputSchema ?? { type: "object" },
      outputSchema: definition.outputSchema,
      annotations: definition.annotations,
      icons: definition.icons,
      execution,
      _meta: definition._meta,
    }),
  };
}

const TASK_SUPPORT = ["forbidden", "optional", "required"];

/** A tool's `execution`: as declared (checked), or `{ taskSupport: "optional" }` when a step scripts a task. */
function toolExecution(name: string, declared: ToolDefinition["execution"], steps: readonly Step[]): Json | undefined {
  if (declared !== undefined) {
    const support = declared.taskSupport;
    if (support !== undefined && !TASK_SUPPORT.includes(support)) {
      throw new McpTestkitError(`Tool "${name}"'s execution.taskSupport must be "forbidden", "optional" or "required", got ${typeLabel(support)}.`);
    }
    return declared;
  }
  return steps.some((step) => typeof step === "object" && step.task !== undefined) ? { taskSupport: "optional" } : undefined;
}

const RESOURCE_DEFINITION_KINDS: Record<keyof ResourceDefinition, ValueKind | undefined> = {
  name: "string",
  title: "string",
  description: "string",
  mimeType: "string",
  size: "number",
  annotations: "object",
  icons: "object list",
  _meta: "object",
  text: "string",
  blob: "bytes or base64 string",
  read: "function",
  complete: "object",
  cache: "object",
  throws: undefined, // a message or an error object: checked below
  fault: undefined, // checked below
};

function resourceDefinition(uri: string, spec: ResourceSpec, isTemplate: boolean): ResourceDefinition {
  if (typeof uri !== "string") throw new McpTestkitError(`A resource URI must be a string, got ${typeLabel(uri)}.`);
  checkResourceUri(uri, isTemplate);
  if (typeof spec === "string") return { text: spec, mimeType: "text/plain" };
  if (!isObject(spec)) throw new McpTestkitError(`Resource "${uri}" must be a text or a definition object, got ${typeLabel(spec)}.`);
  const where = `Resource "${uri}"`;
  checkKeys(spec, Object.keys(RESOURCE_DEFINITION_KINDS), where);
  checkValueKinds(spec as Json, RESOURCE_DEFINITION_KINDS, where);
  if (spec.text !== undefined && spec.blob !== undefined) throw new McpTestkitError(`Resource "${uri}" gives both "text" and "blob"; give one.`);
  if (spec.complete !== undefined) {
    if (!isTemplate) throw new McpTestkitError(`${where}: "complete" works only on a URI template (a URI with {variables}), whose variables it completes.`);
    checkCompletions(spec.complete, where);
  }
  if (spec.read !== undefined && typeof spec.read !== "function") throw new McpTestkitError(`Resource "${uri}": "read" must be a function.`);
  checkOnlyThrows(spec as Json, ["text", "blob", "read"], where);
  if (spec.fault !== undefined) checkFault(spec.fault, where);
  checkCacheHints(spec.cache, `Resource "${uri}": "cache"`);
  return spec;
}

/** A `throws` is the whole answer: it cannot sit beside what would answer otherwise. */
function checkOnlyThrows(definition: Json, answers: readonly string[], where: string): void {
  if (definition.throws === undefined) return;
  checkThrows(definition.throws, where);
  const beside = answers.filter((key) => definition[key] !== undefined);
  if (beside.length > 0)
    throw new McpTestkitError(`${where} gives "throws" and ${beside.map((key) => `"${key}"`).join(" and ")}; "throws" answers every request with an error, so give one or the other.`);
}

/** `complete` maps each variable or argument to a list of values or a function. */
function checkCompletions(complete: unknown, where: string): void {
  for (const [name, source] of Object.entries(complete as object)) {
    const ok = typeof source === "function" || (Array.isArray(source) && source.every((value) => typeof value === "string"));
    if (!ok) throw new McpTestkitError(`${where}: "complete.${name}" must be a list of strings or a function (value, context) => strings, got ${typeLabel(source)}.`);
  }
}

function resourceListing(definition: ResourceDefinition, identity: Json, fallbackName: string): Json {
  return defined({
    ...identity,
    name: definition.name ?? fallbackName,
    title: definition.title,
    description: definition.description,
    mimeType: definition.mimeType ?? (definition.blob !== undefined ? "application/octet-stream" : definition.text !== undefined ? "text/plain" : undefined),
    size: definition.size,
    annotations: definition.annotations,
    icons: definition.icons,
    _meta: definition._meta,
  });
}

export function isUriTemplate(uri: string): boolean {
  return uri.includes("{");
}

export function normalizeResource(uri: string, spec: ResourceSpec): ResourceEntry {
  const definition = resourceDefinition(uri, spec, false);
  return { uri, definition, listing: resourceListing(definition, { uri }, uri) };
}

export function normalizeTemplate(uriTemplate: string, spec: ResourceSpec): TemplateEntry {
  const definition = resourceDefinition(uriTemplate, spec, true);
  const listing = resourceListing(definition, { uriTemplate }, uriTemplate);
  delete listing.size;
  return { uriTemplate, template: new UriTemplate(uriTemplate), definition, listing };
}

const PROMPT_DEFINITION_KINDS: Record<keyof PromptDefinition, ValueKind | undefined> = {
  title: "string",
  description: "string",
  arguments: "object list",
  icons: "object list",
  _meta: "object",
  messages: undefined, // a list or a function: checked below
  complete: "object",
  throws: undefined, // a message or an error object: checked below
  fault: undefined, // checked below
};
const PROMPT_ARGUMENT_KEYS: readonly (keyof PromptArgument)[] = ["name", "title", "description", "required"];
const PROMPT_MESSAGE_KEYS: readonly (keyof PromptMessage)[] = ["role", "content"];

export function normalizePrompt(name: string, spec: PromptSpec): PromptEntry {
  const definition: PromptDefinition = typeof spec === "string" ? { messages: [{ role: "user", content: spec }] } : spec;
  if (!isObject(definition)) throw new McpTestkitError(`Prompt "${name}" must be a text or a definition object, got ${typeLabel(spec)}.`);
  const where = `Prompt "${name}"`;
  checkKeys(definition, Object.keys(PROMPT_DEFINITION_KINDS), where);
  checkValueKinds(definition as Json, PROMPT_DEFINITION_KINDS, where);
  (definition.arguments as PromptArgument[] | undefined)?.forEach((arg, i) => {
    checkKeys(arg, PROMPT_ARGUMENT_KEYS, `${where} argument ${i + 1}`);
    checkValueKinds(arg as unknown as Json, { name: "string", title: "string", description: "string", required: "boolean" }, `${where} argument ${i + 1}`);
    if (typeof arg.name !== "string") throw new McpTestkitError(`${where}: "arguments" must be a list of { name, description?, required? }; argument ${i + 1} has no "name".`);
  });
  if (Array.isArray(definition.messages)) definition.messages.forEach((message, i) => checkPromptMessage(message, `${where} message ${i + 1}`));
  else if (definition.messages !== undefined && typeof definition.messages !== "function") {
    throw new McpTestkitError(`${where}: "messages" must be a list of { role, content } or a function (args) => messages, got ${typeLabel(definition.messages)}.`);
  }
  if (definition.complete !== undefined) checkCompletions(definition.complete, where);
  checkOnlyThrows(definition as Json, ["messages"], where);
  if (definition.fault !== undefined) checkFault(definition.fault, where);
  return {
    name,
    definition,
    listing: defined({
      name,
      title: definition.title,
      description: definition.description,
      arguments: definition.arguments,
      icons: definition.icons,
      _meta: definition._meta,
    }),
  };
}

function checkPromptMessage(message: unknown, where: string): void {
  if (!isObject(message)) throw new McpTestkitError(`${where} must be { role: "user" | "assistant", content }, got ${typeLabel(message)}.`);
  checkKeys(message, PROMPT_MESSAGE_KEYS, where);
  if (message.role !== "user" && message.role !== "assistant") {
    throw new McpTestkitError(`${where}: "role" must be "user" or "assistant", got ${typeLabel(message.role)}.`);
  }
  if (typeof message.content !== "string" && !isObject(message.content)) {
    throw new McpTestkitError(`${where}: "content" must be a text or a content block such as { type: "text", text }, got ${typeLabel(message.content)}.`);
  }
}

export interface CatalogOptions {
  tools?: Record<string, ToolSpec>;
  resources?: Record<string, ResourceSpec>;
  prompts?: Record<string, PromptSpec>;
  /** Skills (SEP-2640) by path; their files are served as `skill://` resources. */
  skills?: Record<string, SkillSpec>;
  /** MCP Apps views by `ui://` URI, served as `text/html;profile=mcp-app` resources. */
  apps?: Record<string, AppSpec>;
}

/** The live catalog. Maps keep insertion order, which is the order lists are served in. */
export class Catalog {
  readonly tools = new Map<string, ToolEntry>();
  readonly resources = new Map<string, ResourceEntry>();
  readonly templates = new Map<string, TemplateEntry>();
  readonly prompts = new Map<string, PromptEntry>();
  /** Skills by the URI of their SKILL.md, in the order `skills/list` serves them. */
  readonly skills = new Map<string, SkillRecord>();

  constructor(options: CatalogOptions = {}) {
    const keyed = { tools: "name", resources: "URI", prompts: "name", skills: "path", apps: "ui:// URI" } as const;
    for (const [label, keyName] of Object.entries(keyed)) {
      const value = options[label as keyof CatalogOptions];
      if (value !== undefined && !isObject(value)) throw new McpTestkitError(`"${label}" must be an object keyed by ${keyName}, got ${typeLabel(value)}.`);
    }
    for (const [name, spec] of Object.entries(options.tools ?? {})) this.setTool(name, spec);
    for (const [uri, spec] of Object.entries(options.resources ?? {})) this.setResource(uri, spec);
    for (const [name, spec] of Object.entries(options.prompts ?? {})) this.setPrompt(name, spec);
    for (const [path, spec] of Object.entries(options.skills ?? {})) this.setSkill(path, spec);
    for (const [uri, spec] of Object.entries(options.apps ?? {})) this.setResource(uri, normalizeApp(uri, spec));
  }

  /** Refuses a tool whose `_meta.ui` names a view the catalog does not serve (asked once the whole catalog is there). */
  checkToolViews(): void {
    checkToolViews(
      this.tools.values(),
      [...this.resources.keys()].filter((uri) => uri.startsWith(APP_SCHEME)),
    );
  }

  /** Adds or replaces a skill, and serves its files as resources. */
  setSkill(path: string, spec: SkillSpec): void {
    const skill = normalizeSkill(path, spec);
    const before = this.skills.get(skill.entry.uri);
    for (const uri of before?.files.keys() ?? []) this.resources.delete(uri);
    this.skills.set(skill.entry.uri, skill);
    for (const [uri, file] of skill.files) this.setResource(uri, file);
  }

  setTool(name: string, spec: ToolSpec): void {
    this.tools.set(name, normalizeTool(name, spec));
  }

  /** Adds or replaces a resource or template; returns whether it is new to the list. */
  setResource(uri: string, spec: ResourceSpec): boolean {
    if (isUriTemplate(uri)) {
      const isNew = !this.templates.has(uri);
      this.templates.set(uri, normalizeTemplate(uri, spec));
      return isNew;
    }
    const isNew = !this.resources.has(uri);
    this.resources.set(uri, normalizeResource(uri, spec));
    return isNew;
  }

  removeResource(uri: string): boolean {
    return isUriTemplate(uri) ? this.templates.delete(uri) : this.resources.delete(uri);
  }

  setPrompt(name: string, spec: PromptSpec): void {
    this.prompts.set(name, normalizePrompt(name, spec));
  }

  /** The resource at `uri`, or the first template that matches it with its variables. */
  findResource(uri: string): { definition: ResourceDefinition; variables: Record<string, string> } | undefined {
    const resource = this.resources.get(uri);
    if (resource) return { definition: resource.definition, variables: {} };
    for (const entry of this.templates.values()) {
      const variables = entry.template.match(uri);
      if (variables) return { definition: entry.definition, variables };
    }
    return undefined;
  }

  restartScripts(): void {
    for (const tool of this.tools.values()) tool.script.restart();
  }
}
