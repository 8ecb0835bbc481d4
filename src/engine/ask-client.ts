/**
 * A server request to a legacy-era client on behalf of a step function or a content function:
 * given up when any of its signals aborts (each with the reason the client is told), and a
 * refusal of a capability the client never declared says that this is most likely why.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { CLIENT_CAPABILITY_OF_REQUEST } from "../protocol/methods.js";
import { ServerRequestError, type Connection, type GiveUp } from "./connection.js";
import { onAbort } from "../util/on-abort.js";

type Json = Record<string, unknown>;

export interface AskClientOptions {
  /** The request the ask belongs to (its stream carries the ask over HTTP). */
  relatedRequestId: JsonRpcId;
  /** Each signal that gives the ask up, with its reason (undefined: the call ended). */
  giveUps: ReadonlyArray<readonly [AbortSignal | undefined, GiveUp | undefined]>;
  /** Holds the ask's own controller while it waits, so its owner can give everything up at once. */
  asking: Set<AbortController>;
  /** The capabilities the client declared. */
  declared(): Json;
}

export async function askClient(connection: Connection, method: string, params: Json | undefined, options: AskClientOptions): Promise<Json> {
  // Whether the client can hear the request at all (through handle() it cannot: no hint then).
  const reachable = connection.reachable;
  const asking = new AbortController();
  const listeners: Array<() => void> = [];
  for (const [signal, reason] of options.giveUps) {
    listeners.push(onAbort(signal, () => asking.abort(reason)));
    if (asking.signal.aborted) break;
  }
  options.asking.add(asking);
  try {
    return await connection.request(method, params, { relatedRequestId: options.relatedRequestId, signal: asking.signal });
  } catch (error) {
    // The mock sends what is asked (a test may want a client's answer to an undeclared request),
    // but a client's refusal then is most likely why: the message says so.
    const capability = CLIENT_CAPABILITY_OF_REQUEST[method];
    if (!(error instanceof ServerRequestError) || error.unanswered || !reachable || capability === undefined || options.declared()[capability] !== undefined) throw error;
    throw new ServerRequestError(
      error.error,
      method,
      `. The client did not declare the "${capability}" capability at initialize, and a server may only use what was negotiated (MCP lifecycle): declare it in the client, or do not ask for ${method}`,
    );
  } finally {
    for (const stopListening of listeners) stopListening();
    options.asking.delete(asking);
  }
}
