/**
 * The driver's observers: the same `McpObserver` objects the mock takes, hearing the driver's
 * requests from the client's side (a real server cannot be seen into). Each request written
 * starts an observation; its response, or how the driver stopped waiting (timeout, abort, the
 * connection closing, a broken stream), finishes it once, classified by observe/outcomes.ts
 * through the `ClientView` the simulator uses too. The lifecycle is the connection's: created =
 * will start, transport up = did start, `close()` = will stop / did stop, and a server that goes
 * away on its own (exits, closes its connection, refuses connections) = did stop, then and once.
 */
import { ClientView } from "../observe/client-view.js";
import { ObserverDelivery, type ObserveOptions } from "../observe/delivery.js";
import type { McpObserver, ObservedServer, ServerStopResult } from "../observe/observer.js";
import type { McpRequestOutcome } from "../observe/outcomes.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { RequestInterceptor } from "./interceptors.js";
import type { JsonObject } from "./request-types.js";
import type { ServerEnd } from "./lifetime.js";

/** What the observation needs to know of the driver when a request goes out. */
export interface DriverFacts {
  /** `stdio`, `http` or `attached`. */
  readonly wire: string;
  /** The command or URL. */
  readonly target: string;
  sessionId(): string | undefined;
  protocolVersion(): string | undefined;
}

export class DriverObservation implements RequestInterceptor {
  private readonly delivery: ObserverDelivery;
  private readonly view: ClientView;
  private readonly server: ObservedServer;
  private readonly endpoint: string;
  private stopped = false;
  private startTold = false;
  private heldStop?: ServerStopResult;

  constructor(
    observers: readonly McpObserver[],
    options: ObserveOptions | undefined,
    private readonly facts: DriverFacts,
  ) {
    this.delivery = new ObserverDelivery(observers, options);
    this.view = new ClientView(this.delivery);
    const url = facts.wire === "http" ? new URL(facts.target) : undefined;
    this.endpoint = url?.pathname ?? facts.wire;
    this.server = Object.freeze({ transport: facts.wire, ...(url === undefined ? {} : { url: url.href }) });
  }

  sent(id: JsonRpcId, method: string, params: JsonObject | undefined): void {
    // Before the handshake's answer the version is the one asked for (initialize's own params).
    const asked = typeof params?.protocolVersion === "string" ? params.protocolVersion : undefined;
    this.view.started(id, method, params, {
      wire: this.facts.wire,
      endpoint: this.endpoint,
      sessionId: this.facts.sessionId() ?? "",
      protocolVersion: this.facts.protocolVersion() ?? asked ?? "unknown",
    });
  }

  ended(id: JsonRpcId, end: JsonObject | McpRequestOutcome, cause?: unknown): void {
    const errors = cause === undefined ? [] : [cause];
    if (typeof end === "string") this.view.unanswered(id, end, errors);
    else this.view.incoming(end, errors);
  }

  willStart(): void {
    this.delivery.lifecycle("serverWillStart", this.server);
  }

  /** The transport started (`failure` undefined) or could not. */
  started(failure: { error: unknown } | undefined): void {
    this.startTold = true;
    if (failure === undefined) this.delivery.lifecycle("serverDidStart", this.server);
    else this.delivery.lifecycle("serverDidFailToStart", this.server, failure.error);
    const held = this.heldStop;
    this.heldStop = undefined;
    // A server that never started did not stop either.
    if (held !== undefined && failure === undefined) this.delivery.lifecycle("serverDidStop", this.server, held);
  }

  willStop(): void {
    this.delivery.lifecycle("serverWillStop", this.server);
  }

  /** The server ended: `close()` is done, or it went away on its own; told once. */
  didStop(end: ServerEnd): void {
    if (this.stopped) return;
    this.stopped = true;
    const exit = end.exit === undefined ? {} : { exitCode: end.exit.code, exitSignal: end.exit.signal };
    const outcome = end.error === undefined ? { outcome: "completed" as const } : { outcome: "failed" as const, error: end.error };
    const result: ServerStopResult = Object.freeze({ ...outcome, initiator: end.initiator, ...exit });
    // A process can end before its transport's start is reported (a spawn that failed): the stop waits for it.
    if (this.startTold) this.delivery.lifecycle("serverDidStop", this.server, result);
    else this.heldStop = result;
  }
}
