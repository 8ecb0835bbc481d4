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
