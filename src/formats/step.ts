/**
 * A step described once: the keys a scripted answer may use, what each holds and the rules
 * between them (a step gives one answer). From this zod definition come the run-time checks
 * (the engine's `checkStep`, the fixture loader's check of a call's `step`), the check of the
 * TypeScript step types (test/types) and the step in both JSON Schemas of schemas/
 * (`npm run schemas`). It sits below the engine and the fakes, so both read the same words.
 * The schemas are built at their first use (zod loads then, see zod-on-demand.ts): importing the
 * package does not pay for them.
 */
import type { z } from "zod";
import { zod } from "../util/zod-on-demand.js";
import { BroadcastNotificationMethods, ServerRequestMethods } from "../protocol/methods.js";
import { closest } from "../util/closest.js";
import { typeLabel } from "../util/text.js";
import { MAX_TIMER_MS, timerMsProblem } from "../util/timer-ms.js";
import { unknownKeysMessage } from "../util/unknown-keys.js";
import { ANSWER_KEYS, FLAG_KEYS, givesAnswer, type StepKey } from "./step-keys.js";
import { TASK_SHAPE, taskScriptSchema } from "./task-step.js";

const must = (key: string, what: string) => (issue: { input: unknown }) => `${JSON.stringify(key)} must be ${what}, got ${typeLabel(issue.input)}.`;
/**
 * The keys whose value is checked as a whole: any problem inside says what the whole must be.
 * Written as the TypeScript types spell them.
 */
const WHOLE: Record<string, string> & { throws: string } = {
  throws: "a message string or { code?: integer, message: string, data? }",
  stream: '{ mode?: "json" | "sse", closeAfterEvents?: whole number, retryMs?: whole number of ms }',
  inputRequired: "{ inputRequests?: { key: { method, params } }, requestState?: string } with at least one of them (the spec requires one)",
  task: TASK_SHAPE,
};

/** Answers a task cannot end with: a task ends with a result or a JSON-RPC error (or never, `hang`). */
const NOT_IN_A_TASK = ["disconnect", "raw", "inputRequired"] as const;

/** The rules between keys, for a step whose keys and values are each right. */
function checkAcross(step: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const answers = ANSWER_KEYS.filter((key) => givesAnswer(step, key));
  if (answers.length > 1) ctx.addIssue({ code: "custom", message: `gives ${answers.map((k) => `"${k}"`).join(" and ")}; a step gives one answer.` });
  else if (step.structuredContent !== undefined && step.returns !== undefined) {
    ctx.addIssue({
      code: "custom",
      message:
        'gives "returns" and "structuredContent"; "returns" makes the whole result (a value the tool\'s outputSchema admits is also its structuredContent), so give it alone, or "content" with "structuredContent".',
    });
  } else if (step.structuredContent !== undefined && step.content === undefined) {
    ctx.addIssue({ code: "custom", message: 'has "structuredContent" without "content"; send both, or use "returns".' });
  } else if (step.asks !== undefined && step.inputRequired !== undefined) {
    ctx.addIssue({ code: "custom", message: 'gives "asks" and "inputRequired"; "asks" makes the input rounds itself (in both eras), "inputRequired" scripts one by hand: give one of them.' });
  } else if (step.task !== undefined) {
    const refused = NOT_IN_A_TASK.find((key) => givesAnswer(step, key));
    if (refused !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `gives "task" and "${refused}"; a task ends with the step's result ("returns", "content", "toolError", "result"), its error ("throws") or never ("hang"). Its input is the step's "asks".`,
      });
    }
  }
}

/** The cross-key rules as JSON Schema: no two answers together ("hang": false and "disconnect": false give none), structuredContent only with content, asks not with inputRequired. */
function acrossJsonSchema(answerKeys: readonly string[], hasAsksAndInput: boolean): Record<string, unknown> {
  const present = (key: string) => (FLAG_KEYS.has(key) ? { required: [key], properties: { [key]: { const: true } } } : { required: [key] });
  const pairs: object[] = [];
  answerKeys.forEach((a, i) => answerKeys.slice(i + 1).forEach((b) => pairs.push({ not: { allOf: [present(a), present(b)] } })));
  if (hasAsksAndInput) pairs.push({ not: { allOf: [{ required: ["asks"] }, { required: ["inputRequired"] }] } });
  for (const key of NOT_IN_A_TASK) if (answerKeys.includes(key)) pairs.push({ not: { allOf: [{ required: ["task"] }, present(key)] } });
  return {
    dependentRequired: { structuredContent: ["content"] },
    $comment: 'allOf refuses each pair of answer keys together, since a step gives one answer; "hang": false and "disconnect": false give none.',
    allOf: pairs,
  };
}

/** Every schema of a step, built once at first use. */
function build() {
  const z = zod();
  const flag = (key: string, description: string) => z.boolean({ error: must(key, "true or false") }).meta({ description });

  /** A list of `{ method, params? }` a step sends (its asks, its broadcast): each a known method, with object params. */
  function messageList<const M extends readonly [string, ...string[]]>(key: string, methods: M, what: { list: string; method: string; params: string }, itemJsonSchema: Record<string, unknown> = {}) {
    const method = z.enum(methods, {
      error: (issue) => {
        const guess = typeof issue.input === "string" ? closest(issue.input, methods as readonly string[]) : undefined;
        return `"method" must be one of ${methods.map((m) => `"${m}"`).join(", ")} (${what.method}), got ${JSON.stringify(issue.input) ?? "nothing"}${guess ? `; did you mean "${guess}"?` : "."}`;
      },
    });
    const params = z.record(z.string(), z.unknown(), { error: must("params", `an object (${what.params})`) });
    const item = z.strictObject({ method, params: params.optional() }, { error: (issue) => `must be { method, params? }, got ${typeLabel(issue.input)}.` }).meta(itemJsonSchema);
    return z.array(item, { error: must(key, `a list of { method, params? } ${what.list}`) });
  }

  const asks = messageList("asks", ServerRequestMethods, { list: "requests to make of the client", method: "the requests a server makes of its client", params: "the request's params" });

  const broadcast = messageList(
    "broadcast",
    BroadcastNotificationMethods,
    { list: "notifications to send every client", method: "what a server tells every client when something changed", params: "the notification's params" },
    {
      // The rule the refinement below checks, for editors.
      if: { properties: { method: { const: "notifications/resources/updated" } } },
      then: { required: ["params"], properties: { params: { required: ["uri"], properties: { uri: { type: "string" } } } } },
    },
  ).superRefine((notices, ctx) => {
    notices.forEach(({ method, params }, index) => {
      if (method === "notifications/resources/updated" && typeof params?.uri !== "string") {
        ctx.addIssue({ code: "custom", path: [index, "params"], message: 'notifications/resources/updated names the resource that changed: give params: { uri: "…" }.' });
      }
    });
  });

  /** A JSON-RPC error a step (or a resource, a prompt) answers with: its message (code -32603), or code, message and data. */
  const thrownErrorSchema = z
    .union([z.string(), z.object({ code: z.int().optional(), message: z.string(), data: z.unknown().optional() })])
    .meta({ id: "thrownError", description: "A JSON-RPC error instead of a result (default code -32603)." });

  const wholeNumber = (min: number) => z.int().min(min);

  const delayError = (issue: { input: unknown }) => `${timerMsProblem("delayMs", issue.input)}.`;
  const repeatError = must("repeat", "a whole number of calls, 1 or more");

  /** Every step key, answers first, then what any step may add; the TypeScript types (src/engine/steps.ts) are checked against it. */
  const stepShape = {
    returns: z
      .unknown()
      .meta({
        description:
          "A result: a string becomes one text block; anything else is sent as JSON text (and as structuredContent when the tool has an outputSchema whose root type admits the value: an object for an object schema; in 2026-07-28 any JSON value the schema's type names).",
      })
      .optional(),
    content: z
      .array(z.unknown(), { error: must("content", "an array of content blocks") })
      .meta({ description: "A result with these content blocks." })
      .optional(),
    toolError: z
      .string({ error: must("toolError", "a string") })
      .meta({ description: "A failed tool run: isError: true with this message as text." })
      .optional(),
    throws: thrownErrorSchema.optional(),
    hang: flag("hang", "Never answer, until the client cancels or the connection or server closes.").optional(),
    result: z.unknown().meta({ description: "This exact JSON-RPC result, unchecked (to test how a client handles a malformed reply)." }).optional(),
    disconnect: flag("disconnect", "Drop the connection mid-call.").optional(),
    raw: z
      .string({ error: must("raw", "a string (the bytes to write)") })
      .meta({ description: "Write these bytes where the reply would go." })
      .optional(),
    inputRequired: z
      .strictObject({ inputRequests: z.record(z.string(), z.unknown()).optional(), requestState: z.string().optional() })
      .refine((given) => given.inputRequests !== undefined || given.requestState !== undefined)
      .meta({
        description: "2026-07-28 raw control of MRTR: answer resultType input_required with these inputRequests and/or requestState.",
        anyOf: [{ required: ["inputRequests"] }, { required: ["requestState"] }],
      })
      .optional(),
    structuredContent: z.unknown().meta({ description: "Sent with content: an object, or in 2026-07-28 any JSON value (a legacy client gets a non-object left out)." }).optional(),
    delayMs: z
      .number({ error: delayError })
      .min(0, { error: delayError })
      .max(MAX_TIMER_MS, { error: delayError })
      .meta({ description: `Wait this long before answering, in ms (at most ${MAX_TIMER_MS}, the longest a timer holds); a cancelled call stops waiting.` })
      .optional(),
    repeat: z.int({ error: repeatError }).min(1, { error: repeatError }).meta({ description: "Use this step for this many calls in a row." }).optional(),
    stream: z
      .strictObject({ mode: z.enum(["json", "sse"]).optional(), closeAfterEvents: wholeNumber(0).optional(), retryMs: wholeNumber(0).optional() })
      .meta({ description: "How Streamable HTTP carries this answer." })
      .optional(),
    asks: asks
      .meta({ description: "Requests to make of the client first, one after another (each an MRTR round in 2026-07-28); then the step answers as it says, whatever the client answered." })
      .optional(),
    broadcast: broadcast
      .meta({ description: "Notifications to send every client before answering (after the asks): legacy sessions, and 2026-07-28 subscriptions/listen streams that opted in." })
      .optional(),
    endSubscriptions: flag("endSubscriptions", "End every open subscriptions/listen before answering (each gets its closing result).").optional(),
    task: taskScriptSchema(z).optional(),
  } satisfies Record<StepKey, z.ZodType>;

  const { repeat: _repeat, inputRequired: _inputRequired, ...fakeShape } = stepShape;

  /** A step of a tool's script (mockMcp's `tools`, a scenario file). */
  const stepSchema = z
    .strictObject(stepShape)
    .superRefine(checkAcross)
    .meta({
      id: "step",
      description: `What one call gets: exactly one answer (${ANSWER_KEYS.join(", ")}), or only delayMs, or nothing (an empty result).`,
      ...acrossJsonSchema(ANSWER_KEYS, true),
    });

  /** A fixture call's `step`: one call's answer, so no `repeat` and no `inputRequired` (its retry would be a next call). */
  const fakeStepSchema = z
    .strictObject(fakeShape, { error: 'expected a step object of the mock\'s JSON step keys (for example { "delayMs": 500, "returns": "ok" } or { "hang": true })' })
    .superRefine(checkAcross)
    .meta({
      id: "step",
      description: "A mock step instead of a result: a delay, a hang, a disconnect, a JSON-RPC error, raw bytes, ... (the mock's JSON step keys, without repeat). See docs/fakes.md.",
      ...acrossJsonSchema(
        ANSWER_KEYS.filter((key) => key !== "inputRequired"),
        false,
      ),
    });

  /**
   * A fault in JSON (a resource's or a prompt's definition, a fixture read or get): the step keys
   * that delay or end an answer, described by the same schemas as in a step.
   */
  const faultSchema = z
    .strictObject({ delayMs: stepShape.delayMs, hang: stepShape.hang, disconnect: stepShape.disconnect, raw: stepShape.raw, stream: stepShape.stream })
    .superRefine((fault, ctx) => {
      const endings = FAULT_ENDINGS.filter((key) => fault[key] !== undefined && fault[key] !== false);
      if (endings.length > 1) ctx.addIssue({ code: "custom", message: `gives ${endings.map((key) => `"${key}"`).join(" and ")}; each ends the request, so give one` });
    })
    .meta({
      id: "fault",
      description:
        "Answers through a fault: after delayMs, never (hang), by dropping the connection (disconnect), with raw bytes, or on a cut stream. hang, disconnect and raw end the request, so they need no result beside them.",
    });

  return { thrownErrorSchema, stepSchema, fakeStepSchema, faultSchema };
}

/** The fault keys that end a request themselves; a fault gives at most one. */
const FAULT_ENDINGS = ["hang", "disconnect", "raw"] as const;
const FAULT_SHAPE = '{ delayMs?: ms, hang?: true, disconnect?: true, raw?: "bytes", stream?: { mode?, closeAfterEvents?, retryMs? } }';

/** What is wrong with a JSON fault, in words that start from "fault" (undefined: nothing). */
export function faultProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `"fault" must be ${FAULT_SHAPE}, got ${typeLabel(value)}`;
  const parsed = stepSchemas().faultSchema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys" && issue.path.length === 0) return `"fault" has ${issue.keys.map((key) => `"${key}"`).join(", ")}; it takes ${FAULT_SHAPE}`;
  const key = issue.path[0] as string | undefined;
  if (key === undefined) return `fault ${issue.message}`;
  // A key's words are a step's ("\"hang\" must be …."), said of the fault.
  const words = WHOLE[key] !== undefined ? must(key, WHOLE[key])({ input: (value as Record<string, unknown>)[key] }) : issue.message;
  return `fault ${words.endsWith(".") ? words.slice(0, -1) : words}`;
}

type StepSchemas = ReturnType<typeof build>;
let built: StepSchemas | undefined;

/** The step schemas: `stepSchema` (a tool's script), `fakeStepSchema` (a fixture call's step), `thrownErrorSchema` (a `throws`), `faultSchema` (a JSON fault). */
export function stepSchemas(): StepSchemas {
  built ??= build();
  return built;
}

/** `": \"throws\" must be …"` when `value` is not a `throws`, else undefined (a resource's and a prompt's `throws` are checked with it too). */
export function throwsProblem(value: unknown): string | undefined {
  return stepSchemas().thrownErrorSchema.safeParse(value).success ? undefined : `: ${must("throws", WHOLE.throws)({ input: value })}`;
}

/** What a step written by hand holds, as the schema reads it (the engine's `StepObject` is checked against it). */
export type StepInput = z.input<StepSchemas["stepSchema"]>;

/** What a fixture step holds, as the schema reads it (the fakes' `McpFakeStep` is checked against it). */
export type FakeStepInput = z.input<StepSchemas["fakeStepSchema"]>;

/**
 * The first problem of a step object, or undefined: unknown keys first (as names, so each
 * reader words them for its vocabulary), then a wrong value, then a rule between keys. A
 * message is given as the words after `where`: `where` + `text`.
 */
export type StepProblem = { unknownKeys: string[] } | { text: string };

export function findStepProblem(step: object, schema: StepSchemas["stepSchema"] | StepSchemas["fakeStepSchema"] = stepSchemas().stepSchema): StepProblem | undefined {
  const parsed = schema.safeParse(step);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const top = issues.find((issue) => issue.code === "unrecognized_keys" && issue.path.length === 0);
  if (top !== undefined) return { unknownKeys: (top as { keys: string[] }).keys };
  const issue = issues[0]!;
  const [key, index] = issue.path as [string | undefined, number | undefined];
  if (key === undefined) return { text: ` ${issue.message}` };
  if (WHOLE[key] !== undefined) return { text: `: ${must(key, WHOLE[key])({ input: (step as Record<string, unknown>)[key] })}` };
  if (index === undefined) return { text: `: ${issue.message}` };
  // Inside a list (asks, broadcast): the message names the item, then what is wrong with it.
  const at = `${key}[${index}]`;
  if (issue.code === "unrecognized_keys") {
    const one = key === "asks" ? "An ask" : "A broadcast notification";
    return { text: `: ${unknownKeysMessage(at, issue.keys, ["method", "params"], `${one} takes "method" and "params"`)}` };
  }
  return { text: issue.path.length === 2 ? `: ${at} ${issue.message}` : `: ${at}: ${issue.message}` };
}
