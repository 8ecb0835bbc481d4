/**
 * Trace entries from the two message taps: a mock's `message` event and a driver's
 * `driver.traffic.on("message")` event. Both name directions from their own side; an entry
 * names the sender, so traces of either side read alike.
 */
import type { DriverMessageEvent } from "../driver/message-tap.js";
import type { MessageEvent } from "../engine/events.js";
import { isObject, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { TraceEntry } from "./entry.js";

/** The entry for a message a mock received (`in`) or sent (`out`). */
export function entryFromMockMessage(event: MessageEvent, seq: number): TraceEntry {
  const from = event.direction === "in" ? "client" : "server";
  const callId = event.relatedRequestId ?? (from === "client" ? ownRequestId(event.message) : undefined);
  return {
    seq,
    at: event.at,
    from,
    ...(event.message !== undefined && { message: event.message }),
    ...(event.raw !== undefined && { raw: event.raw }),
    wire: event.wire,
    sessionId: event.sessionId,
    ...(event.testId !== undefined && { testId: event.testId }),
    ...(event.identity?.context !== undefined && { context: event.identity.context }),
    protocolVersion: event.protocolVersion,
    ...(callId !== undefined && { callId }),
    ...(event.http !== undefined && { http: event.http }),
  };
}

/** The entry for a message a driver sent (`out`) or received (`in`). */
export function entryFromDriverMessage(event: DriverMessageEvent, seq: number): TraceEntry {
  const from = event.direction === "out" ? "client" : "server";
  const callId = from === "client" ? ownRequestId(event.message) : answeredId(event.message);
  return {
    seq,
    at: event.at,
    from,
    message: event.message,
    wire: event.wire,
    ...(event.sessionId !== undefined && { sessionId: event.sessionId }),
    ...(event.testId !== undefined && { testId: event.testId }),
    ...(event.protocolVersion !== undefined && { protocolVersion: event.protocolVersion }),
    ...(callId !== undefined && { callId }),
    ...(event.http !== undefined && { http: event.http }),
    ...(event.problems !== undefined && { problems: event.problems.map(({ path, message }) => ({ path, message })) }),
  };
}

/** A client request's own id (a request has a method and an id). */
function ownRequestId(message: JsonRpcMessage | undefined): JsonRpcId | undefined {
  if (!isObject(message) || typeof message.method !== "string") return undefined;
  return idOf(message);
}

/** The id a response answers (a response has no method). */
function answeredId(message: JsonRpcMessage): JsonRpcId | undefined {
  if (!isObject(message) || typeof message.method === "string") return undefined;
  return idOf(message);
}

function idOf(message: Record<string, unknown>): JsonRpcId | undefined {
  const id = message.id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
