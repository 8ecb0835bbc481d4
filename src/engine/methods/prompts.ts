/** `prompts/list` and `prompts/get`. */
import { errorDetail } from "../../errors.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { PromptAnswer, PromptMessage } from "../catalog.js";
import { asksForInput, inputRequiredOutcome } from "./input-required.js";
import { runContent } from "./content-asks.js";
import { RpcError } from "../outcome.js";
import { PROMPT_FIELDS } from "../version-shape.js";
import { ownEntry } from "../own-entry.js";
import { ok, type RequestHandler } from "./handler-input.js";
import { optionalObject, requireString } from "./params.js";
import { answerOrThrow, askSources, byName } from "../request-sources.js";
import { listPage } from "./list-page.js";
import { thrownRpcError } from "../steps.js";

export const listPrompts: RequestHandler = (input) =>
  listPage(input, input.state.catalog.prompts.values(), { key: "prompts", fields: PROMPT_FIELDS, sources: input.state.promptListSources, name: byName });

export const getPrompt: RequestHandler = async (input) => {
  const name = requireString(input.params, "name", "prompts/get");
  const args = (optionalObject(input.params, "arguments", "prompts/get") ?? {}) as Record<string, string>;
  const answered = askSources(input.state.promptGetSources, { name, arguments: args, sessionId: input.connection.id, requestId: input.request.id }, input.context);
  if (answered !== undefined) return ok(input, answerOrThrow(answered));
  const prompt = input.state.catalog.prompts.get(name);
  if (!prompt) {
    throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { prompt: name, available: [...input.state.catalog.prompts.keys()] });
  }
  if (prompt.definition.throws !== undefined) throw thrownRpcError(prompt.definition.throws);
  const missing = (prompt.definition.arguments ?? []).filter((arg) => arg.required && ownEntry(args, arg.name) === undefined).map((arg) => arg.name);
  if (missing.length > 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, { missing });
  }
  let answer: PromptAnswer;
  const source = prompt.definition.messages ?? [];
  try {
    if (typeof source === "function") {
      const run = await runContent(input, "prompts/get", name, args, (request) => source(args, request));
      if ("outcome" in run) return run.outcome;
      answer = run.value;
    } else answer = source;
  } catch (thrown) {
    if (thrown instanceof RpcError) throw thrown;
    throw new RpcError(ErrorCode.InternalError, `Prompt ${name} threw: ${errorDetail(thrown)}`);
  }
  if (!Array.isArray(answer)) {
    if (!asksForInput(answer)) throw new RpcError(ErrorCode.InternalError, `Prompt ${name}: the messages function must return a list of messages or { inputRequired: { inputRequests?, requestState? } }`);
    return inputRequiredOutcome(input, `Prompt ${name}`, answer);
  }
  const messages: PromptMessage[] = answer;
  const result: Record<string, unknown> = {
    messages: messages.map((message) => ({
      role: message.role,
      content: typeof message.content === "string" ? { type: "text", text: fillArguments(message.content, args) } : message.content,
    })),
  };
  if (prompt.definition.description !== undefined) result.description = prompt.definition.description;
  return ok(input, result);
};

/** `{{name}}` in a static prompt text is replaced by that argument's value. */
function fillArguments(text: string, args: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = ownEntry(args, name);
    return value !== undefined ? String(value) : whole;
  });
}
