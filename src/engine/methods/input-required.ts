/**
 * Raw MRTR for prompts and resources (2026-07-28): their functions see the request (the client's
 * capabilities, a retry's `inputResponses` and `requestState`) and may answer `{ inputRequired }`,
 * which becomes an `input_required` result; outside 2026-07-28 that is an error naming the revision.
 * (Their asks, `request.elicit()` and the rest, are content-asks.ts.)
 */
import { ErrorCode } from "../../protocol/errors.js";
import { revisionsWith, versionHas } from "../../protocol/versions.js";
import type { InputRequiredAnswer } from "../catalog.js";
import { RpcError, type Outcome } from "../outcome.js";
import { ok, type HandlerInput } from "./handler-input.js";

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
    throw new RpcError(ErrorCode.InternalError, `${what} asked for input (inputRequired), which only protocol version ${revisionsWith("mrtr")} can carry; this request speaks ${input.context.protocolVersion}`);
  }
  return ok(input, { resultType: "input_required", ...asked });
}
