/**
 * Multi round-trip requests (2026-07-28, MRTR): a `tools/call`, `prompts/get` or `resources/read`
 * may answer `resultType: "input_required"` with `inputRequests` (elicitation, sampling, roots)
 * and/or an opaque `requestState`. The driver answers each input request with the same handlers
 * that answer server requests in the legacy era (`onElicitation`, `onSampling`, `roots`), then
 * retries the request (a new id) with `inputResponses` and the `requestState` echoed unchanged,
 * for at most `maxRounds` rounds.
 */
import { isObject } from "../protocol/jsonrpc.js";
import { McpDriverError, ProtocolError, type ProcessContext } from "./errors.js";
import type { JsonObject, ServerRequestContext } from "./session.js";
import { errorText } from "../util/text.js";

/** Answers one input request as if the server had sent it as a request (`ServerRequestAnswers.answer`). */
export type InputAnswer = (method: string, params: JsonObject | undefined, context: ServerRequestContext) => Promise<JsonObject>;

export interface InputRoundsSpec {
  label: string;
  maxRounds: number;
  answer: InputAnswer;
  processContext: () => ProcessContext | undefined;
  signal?: AbortSignal;
}

/** Whether a result asks for input rather than being the answer. */
export function isInputRequired(result: JsonObject): boolean {
  return result.resultType === "input_required";
}

/** Sends `params`, answers every `input_required` round, and resolves with the complete result. */
export async function withInputRounds(send: (params: JsonObject) => Promise<JsonObject>, params: JsonObject, spec: InputRoundsSpec): Promise<JsonObject> {
  let result = await send(params);
  for (let round = 1; isInputRequired(result); round++) {
    if (round > spec.maxRounds) {
      throw new ProtocolError(
        `${spec.label}: the server still answered input_required after ${spec.maxRounds} rounds of input; the driver gave up. ` +
          `If the server really needs more rounds, raise maxInputRounds; otherwise check what it asks for (driver.messages).`,
        { process: spec.processContext() },
      );
    }
    const inputResponses = await answerAll(result, spec);
    const retry: JsonObject = { ...params, inputResponses };
    // The state goes back exactly as it came, and only when it came (spec, MRTR client rules).
    if (result.requestState !== undefined) retry.requestState = result.requestState;
    result = await send(retry);
  }
  return result;
}

async function answerAll(result: JsonObject, spec: InputRoundsSpec): Promise<JsonObject> {
  const requests = isObject(result.inputRequests) ? result.inputRequests : {};
  const signal = spec.signal ?? new AbortController().signal;
  const entries = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      if (!isObject(request) || typeof request.method !== "string") {
        throw new ProtocolError(`${spec.label}: input request ${JSON.stringify(key)} is not a request object ({ method, params }): ${JSON.stringify(request)}.`, { process: spec.processContext() });
      }
      const params = isObject(request.params) ? request.params : undefined;
      try {
        return [key, await spec.answer(request.method, params, { method: request.method, requestId: key, signal })] as const;
      } catch (error) {
        const why = errorText(error);
        throw new McpDriverError(`${spec.label}: could not answer the server's input request ${JSON.stringify(key)} (${request.method}): ${why}`, {
          method: request.method,
          cause: error,
          process: spec.processContext(),
        });
      }
    }),
  );
  return Object.fromEntries(entries);
}
