/**
 * Step sources: where a `tools/call` gets its step. The engine asks an ordered list of sources
 * and the first that answers wins, as msw walks its handlers: scenario fakes (when loaded), then
 * the tool's own script, then the unknown-tool policy, which always answers. A new way to answer
 * calls is a new source, not a branch in `tools/call`.
 */
import { ErrorCode } from "../protocol/errors.js";
import { McpTestkitError } from "../errors.js";
import type { Catalog, ToolEntry } from "./catalog.js";
import type { CallOutcome, ToolCall } from "./call-log.js";
import type { RequestContext } from "./request-context.js";
import { typeLabel } from "../util/text.js";
import { suggestion } from "../util/closest.js";
import type { Step, StepFunction } from "./steps.js";

/** What a source found for a call: the step to run, and how to record its answer. */
export interface StepChoice {
  readonly step: Step;
  /** The tool's `outputSchema`, if it declares one (so `returns` of a value it admits also sends `structuredContent`). */
  readonly outputSchema?: unknown;
  /** The tool's `execution` (how it may run: `{ taskSupport }`), if it declares one. */
  readonly execution?: Record<string, unknown>;
  /**
   * How to record the answer when it is not the step's own kind: `unknown-tool` for the
   * unknown-tool policy's error, `tool-error` for a raw `result` with `isError` (a fake's error).
   */
  readonly recordAs?: CallOutcome;
}

/** A source of steps for tool calls: a choice, or `undefined` to let the next source answer. */
export type ToolStepSource = (call: ToolCall, context: RequestContext) => StepChoice | undefined;

/**
 * What the mock does with a call to a tool it does not have (msw's `onUnhandledRequest`):
 * - `"error"` (default): a -32602 error naming the tools it has;
 * - `"warn"`: the same, plus a line on the mock's log (stderr by default), so a test run shows it;
 * - a function `(call) => step`: answer it like a tool with that step function.
 */
export type UnknownToolPolicy = "error" | "warn" | StepFunction;

/** The tool's own script, if the catalog has the tool. */
export function scriptSource(catalog: Catalog): ToolStepSource {
  // A tool answers most calls with the same step (its last one repeats): one choice per tool and step, not one per call.
  const made = new WeakMap<ToolEntry, StepChoice>();
  return (call) => {
    const tool = catalog.tools.get(call.tool);
    if (tool === undefined) return undefined;
    const step = tool.script.next() ?? {};
    const last = made.get(tool);
    if (last !== undefined && last.step === step) return last;
    const choice: StepChoice = { step, outputSchema: tool.outputSchema, execution: tool.execution };
    made.set(tool, choice);
    return choice;
  };
}

/** Says why a tool this request cannot see may exist elsewhere (a fake scoped to another test), or undefined. */
export type UnknownToolHint = (call: ToolCall, context: RequestContext) => string | undefined;

/** The last source: answers every call per the unknown-tool policy, with the first hint that has something to say. */
export function unknownToolSource(catalog: Catalog, policy: UnknownToolPolicy | undefined, warn: (line: string) => void, hints: readonly UnknownToolHint[] = []): ToolStepSource {
  if (typeof policy === "function") {
    const choice: StepChoice = { step: policy };
    return () => choice;
  }
  return (call, context) => {
    const available = [...catalog.tools.keys()];
    let hint = "";
    for (const explain of hints) hint ||= explain(call, context) ?? "";
    if (policy === "warn") {
      warn(`mcp-testkit: tools/call for unknown tool "${call.tool}" (tools: ${available.length === 0 ? "none" : available.join(", ")}); answered -32602. Add the tool, or set onUnknownTool.`);
    }
    return {
      // The closest name in the message itself: an SDK client shows the message, never `data`.
      step: { throws: { code: ErrorCode.InvalidParams, message: `Unknown tool: ${call.tool}${suggestion(call.tool, available)}${hint}`, data: { tool: call.tool, available } } },
      recordAs: "unknown-tool",
    };
  };
}

/** Tools listed besides the catalog's for a request (fakes' tools, per mount and identity). */
export type ToolListSource = (context: RequestContext) => ReadonlyArray<{ readonly name: string }>;

/** The first source's choice; the list must end with one that always answers. */
export function chooseStep(sources: readonly ToolStepSource[], call: ToolCall, context: RequestContext): StepChoice {
  for (const source of sources) {
    const choice = source(call, context);
    if (choice !== undefined) return choice;
  }
  throw new Error(`no step source answered tools/call for "${call.tool}" (the unknown-tool source must come last)`);
}

export function checkUnknownToolPolicy(policy: unknown): void {
  if (policy === undefined || policy === "error" || policy === "warn" || typeof policy === "function") return;
  throw new McpTestkitError(`"onUnknownTool" must be "error", "warn" or a function (call) => step, got ${typeLabel(policy)}.`);
}
