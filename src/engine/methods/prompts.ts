/** `prompts/list` and `prompts/get`. */
import { errorDetail } from "../../errors.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import type { PromptEntry, PromptMessage } from "../catalog.js";
import { asksForInput, inputRequiredOutcome } from "./input-required.js";
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import { PROMPT_FIELDS } from "../version-shape.js";
import { ownEntry } from "../own-entry.js";
import type { RequestHandler } from "./handler-input.js";
import { optionalObject, requireString } from "./params.js";
import { askSources, byName } from "../request-sources.js";
import { listPage } from "./list-page.js";
import { thrownRpcError } from "../steps.js";
import { runHandler } from "../interaction/run-handler.js";
import { REQUEST_ENDED } from "../connection.js";
import type { Answering, Settled } from "../interaction/handler-run.js";
import { withFault } from "../interaction/faults.js";
import { answerSource } from "./source-answer.js";

export const listPrompts: RequestHandler = (input) =>
  listPage(input, input.state.catalog.prompts.values(), { key: "prompts", fields: PROMPT_FIELDS, sources: input.state.promptListSources, name: byName });

export const getPrompt: RequestHandler = async (input) => {
  const name = requireString(input.params, "name", "prompts/get");
  const args = (optionalObject(input.params, "arguments", "prompts/get") ?? {}) as Record<string, string>;
  const subject = { method: "prompts/get", name, args, label: `prompts/get ${JSON.stringify(name)}` };
  const answered = askSources(input.state.promptGetSources, { name, arguments: args, sessionId: input.connection.id, requestId: input.request.id }, input.context);
  if (answered !== undefined) return answerSource(input, subject, answered);
  const prompt = input.state.catalog.prompts.get(name);
  if (!prompt) {
    throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { prompt: name, available: [...input.state.catalog.prompts.keys()] });
  }
  if (prompt.definition.throws !== undefined) throw thrownRpcError(prompt.definition.throws);
  const missing = (prompt.definition.arguments ?? []).filter((arg) => arg.required && ownEntry(args, arg.name) === undefined).map((arg) => arg.name);
  if (missing.length > 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, { missing });
  }
  const source = prompt.definition.messages ?? [];
  const fault = prompt.definition.fault;
  if (typeof source !== "function" && fault === undefined) return promptResult(prompt, args, source, input.request.id);
  // A messages function (it may ask the client, or return a fault) or a fault: on the interaction runtime.
  return runHandler(input, {
    subject,
    run: async (request) => withFault(fault, typeof source === "function" ? await source(args, request) : source),
    answer: (settled, answering) => answerPrompt(prompt, args, settled, answering),
    ended: REQUEST_ENDED,
  });
};

function answerPrompt(prompt: PromptEntry, args: Record<string, string>, settled: Settled<unknown>, answering: Answering): Outcome {
  const name = prompt.name;
  if ("thrown" in settled) {
    if (settled.thrown instanceof RpcError) throw settled.thrown;
    throw new RpcError(ErrorCode.InternalError, `Prompt ${name} threw: ${errorDetail(settled.thrown)}`);
  }
  const answer = settled.value;
  if (!Array.isArray(answer)) {
    if (!asksForInput(answer))
      throw new RpcError(ErrorCode.InternalError, `Prompt ${name}: the messages function must return a list of messages or { inputRequired: { inputRequests?, requestState? } }`);
    return inputRequiredOutcome(answering, `Prompt ${name}`, answer);
  }
  return promptResult(prompt, args, answer as PromptMessage[], answering.requestId);
}

function promptResult(prompt: PromptEntry, args: Record<string, string>, messages: PromptMessage[], requestId: JsonRpcId): Outcome {
  const result: Record<string, unknown> = {
    messages: messages.map((message) => ({
      role: message.role,
      content: typeof message.content === "string" ? { type: "text", text: fillArguments(message.content, args) } : message.content,
    })),
  };
  if (prompt.definition.description !== undefined) result.description = prompt.definition.description;
  return replyWith(requestId, result);
}

/** `{{name}}` in a static prompt text is replaced by that argument's value. */
function fillArguments(text: string, args: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = ownEntry(args, name);
    return value !== undefined ? String(value) : whole;
  });
}
