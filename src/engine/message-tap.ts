/**
 * The facts every `message` event carries besides the message: session, wire, who asked, the
 * revision, and over HTTP the request's method, path and headers with credentials redacted.
 * Built only while someone listens (the callers check `events.has("message")` first).
 */
import { redactedHeaders, type HttpFacts } from "../protocol/http-facts.js";
import type { Connection } from "./connection.js";
import type { MessageEvent } from "./events.js";
import type { RequestContext, TransportFacts } from "./request-context.js";

type TapFacts = Pick<MessageEvent, "sessionId" | "wire" | "identity" | "protocolVersion" | "testId" | "http">;

/** The facts of a message that came with (or answers) a request seen in `context`; `http` when the caller has its own (an answer's response). */
export function tapFacts(connection: Connection, context: RequestContext, http = httpFactsOf(context.transport)): TapFacts {
  return {
    sessionId: connection.id,
    wire: context.transport.wire,
    identity: context.identity,
    protocolVersion: context.protocolVersion,
    ...(context.identity.testId !== undefined && { testId: context.identity.testId }),
    ...(http !== undefined && { http }),
  };
}

/** The request's HTTP facts, when the wire is HTTP and has them. */
export function httpFactsOf(transport: TransportFacts): HttpFacts | undefined {
  if (transport.distinctHeaders === undefined) return undefined;
  return {
    ...(transport.method !== undefined && { method: transport.method }),
    ...(transport.path !== undefined && { path: transport.path }),
    headers: redactedHeaders(transport.distinctHeaders),
  };
}
