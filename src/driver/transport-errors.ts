/**
 * Which transport errors mean "the server broke the protocol". Only the transport knows what its
 * errors mean, so each kind of connection brings its own classifier: the stdio transport knows
 * its non-JSON lines (stdio-process.ts), and this one knows the SDK transports' errors. A
 * classifier returns a maker rather than the error: a server that writes garbage in a loop
 * raises thousands of these, and the session builds only the few it keeps.
 */
import { ProtocolError } from "./errors.js";

export type ErrorClassifier = (error: Error) => (() => ProtocolError) | undefined;

/**
 * The SDK's transports (Streamable HTTP, and most attached ones) refuse a message that is not
 * JSON-RPC with a raw schema error. Other errors (an SSE stream reconnecting, a failed POST) are
 * in the recorder and reach the request concerned through its failed send.
 */
export const sdkTransportErrors: ErrorClassifier = (error) => {
  if (error.name !== "ZodError") return undefined;
  return () => new ProtocolError(`The server sent a message that is not valid JSON-RPC (the transport refused it).`, { cause: error });
};

/**
 * What a transport error says when nothing listens at the server's address any more: the
 * refused connection (`ECONNREFUSED`, e.g. "connect ECONNREFUSED 127.0.0.1:3000"), found in the
 * error's causes (fetch's `TypeError: fetch failed` carries it as its cause; with several
 * addresses tried, an `AggregateError` of them); undefined for any other error. The one sure
 * sign that an HTTP server is gone: a connection closed mid-answer may be a `disconnect` step of
 * a server that runs on, and a 404 only ends the session.
 */
export function connectionRefusal(error: unknown): string | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 6 && typeof cause === "object" && cause !== null; depth++) {
    const several = (cause as { errors?: unknown }).errors;
    if (Array.isArray(several) && several.length > 0 && several.every(isRefused)) return several.map((one: Error) => one.message).join("; ");
    if (isRefused(cause)) return (cause as Error).message || "ECONNREFUSED";
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

function isRefused(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ECONNREFUSED";
}
