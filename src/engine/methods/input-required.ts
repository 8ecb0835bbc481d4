/**
 * Raw MRTR for prompts and resources (2026-07-28): their functions see the request (the client's
 * capabilities, a retry's `inputResponses` and `requestState`) and may answer `{ inputRequired }`,
 * which becomes an `input_required` result; outside 2026-07-28 that is an error naming the revision.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { versionHas } from "../../protocol/versions.js";
import type { ContentRequest, InputRequiredAnswer } from "../catalog.js";
import { RpcError, type Outcome } from "../outcome.js";
import { ok, type HandlerInput } from "./handler-input.js";

export function contentRequest(input: HandlerInput): ContentRequest {
  const { params, context } = input;
  const responses = params.inputResponses;
  const request: { -readonly [K in keyof ContentRequest]: ContentRequest[K] } = {
    protocolVersion: context.protocolVersion,
    clientCapabilities: context.client?.capabilities ?? input.connection.negotiated.clientCapabilities,
  };
  if (typeof responses === "object" && responses !== null && !Array.isArray(responses)) request.inputResponses = responses as Record<string, unknown>;
  if (typeof params.requestState === "string") request.requestState = params.requestState;
  return request;
}

/** Whether a function's answer asks for input (an object whose only key is `inputRequired`). */
export function asksForInput(value: unknown): value is InputRequiredAnswer {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "inputRequired" in value;
}

/** The `input_required` result, or why it cannot be sent (`what` names the prompt or resource). */
export function inputRequiredOutcome(input: HandlerInput, what: string, answer: InputRequiredAnswer): Outcome {
  const asked = answer.inputRequired;
  if (typeof asked !== "object" || asked === null || (asked.inputRequests === undefined && asked.requestState === undefined)) {
    throw new RpcError(ErrorCode.InternalError, `${what}: { inputRequired } needs inputRequests, requestState or both`);
  }
  if (!versionHas(input.context.protocolVersion, "mrtr")) {
    throw new RpcError(ErrorCode.InternalError, `${what} asked for input (inputRequired), which only protocol version 2026-07-28 can carry; this request speaks ${input.context.protocolVersion}`);
  }
  return ok(input, { resultType: "input_required", ...asked });
}
