/**
 * Multi round-trip requests (2026-07-28, MRTR): a `tools/call`, `prompts/get` or `resources/read`
 * may answer `resultType: "input_required"` with `inputRequests` (elicitation, sampling, roots)
 * and/or an opaque `requestState`. The driver answers each input request with the same handlers
 * that answer server requests in the legacy era (`onElicitation`, `onSampling`, `roots`), then
 * retries the request (a new id) with `inputResponses` and the `requestState` echoed unchanged,
 * for at most `maxRounds` rounds.
 */
import { isObject } from "../protocol/jsonrpc.js";
import { McpDriverError, ProtocolError, RequestTimeoutError, type ProcessContext } from "./errors.js";
import type { JsonObject, ServerRequestContext } from "./rpc-channel.js";
import { errorText } from "../util/text.js";
import { onAbort } from "../util/on-abort.js";

/** Answers one input request as if the server had sent it as a request (`ServerRequestAnswers.answer`). */
export type InputAnswer = (method: string, params: JsonObject | undefined, context: ServerRequestContext) => Promise<JsonObject>;

export interface InputRoundsSpec {
  label: string;
  maxRounds: number;
  answer: InputAnswer;
  processContext: () => ProcessContext | undefined;
  signal?: AbortSignal;
  /** How long the handlers may take to answer one round (the call's timeout). */
  answerTimeoutMs?: number;
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
    // Aborted while the answers were being made: the retry (which would run the tool) is not sent.
    if (spec.signal?.aborted) throw abortedBetweenRounds(spec);
    const retry: JsonObject = { ...params, inputResponses };
    // The state goes back exactly as it came, and only when it came (spec, MRTR client rules).
    if (result.requestState !== undefined) retry.requestState = result.requestState;
    result = await send(retry);
  }
  return result;
}

function abortedBetweenRounds(spec: InputRoundsSpec): McpDriverError {
  return new McpDriverError(`${spec.label} was aborted (${errorText(spec.signal?.reason)}) while its input was being answered; the retry was not sent, so the server did not go on with it.`, {
    cause: spec.signal?.reason,
    process: spec.processContext(),
  });
}

function answersTooSlow(spec: InputRoundsSpec, methods: string): RequestTimeoutError {
  const ms = spec.answerTimeoutMs!;
  return new RequestTimeoutError(
    `${spec.label}: the answer to the server's input request (${methods}) took longer than ${ms} ms, the call's timeout; the retry was not sent. ` +
      `Make the handler (onElicitation, onSampling) answer sooner, or pass { timeoutMs } to this call.`,
    { timeoutMs: ms, cancelled: false, process: spec.processContext() },
  );
}

/** Rejects as soon as `signal` aborts or the round's time is up, so a handler still deciding (or never answering) does not hold the call. */
function untilAborted<T>(work: Promise<T>, spec: InputRoundsSpec, methods: string): Promise<T> {
  const signal = spec.signal;
  if (signal?.aborted) return Promise.reject(abortedBetweenRounds(spec));
  // Infinity is a request with no deadline of its own (subscriptions/listen); a user's timeout is checked to fit a timer.
  const timeoutMs = spec.answerTimeoutMs !== undefined && Number.isFinite(spec.answerTimeoutMs) ? spec.answerTimeoutMs : undefined;
  if (signal === undefined && timeoutMs === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => finish(() => reject(answersTooSlow(spec, methods))), timeoutMs);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      stopListening();
      settle();
    };
    // The signal was not aborted above, so this does not run (and call finish) before it is assigned.
    const stopListening = onAbort(signal, () => finish(() => reject(abortedBetweenRounds(spec))));
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

async function answerAll(result: JsonObject, spec: InputRoundsSpec): Promise<JsonObject> {
  const requests = isObject(result.inputRequests) ? result.inputRequests : {};
  const methods = [...new Set(Object.values(requests).map((request) => (isObject(request) && typeof request.method === "string" ? request.method : "?")))].join(", ");
  // The handlers' signal: aborted with the call, and when the round fails (its time is up, or
  // another answer failed), so a handler still waiting stops too.
  const round = new AbortController();
  const stopListening = onAbort(spec.signal, (reason) => round.abort(reason));
  try {
    return await untilAborted(answerEach(requests, spec, round.signal), spec, methods);
  } catch (error) {
    round.abort(error);
    throw error;
  } finally {
    stopListening();
  }
}

async function answerEach(requests: JsonObject, spec: InputRoundsSpec, signal: AbortSignal): Promise<JsonObject> {
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
