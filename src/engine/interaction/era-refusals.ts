/**
 * What a handler's interaction refuses because of the request's revision, worded once for every
 * method: an ask that cannot travel as an input request, a round the client cannot answer
 * (-32021), and an `input_required` answer to a request whose revision has no MRTR.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { versionsWith } from "../../protocol/versions.js";
import { capabilityNames } from "../mrtr/input-round.js";

/** The revisions that carry input requests, as words ("2026-07-28"). */
function mrtrRevisions(): string {
  return versionsWith("mrtr").join(", ");
}

/** A request a 2026-07-28 handler cannot send: only elicitation, sampling and roots travel as input requests. */
export function notAnInputRequest(method: string, version: string): JsonRpcErrorObject {
  return {
    code: ErrorCode.MethodNotFound,
    message: `${method} cannot be sent to a client in protocol version ${version}: servers send no requests there, and only elicitation/create, sampling/createMessage and roots/list travel as input requests (MRTR)`,
  };
}

/** -32021: `subject` (`tool "x"`, `prompts/get "greet"`) asks for what the request's `clientCapabilities` do not declare. */
export function missingCapability(subject: string, missing: Record<string, unknown>): JsonRpcErrorObject {
  return {
    code: ErrorCode.MissingRequiredClientCapability,
    message: `Missing required client capability: ${subject} asks the client for ${capabilityNames(missing).join(", ")}, which its clientCapabilities in _meta do not declare`,
    data: { requiredCapabilities: missing },
  };
}

/** `what` ("Prompt greet asked for input (inputRequired)") cannot be carried by `version`; `advice` says what to do instead. */
export function inputRequiredNeedsMrtr(what: string, version: string, advice = ""): JsonRpcErrorObject {
  return { code: ErrorCode.InternalError, message: `${what}, which only protocol version ${mrtrRevisions()} can carry; this request speaks ${version}${advice}` };
}
