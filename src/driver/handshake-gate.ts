/**
 * What every request but `request()`'s waits for: a session that has not broken the protocol, and
 * the handshake's answer. Once the handshake is done (every call but the first), a request goes
 * out without waiting a tick.
 */
import type { Negotiation } from "./negotiation.js";
import type { JsonObject, RequestSpec } from "./request-types.js";
import type { RpcChannel } from "./rpc-channel.js";

export class HandshakeGate {
  constructor(
    private readonly channel: RpcChannel,
    private readonly negotiation: Negotiation,
  ) {}

  /** Runs `send` once the handshake is done; throws at once if the session is broken. */
  after(label: string, send: () => Promise<JsonObject>): Promise<JsonObject> {
    this.channel.throwIfBroken(label);
    const ready = this.negotiation.ready();
    return ready instanceof Promise ? ready.then(send) : send();
  }

  /** One plain request once the handshake is done (a list's page, a subscription): no era of its own to go through. */
  readonly request = (method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> => this.after(spec.label ?? method, () => this.channel.request(method, params, spec));
}
