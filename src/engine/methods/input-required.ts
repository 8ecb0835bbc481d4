/**
 * Raw MRTR for prompts and resources (2026-07-28): their functions see the request (the client's
 * capabilities, a retry's `inputResponses` and `requestState`) and may answer `{ inputRequired }`,
 * which becomes an `input_required` result; outside 2026-07-28 that is an error naming the revision.
 * (Their asks, `request.elicit()` and the rest, are the interaction runtime's.)
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import { versionHas } from "../../protocol/versions.js";
import type { InputRequiredAnswer } from "../catalog.js";
import { inputRequiredNeedsMrtr } from "../interaction/era-refusals.js";
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import type { RequestContext } from "../request-context.js";

/** Whether a function's answer asks for input (an object whose only key is `inputRequired`). */
export function asksForInput(value: unknown): value is InputRequiredAnswer {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "inputRequired" in value;
}

/** The `input_required` result for the request `answering`, or why it cannot be sent (`what` names the prompt or resource). */
export function inputRequiredOutcome(answering: { readonly requestId: JsonRpcId; readonly context: RequestContext }, what: string, answer: InputRequiredAnswer): Outcome {
  const asked = answer.inputRequired;
  if (typeof asked !== "object" || asked === null || (asked.inputRequests === undefined && asked.requestState === undefined)) {
    throw new RpcError(ErrorCode.InternalError, `${what}: { inputRequired } needs inputRequests, requestState or both`);
  }
  const version = answering.context.protocolVersion;
  if (!versionHas(version, "mrtr")) {
    const refused = inputRequiredNeedsMrtr(`${what} asked for input (inputRequired)`, version);
    throw new RpcError(refused.code, refused.message);
  }
  return replyWith(answering.requestId, { resultType: "input_required", ...asked });
}
