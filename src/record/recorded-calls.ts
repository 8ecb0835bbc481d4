/**
 * The calls a recording holds, read back from its file: a scenario (`fixtures: [block]`), a
 * fixture file (`{ "mcpFakes": block }`) or a bare block. Each call is what to ask the live server
 * and the answer the recording expects, as the wire carries it (`{ result }` or `{ error }`); a
 * call that cannot be asked again as recorded (its arguments were redacted or are a pattern, it
 * is a fault or a scripted step) says why it is skipped.
 */
import { REDACTED } from "../protocol/http-facts.js";
import { McpTestkitError } from "../errors.js";
import type { McpFakeBlock, McpFakeCall, McpFakeRpcError } from "../fakes/types.js";
import { toCallResult, toToolError } from "../fakes/results.js";
import { toPromptResult, toReadResult, toRpcError } from "../fakes/request-results.js";
import { withoutProtocolKeys } from "./recording.js";

type Json = Record<string, unknown>;

/** An answer as it travels: a result, or a JSON-RPC error. */
export type WireAnswer = { result: Json } | { error: { code: number; message: string; data?: unknown } };

export type RecordedCall = {
  /** Its place in the recording: the index of this entry among the tool's (resource's, prompt's) entries. */
  entry: number;
} & ({ kind: "tool"; name: string; arguments: Json } | { kind: "resource"; uri: string } | { kind: "prompt"; name: string; arguments: Record<string, string> }) &
  ({ expected: WireAnswer } | { skip: string });

/** The blocks of fakes in a recording's parsed content; a recording with none is refused, saying what a recording looks like. */
export function recordingBlocks(content: unknown, source: string): McpFakeBlock[] {
  const object = (typeof content === "object" && content !== null ? content : {}) as Json;
  const candidates: unknown[] = "mcpFakes" in object ? [object.mcpFakes].flat() : Array.isArray(object.fixtures) ? object.fixtures : "tools" in object && Array.isArray(object.tools) ? [object] : [];
  const blocks = candidates.filter((block): block is McpFakeBlock => typeof block === "object" && block !== null && !Array.isArray(block));
  if (blocks.length === 0) {
    throw new McpTestkitError(
      `${source} holds no recorded calls: expected a recording written by mcp-testkit record or recordMcp().save(), that is a scenario with "fixtures": [{ "tools": [...] }] or a fixture file { "mcpFakes": { "tools": [...] } }. Record the server first (mcp-testkit record <server> --out <file>), then verify that file.`,
    );
  }
  return blocks;
}

/** Every call of the blocks, tool by tool (then resources, then prompts), each tool's entries in the order they were recorded. */
export function recordedCalls(blocks: readonly McpFakeBlock[]): RecordedCall[] {
  const calls: RecordedCall[] = [];
  for (const block of blocks) {
    for (const tool of block.tools ?? []) tool.calls.forEach((call, entry) => calls.push(toolCall(tool.name, call, entry)));
    for (const resource of block.resources ?? []) {
      resource.reads.forEach((read, entry) => {
        // A recorded read is kept whole; a hand-written shorthand is expanded as the fakes expand it.
        const expected = rpcAnswer(read, (result) => (isObject(result) && Array.isArray(result.contents) ? result : toReadResult(result, resource.uri, resource.mimeType)));
        calls.push({ kind: "resource", uri: resource.uri, entry, ...(read.fault !== undefined ? { skip: "it is a fault, not a recorded answer" } : expected) });
      });
    }
    for (const prompt of block.prompts ?? []) {
      prompt.gets.forEach((get, entry) => {
        const args = (get.args ?? {}) as Record<string, string>;
        const skip = get.fault !== undefined ? "it is a fault, not a recorded answer" : argumentsSkip(get);
        calls.push({ kind: "prompt", name: prompt.name, arguments: args, entry, ...(skip !== undefined ? { skip } : rpcAnswer(get, (result) => toPromptResult(result, undefined))) });
      });
    }
  }
  return calls;
}

function toolCall(name: string, call: McpFakeCall, entry: number): RecordedCall {
  const base = { kind: "tool" as const, name, arguments: (call.args ?? {}) as Json, entry };
  const skip = argumentsSkip(call);
  if (skip !== undefined) return { ...base, skip };
  if (call.step === undefined) return { ...base, expected: { result: call.error !== undefined ? toToolError(call.error) : toCallResult(call.result ?? "") } };
  const step = call.step;
  if (step.asks !== undefined) return { ...base, skip: "the server asked its client during this call (elicitation, sampling, roots), and a recording does not keep the client's answers" };
  if (step.throws !== undefined) {
    const thrown = typeof step.throws === "string" ? { message: step.throws } : step.throws;
    return { ...base, expected: { error: { code: thrown.code ?? -32603, message: thrown.message, ...(thrown.data !== undefined && { data: thrown.data }) } } };
  }
  if (step.result !== undefined && typeof step.result === "object" && step.result !== null) return { ...base, expected: { result: step.result as Json } };
  return { ...base, skip: "it is a scripted step (a delay, hang, disconnect or raw bytes), not a recorded answer" };
}

/** Why a call's arguments cannot be sent again as recorded, if they cannot. */
function argumentsSkip(call: { args?: Json; anyArgs?: true; argsMatch?: Json }): string | undefined {
  if (call.anyArgs) return "it matches any arguments, so there are none to send";
  if (call.argsMatch !== undefined) {
    return JSON.stringify(call.argsMatch).includes('"$schema"') || JSON.stringify(call.args ?? {}).includes(REDACTED)
      ? "its arguments were redacted when it was recorded, so they cannot be sent again"
      : "its arguments are a pattern (argsMatch), not values to send";
  }
  return undefined;
}

function rpcAnswer(entry: { result?: unknown; error?: McpFakeRpcError }, toResult: (value: unknown) => Json): { expected: WireAnswer } | { skip: string } {
  if (entry.error !== undefined) {
    const { error } = toRpcError(entry.error) as { error: { code: number; message: string; data?: unknown } };
    return { expected: { error } };
  }
  if (entry.result === undefined) return { skip: "it has no recorded answer" };
  // As JSON: a key the conversion left undefined is no key at all, as on the wire.
  return { expected: { result: JSON.parse(JSON.stringify(withoutProtocolKeys(toResult(entry.result)))) as Json } };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
