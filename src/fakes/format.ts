/**
 * The `mcpFakes` format: validates one block or an array of blocks with zod and turns each
 * zod issue into a problem that names the file, the block, the path, what was expected and,
 * for an unknown key, the key that was probably meant.
 */
import type { z } from "zod";
import { zod } from "../util/zod-on-demand.js";
import { isObject } from "../protocol/jsonrpc.js";
import { compilePattern, type ArgsPattern } from "./arg-patterns.js";
import { isInsideStepAt, onlyStepIssues, stepKeyProblems } from "./fake-steps.js";
import { findStepProblem, stepSchemas } from "../formats/step.js";
import { ANSWER_OR_ENDING_FAULT, fixtureRef, ONE_MATCHER, oneOfRequired, SCOPE_JSON_SCHEMA } from "./fixture-json-schema.js";
import type { ArgsMatcher } from "./args-match.js";
import { checkPromptResult, checkReadResult, toPromptResult, toReadResult, toRpcError, type ResultIssue } from "./request-results.js";
import { duplicateIdText, type FakeLoadProblem, type FakeLoadRule, type FakeLoadWarning } from "./load-errors.js";
import { fullResultKeys, isFullResult, toCallResult, toToolError } from "./results.js";
import { DEFAULT_MOUNT, type FakePromptEntries, type FakeResourceEntries, type FakeRpcAnswer, type FakeScope, type FakeToolEntries } from "./types.js";
import { faultEndsRequest, faultProblem, type FaultSpec } from "../engine/interaction/faults.js";
import { frozenJsonCopy } from "../util/frozen-copy.js";
import { fakesIssueWords } from "./issue-words.js";
import { jsonObstacle } from "../util/json-obstacle.js";
import { describeIssue, entryId, formatPath, LISTS, rawEntries, rawEntryId, repeatedIds, ruleOf, SCOPE_KEYS, type ListKey } from "./format-paths.js";

/** The schema of one block, built when the first fixture is loaded (see zod-on-demand.ts). */
function buildBlockSchema() {
  const z = zod();
  const { fakeStepSchema } = stepSchemas();
  const plainObject = (what: string, description?: string) => z.custom<Record<string, unknown>>(isObject, { error: `expected ${what}` }).meta({ type: "object", description });

  const nonEmptyString = (what: string) => z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}, not an empty string` });

  function checkContentItems(items: unknown[], ctx: z.RefinementCtx, path: (string | number)[]): void {
    items.forEach((item, i) => {
      const ok = isObject(item) && typeof item.type === "string";
      if (!ok) ctx.addIssue({ code: "custom", path: [...path, i], message: 'expected a content block, an object with a string "type" (for example { "type": "text", "text": "..." })' });
    });
  }

  function checkResult(result: unknown, ctx: z.RefinementCtx): void {
    if (typeof result === "string") return;
    if (Array.isArray(result)) return checkContentItems(result, ctx, ["result"]);
    if (typeof result !== "object" || result === null) {
      ctx.addIssue({ code: "custom", path: ["result"], message: `expected a string, an array of content blocks or an object, received ${result === null ? "null" : typeof result}` });
      return;
    }
    const object = result as Record<string, unknown>;
    if (!isFullResult(object)) return;
    // A full result: a content array and only the keys of a CallToolResult.
    const extra = Object.keys(object).filter((key) => !fullResultKeys().includes(key));
    if (extra.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["result"],
        message: `a full result (an object with ${fullResultKeys().join(", ")}) may have no other keys, found ${extra.map((k) => `"${k}"`).join(", ")}; to send an object as structuredContent, leave out those four keys`,
      });
    }
    if (!Array.isArray(object.content)) ctx.addIssue({ code: "custom", path: ["result", "content"], message: "a full result needs a content array" });
    else checkContentItems(object.content, ctx, ["result", "content"]);
    if (object.isError !== undefined && typeof object.isError !== "boolean") ctx.addIssue({ code: "custom", path: ["result", "isError"], message: "expected true or false" });
    // structuredContent may be any JSON value (2026-07-28; a legacy client gets a non-object left out).
    const meta = object._meta;
    if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta))) ctx.addIssue({ code: "custom", path: ["result", "_meta"], message: "expected an object" });
  }

  /** A value a fake sends must survive JSON (a fixture file's always does; one given in code may hold a BigInt or a cycle). */
  function checkJson(value: unknown, key: string, ctx: z.RefinementCtx): void {
    if (value === undefined) return;
    try {
      JSON.stringify(value);
    } catch {
      const reason = jsonObstacle(value) ?? "a toJSON() method failed";
      ctx.addIssue({ code: "custom", path: [key], params: { rule: "mcp-fakes/bad-entry" }, message: `cannot be sent as JSON (${reason}); a fake answers with JSON data: no BigInt, no cycles` });
    }
  }

  const MATCHER_KEYS = ["args", "anyArgs", "argsMatch"] as const;
  const CALL_ANSWER_KEYS = ["result", "error", "step"] as const;

  function checkOneMatcher(call: Partial<Record<(typeof MATCHER_KEYS)[number], unknown>>, ctx: z.RefinementCtx): void {
    const given = MATCHER_KEYS.filter((key) => call[key] !== undefined).map((key) => `"${key}"`);
    if (given.length === 1) return;
    const found = given.length === 0 ? 'has neither "args" nor "anyArgs" nor "argsMatch"' : given.length === 2 ? `has both ${given.join(" and ")}` : `has all of ${given.join(", ")}`;
    ctx.addIssue({ code: "custom", path: [], message: `${found}; expected exactly one of them ("args" matches exactly, "anyArgs": true any arguments, "argsMatch" a subset with patterns)` });
  }

  function checkPattern(written: Record<string, unknown>, ctx: z.RefinementCtx): void {
    for (const problem of compilePattern(written).problems) ctx.addIssue({ code: "custom", path: ["argsMatch", ...problem.path], params: { rule: problem.rule }, message: problem.message });
  }

  /** Exactly one of the answer keys (result and error; a tool call also step); true when the entry has a result to check. */
  function checkOneAnswer(entry: { result?: unknown; error?: unknown; step?: unknown }, ctx: z.RefinementCtx, keys: readonly string[] = ["result", "error"]): boolean {
    const given = keys.filter((key) => entry[key as keyof typeof entry] !== undefined).map((key) => `"${key}"`);
    if (given.length !== 1) {
      const names = keys.map((key) => `"${key}"`);
      const found = given.length === 0 ? `has neither ${names.join(" nor ")}` : `has ${given.length === 2 ? "both " : ""}${given.join(" and ")}`;
      ctx.addIssue({ code: "custom", path: [], message: `${found}; expected exactly one of them` });
    }
    return given.length === 1 && entry.result !== undefined;
  }

  /**
   * Exactly one answer, or none when a fault ends the request itself. A malformed fault is the
   * entry's problem: what it needs beside it is judged once the fault says what it does.
   */
  function checkAnswerBesideFault(entry: { result?: unknown; error?: unknown; fault?: Record<string, unknown> }, ctx: z.RefinementCtx): boolean {
    if (entry.fault !== undefined) {
      const problem = faultProblem(entry.fault);
      if (problem !== undefined) {
        ctx.addIssue({ code: "custom", path: ["fault"], message: problem });
        return false;
      }
      if (faultEndsRequest(entry.fault) && entry.result === undefined && entry.error === undefined) return false;
    }
    return checkOneAnswer(entry, ctx);
  }

  function addIssues(issues: readonly ResultIssue[], ctx: z.RefinementCtx): void {
    for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  }

  const rpcErrorSchema = z
    .union([z.string(), z.strictObject({ code: z.int(), message: z.string(), data: z.unknown().optional() })], {
      error: 'expected the error\'s message (a string; code -32603) or { "code": integer, "message": string, "data"? }',
    })
    .meta({ id: "rpcError", description: "A JSON-RPC error: its message (code -32603), or code, message and data." });

  /** The id and the matcher keys of a call or a get; `of` is whose arguments ("the tool's"). */
  const matchedEntryFields = (of: string, result: string) => ({
    id: nonEmptyString("a string naming the entry").meta({ description: "Names the entry: its id becomes file:id." }).optional(),
    args: plainObject(`an object of argument values (${of} arguments, matched exactly)`, "The arguments, matched exactly (key order ignored, no type conversion).").optional(),
    anyArgs: z.literal(true, { error: 'expected true ("anyArgs": true matches any arguments)' }).meta({ description: "Matches any arguments." }).optional(),
    argsMatch: plainObject('an object of argument patterns (a subset of keys; { "$regex": "…" } and { "$schema": {…} } leaves)').meta(fixtureRef("argsMatch")).optional(),
    result: z.unknown().meta(fixtureRef(result)).optional(),
  });

  function checkMatcher(entry: { args?: unknown; anyArgs?: unknown; argsMatch?: Record<string, unknown> }, ctx: z.RefinementCtx): void {
    checkOneMatcher(entry, ctx);
    if (entry.argsMatch !== undefined) checkPattern(entry.argsMatch, ctx);
  }

  const callSchema = z
    .strictObject({
      ...matchedEntryFields("the tool's", "result"),
      error: z.string({ error: "expected a string: the text of the tool error the model sees" }).meta({ description: "The text of a tool error the model sees (isError: true)." }).optional(),
      step: fakeStepSchema.optional(),
    })
    .superRefine(
      (call, ctx) => {
        checkMatcher(call, ctx);
        // Loaded as a frozen JSON copy (normalize): what JSON cannot carry is refused here, with its path.
        for (const key of ["result", "step"] as const) checkJson(call[key], key, ctx);
        if (checkOneAnswer(call, ctx, CALL_ANSWER_KEYS)) checkResult(call.result, ctx);
      },
      { when: onlyStepIssues(1) },
    )
    .meta({ id: "call", allOf: [ONE_MATCHER, { oneOf: oneOfRequired(...CALL_ANSWER_KEYS) }] });

  const toolSchema = z
    .strictObject({
      name: nonEmptyString("the tool's name, a string"),
      description: z.string({ error: "expected a string" }).optional(),
      inputSchema: plainObject("a JSON Schema object").optional(),
      calls: z.array(callSchema, { error: "expected an array of calls" }).min(1, { error: "expected at least one call; a tool with no calls could never answer" }),
    })
    .meta({ id: "tool" });

  /** A read's or get's `fault` (a delay, a hang, a dropped connection, raw bytes, a cut stream). */
  const faultSchema = plainObject('a fault object (for example { "delayMs": 500 }, { "hang": true } or { "disconnect": true })').meta(fixtureRef("fault")).optional();

  const readSchema = z
    .strictObject({ id: nonEmptyString("a string naming the entry").optional(), result: z.unknown().meta(fixtureRef("readResult")).optional(), error: rpcErrorSchema.optional(), fault: faultSchema })
    .superRefine((read, ctx) => {
      if (checkAnswerBesideFault(read, ctx)) addIssues(checkReadResult(read.result), ctx);
    })
    .meta({ id: "read", ...ANSWER_OR_ENDING_FAULT });

  const resourceSchema = z
    .strictObject({
      uri: nonEmptyString("the resource's URI, a string"),
      name: z.string({ error: "expected a string" }).optional(),
      description: z.string({ error: "expected a string" }).optional(),
      mimeType: z.string({ error: "expected a string" }).optional(),
      reads: z
        .array(readSchema, { error: "expected an array of reads" })
        .min(1, { error: "expected at least one read; a resource with no reads could never answer" })
        .meta({ description: "Used in order, one per resources/read." }),
    })
    .meta({ id: "resource" });

  const getSchema = z
    .strictObject({ ...matchedEntryFields("the prompt's", "promptResult"), error: rpcErrorSchema.optional(), fault: faultSchema })
    .superRefine((get, ctx) => {
      checkMatcher(get, ctx);
      if (checkAnswerBesideFault(get, ctx)) addIssues(checkPromptResult(get.result), ctx);
    })
    .meta({ id: "get", allOf: [ONE_MATCHER, ANSWER_OR_ENDING_FAULT] });

  const promptSchema = z
    .strictObject({
      name: nonEmptyString("the prompt's name, a string"),
      description: z.string({ error: "expected a string" }).optional(),
      arguments: z
        .array(z.strictObject({ name: nonEmptyString("the argument's name"), description: z.string().optional(), required: z.boolean().optional() }), {
          error: "expected an array of { name, description?, required? }",
        })
        .optional(),
      gets: z.array(getSchema, { error: "expected an array of gets" }).min(1, { error: "expected at least one get; a prompt with no gets could never answer" }),
    })
    .meta({ id: "prompt" });

  const scopeSchema = z
    .unknown()
    .superRefine((scope, ctx) => {
      const expected = 'expected "shared" or an object with "testId" and/or "context" (non-empty strings)';
      if (scope === undefined) return ctx.addIssue({ code: "custom", message: `is missing; every block needs a scope, or a fake written for one test would answer every test (${expected})` });
      if (scope === "shared") return;
      if (typeof scope !== "object" || scope === null || Array.isArray(scope)) return ctx.addIssue({ code: "custom", message: `${expected}, received ${JSON.stringify(scope)}` });
      const fields = scope as Record<string, unknown>;
      const unknown = Object.keys(fields).filter((key) => !SCOPE_KEYS.includes(key));
      if (unknown.length > 0) ctx.addIssue({ code: "unrecognized_keys", keys: unknown, input: fields, message: "" });
      if (fields.testId === undefined && fields.context === undefined) return ctx.addIssue({ code: "custom", message: `${expected}; this scope has neither` });
      for (const key of SCOPE_KEYS) {
        const value = fields[key];
        if (value !== undefined && (typeof value !== "string" || value === "")) ctx.addIssue({ code: "custom", path: [key], message: "expected a non-empty string" });
      }
    })
    .meta({ id: "scope", ...SCOPE_JSON_SCHEMA });

  const blockSchema = z
    .strictObject({
      scope: scopeSchema,
      mount: z
        .string({ error: 'expected a path such as "/mcp"' })
        .regex(/^\//, { error: 'expected a path starting with "/", such as "/mcp"' })
        .meta({ description: "The MCP endpoint path the block is for (default /mcp)." })
        .optional(),
      undeclaredTools: z
        .enum(["deny", "allow"], { error: 'expected "deny" (or "allow", the default)' })
        .meta({ description: '"deny" closes the world: tools the block does not declare are refused.' })
        .optional(),
      tools: z.array(toolSchema, { error: "expected an array of tools" }).optional(),
      resources: z.array(resourceSchema, { error: "expected an array of resources" }).optional(),
      prompts: z.array(promptSchema, { error: "expected an array of prompts" }).optional(),
      redacted: z
        .array(z.strictObject({ tool: z.string().optional(), resource: z.string().optional(), prompt: z.string().optional(), entry: z.int().min(0).optional(), path: z.string(), rule: z.string() }), {
          error: "expected an array of { path, rule } (what a recorder redacted)",
        })
        .meta({ description: 'What a recorder replaced with "[redacted]" before writing the block, and where. Informational: the fakes do not read it.' })
        .optional(),
    })
    .superRefine(
      (block, ctx) => {
        if (block.tools === undefined && block.resources === undefined && block.prompts === undefined) {
          ctx.addIssue({ code: "custom", path: [], message: 'has none of "tools", "resources" and "prompts"; a block fakes at least one of them' });
        }
        if (block.scope === "shared" && block.undeclaredTools === "deny") {
          ctx.addIssue({
            code: "custom",
            path: ["undeclaredTools"],
            params: { rule: "mcp-fakes/shared-deny" },
            message: 'cannot be "deny" in a "shared" block: one scenario\'s closed world would reach every test; scope the block by testId or context',
          });
        }
        checkUnique(block.tools, "tools", "name", "mcp-fakes/duplicate-tool", "calls", ctx);
        checkUnique(block.resources, "resources", "uri", "mcp-fakes/duplicate-resource", "reads", ctx);
        checkUnique(block.prompts, "prompts", "name", "mcp-fakes/duplicate-prompt", "gets", ctx);
      },
      { when: onlyStepIssues(4) },
    )
    .meta({
      id: "block",
      required: ["scope"],
      not: { properties: { scope: { const: "shared" }, undeclaredTools: { const: "deny" } }, required: ["scope", "undeclaredTools"] },
      anyOf: oneOfRequired("tools", "resources", "prompts"),
    });
  return blockSchema;
}

type BlockSchema = ReturnType<typeof buildBlockSchema>;
let blockSchemaBuilt: BlockSchema | undefined;

/** One block of scenario fakes, the fixture format's unit (schemas/mcp-fakes.schema.json is generated from it). */
export function fixtureBlockSchema(): BlockSchema {
  blockSchemaBuilt ??= buildBlockSchema();
  return blockSchemaBuilt;
}

function checkUnique<K extends string>(items: ReadonlyArray<Record<K, string>> | undefined, list: ListKey, key: K, rule: FakeLoadRule, entries: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items?.forEach((item, i) => {
    const name = item[key];
    if (seen.has(name))
      ctx.addIssue({ code: "custom", path: [list, i, key], params: { rule }, message: `"${name}" is declared twice in this block; put all its ${entries} in one ${LISTS[list].noun.slice(2)}` });
    seen.add(name);
  });
}

/** One block, validated and normalized; ids are given by the caller's naming. */
export interface ParsedBlock {
  /** Position in the array form, or null for the single-object form. */
  position: number | null;
  blockId: string;
  mount: string;
  scope: FakeScope;
  deny: boolean;
  tools: FakeToolEntries[];
  resources: FakeResourceEntries[];
  prompts: FakePromptEntries[];
}

export interface FormatInput {
  /** The `mcpFakes` value. */
  value: unknown;
  /** The file name, or null for code and the control API. */
  file: string | null;
  /** How the caller names the block at `position` going to `mount` (see ids.ts). */
  blockIdFor: (position: number | null, mount: string) => string;
  /** Words for messages when there is no file: "code", "the control API". */
  origin: string;
}

export interface FormatOutput {
  blocks: ParsedBlock[];
  problems: FakeLoadProblem[];
  warnings: FakeLoadWarning[];
}

function mountOf(raw: unknown): string {
  const mount = typeof raw === "object" && raw !== null ? (raw as { mount?: unknown }).mount : undefined;
  return typeof mount === "string" && mount.startsWith("/") ? mount : DEFAULT_MOUNT;
}

const compiled = (argsMatch: Record<string, unknown> | undefined): ArgsPattern | null => (argsMatch === undefined ? null : (compilePattern(argsMatch).pattern ?? null));

const optional = <T extends object>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** What every entry has: its id, its position and what it matches (a read, with no arguments, matches any). */
function entryBase(blockId: string, list: ListKey, name: string, index: number, entry: { id?: string; args?: Record<string, unknown>; argsMatch?: Record<string, unknown> }) {
  return { id: entryId(blockId, list, name, index, entry.id), index, args: entry.args ?? null, argsMatch: compiled(entry.argsMatch) };
}

function normalize(block: z.infer<BlockSchema>, position: number | null, blockId: string, mount: string): ParsedBlock {
  return {
    position,
    blockId,
    mount,
    scope: block.scope as FakeScope,
    deny: block.undeclaredTools === "deny",
    tools: (block.tools ?? []).map((tool) => ({
      name: tool.name,
      ...optional({ description: tool.description, inputSchema: tool.inputSchema }),
      entries: tool.calls.map((call, index) => ({
        ...entryBase(blockId, "tools", tool.name, index, call),
        tool: tool.name,
        // Copied and frozen once here: every call this entry answers hands it out as it is.
        reply: frozenJsonCopy(call.step !== undefined ? { step: call.step } : { result: call.error !== undefined ? toToolError(call.error) : toCallResult(call.result) }),
      })),
    })),
    resources: (block.resources ?? []).map((resource) => ({
      uri: resource.uri,
      ...optional({ name: resource.name, description: resource.description, mimeType: resource.mimeType }),
      entries: resource.reads.map((read, index) => ({
        ...entryBase(blockId, "resources", resource.uri, index, read),
        name: resource.uri,
        answer: withEntryFault(read.fault, read.error !== undefined ? toRpcError(read.error) : read.result === undefined ? {} : { result: toReadResult(read.result, resource.uri, resource.mimeType) }),
      })),
    })),
    prompts: (block.prompts ?? []).map((prompt) => ({
      name: prompt.name,
      ...optional({ description: prompt.description, arguments: prompt.arguments }),
      entries: prompt.gets.map((get, index) => ({
        ...entryBase(blockId, "prompts", prompt.name, index, get),
        name: prompt.name,
        answer: withEntryFault(get.fault, get.error !== undefined ? toRpcError(get.error) : get.result === undefined ? {} : { result: toPromptResult(get.result, prompt.description) }),
      })),
    })),
  };
}

/** An entry's answer with its fault beside it, copied and frozen once (every request it answers hands it out as it is). */
function withEntryFault(fault: Record<string, unknown> | undefined, answer: FakeRpcAnswer): FakeRpcAnswer {
  return fault === undefined ? answer : { ...answer, fault: frozenJsonCopy(fault) as FaultSpec };
}

/**
 * Each step answer's problem, in the words of the step check (one per step, or one per unknown
 * key), also in a block that failed elsewhere, so every problem shows at once. The block's own
 * parse leaves what lies inside a step to this (see `isInsideStep`).
 */
function checkSteps(raw: Record<string, unknown>): Array<{ path: (string | number)[]; message: string }> {
  const found: Array<{ path: (string | number)[]; message: string }> = [];
  for (const { item, index, entry } of rawEntries(raw, "tools")) {
    const step = entry.step;
    if (!isObject(step)) continue;
    const problem = findStepProblem(step, stepSchemas().fakeStepSchema);
    if (problem === undefined) continue;
    const path = ["tools", item, "calls", index, "step"];
    const messages = "text" in problem ? [`the step${problem.text}`] : stepKeyProblems(problem.unknownKeys);
    for (const message of messages) found.push({ path, message });
  }
  return found;
}

function isInsideStep(issue: z.core.$ZodIssue): boolean {
  return issue.path[0] === "tools" && issue.path[2] === "calls" && isInsideStepAt(issue, 4);
}

type Matchable = ArgsMatcher & { id: string; index: number };

/** An args or argsMatch entry after an anyArgs entry cannot match until that one is used. */
function shadowWarnings(block: ParsedBlock, file: string | null): FakeLoadWarning[] {
  const warnings: FakeLoadWarning[] = [];
  const lists: Array<[string, { name: string; entries: Matchable[] }[]]> = [
    ["tool", block.tools],
    ["prompt", block.prompts],
  ];
  for (const [noun, items] of lists) {
    for (const item of items) {
      const isAny = (entry: Matchable): boolean => entry.args === null && entry.argsMatch === null;
      const firstAny = item.entries.find(isAny);
      if (!firstAny) continue;
      for (const entry of item.entries) {
        if (entry.index > firstAny.index && !isAny(entry)) {
          const kind = entry.args !== null ? "args" : "argsMatch";
          warnings.push({
            file,
            blockId: block.blockId,
            entryId: entry.id,
            message: `${entry.id} is shadowed: an ${kind} entry after the anyArgs entry ${firstAny.id} for ${noun} "${item.name}" cannot match until ${firstAny.id} is used; put ${kind} entries before anyArgs entries`,
          });
        }
      }
    }
  }
  return warnings;
}

/** Validates and normalizes an `mcpFakes` value (one block or an array of blocks). */
export function parseFakes(input: FormatInput): FormatOutput {
  const { value, file, blockIdFor, origin } = input;
  const where = file ?? origin;
  const isArray = Array.isArray(value);
  const raws: unknown[] = isArray ? value : [value];
  const out: FormatOutput = { blocks: [], problems: [], warnings: [] };
  if (isArray && raws.length === 0) {
    out.problems.push({ rule: "mcp-fakes/bad-block", file, blockId: null, entryId: null, message: `${where}: mcpFakes is an empty array; expected one block or a non-empty array of blocks` });
    return out;
  }
  raws.forEach((raw, i) => {
    const position = isArray ? i : null;
    const mount = mountOf(raw);
    const blockId = blockIdFor(position, mount);
    const label = `${where}, block ${isArray ? `${i} ` : ""}(${blockId})`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      out.problems.push({
        rule: "mcp-fakes/bad-block",
        file,
        blockId,
        entryId: null,
        message: `${label}: expected a block object with scope and tools, received ${raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw}`,
      });
      return;
    }
    const parsed = fixtureBlockSchema().safeParse(raw, { error: fakesIssueWords });
    const stepProblems = checkSteps(raw as Record<string, unknown>);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (isInsideStep(issue)) continue;
        const path = formatPath(issue.path);
        out.problems.push({ rule: ruleOf(issue), file, blockId, entryId: rawEntryId(raw, issue.path, blockId), message: `${label}: ${path === "" ? "" : `${path}: `}${describeIssue(issue)}` });
      }
    }
    out.problems.push(
      ...stepProblems.map(({ path, message }) => ({
        rule: "mcp-fakes/bad-step" as const,
        file,
        blockId,
        entryId: rawEntryId(raw, path, blockId),
        message: `${label}: ${formatPath(path)}: ${message}`,
      })),
    );
    if (parsed.success && stepProblems.length === 0) {
      const block = normalize(parsed.data, position, blockId, mount);
      out.blocks.push(block);
      out.warnings.push(...shadowWarnings(block, file));
      return;
    }
    // The block does not load, so the store never sees its ids: a repeated one is reported here.
    for (const id of repeatedIds(raw as Record<string, unknown>, blockId))
      out.problems.push({ rule: "mcp-fakes/duplicate-id", file, blockId, entryId: id, message: `${label}: ${duplicateIdText(id, "is used twice in this load", mount)}` });
  });
  return out;
}
