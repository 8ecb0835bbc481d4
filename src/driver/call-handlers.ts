/**
 * Legacy-era calls in flight with their own `onServerRequest`. A legacy server request does not
 * say which call it serves, so it belongs to a call only when that call is the one request in
 * flight that could have caused it (a tools/call, resources/read or prompts/get).
 */
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { isInputMethod } from "../protocol/methods.js";
import { RpcError } from "../protocol/rpc-error.js";
import type { CallServerRequestHandler, JsonObject, RequestSpec } from "./request-types.js";
import type { RpcChannel } from "./rpc-channel.js";

/** A request in flight with its own `onServerRequest`, and its id once it was written. */
export interface CallHandlerEntry {
  readonly label: string;
  readonly handler: CallServerRequestHandler;
  id: JsonRpcId | undefined;
}

export class CallHandlers {
  private readonly entries = new Set<CallHandlerEntry>();

  constructor(private readonly channel: RpcChannel) {}

  /** Sends a request; one with its own `onServerRequest` is in flight as the call the server's requests may belong to. */
  during(spec: RequestSpec, send: (spec: RequestSpec) => Promise<JsonObject>): Promise<JsonObject> {
    const handler = spec.onServerRequest;
    if (handler === undefined) return send(spec);
    const entry: CallHandlerEntry = { label: spec.label ?? "a request", handler, id: undefined };
    this.entries.add(entry);
    const sent = send({ ...spec, onId: (id) => ((entry.id = id), spec.onId?.(id)) });
    const forget = () => this.entries.delete(entry);
    void sent.then(forget, forget);
    return sent;
  }

  /**
   * The call a legacy server request belongs to, when it has its own `onServerRequest`. With
   * others in flight beside a call that has a handler, nothing on the wire says which one the
   * request serves: refused, so no call gets an answer meant for another. None with a handler:
   * undefined (the driver's own handlers answer).
   */
  owner(method: string): CallHandlerEntry | undefined {
    if (this.entries.size === 0) return undefined;
    const inFlight = this.channel.pendingWhere(isInputMethod);
    const [only] = this.entries;
    if (this.entries.size === 1 && inFlight.length === 1 && inFlight[0]!.id === only!.id) return only;
    const labels = inFlight.map((request) => request.label).join(", ");
    throw new RpcError(
      ErrorCode.InternalError,
      `mcp-testkit: the server sent ${method} while ${inFlight.length} requests were in flight (${labels}), ${this.entries.size} of them with their own onServerRequest; a server request in this protocol version does not say which call it belongs to, so the driver answered none of them. Make a call that has its own onServerRequest alone.`,
    );
  }
}
