/**
 * The driver's observers: the same `McpObserver` objects the mock takes, hearing the driver's
 * requests from the client's side (a real server cannot be seen into). Each request written
 * starts an observation; its response, or how the driver stopped waiting (timeout, abort, the
 * connection closing, a broken stream), finishes it once, classified by observe/outcomes.ts
 * through the `ClientView` the simulator uses too. The lifecycle is the connection's: created =
 * will start, transport up = did start, `close()` = will stop / did stop.
 */
import { ClientView } from "../observe/client-view.js";
import { ObserverDelivery, type ObserveOptions } from "../observe/delivery.js";
import type { McpObserver, ObservedServer } from "../observe/observer.js";
import type { McpRequestOutcome } from "../observe/outcomes.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { JsonObject, RequestWatcher } from "./session.js";

/** What the observation needs to know of the driver when a request goes out. */
export interface DriverFacts {
  /** `stdio`, `http` or `attached`. */
  readonly wire: string;
  /** The command or URL. */
  readonly target: string;
  sessionId(): string | undefined;
  protocolVersion(): string | undefined;
}

export class DriverObservation implements RequestWatcher {
  private readonly delivery: ObserverDelivery;
  private readonly view: ClientView;
  private readonly server: ObservedServer;
  private readonly endpoint: string;
  private stopped = false;

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
    if (failure === undefined) this.delivery.lifecycle("serverDidStart", this.server);
    else this.delivery.lifecycle("serverDidFailToStart", this.server, failure.error);
  }

  willStop(): void {
    this.delivery.lifecycle("serverWillStop", this.server);
  }

  /** `close()` is done: `error` is what it found wrong (a bad exit, a kill), if anything. */
  didStop(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.delivery.lifecycle("serverDidStop", this.server, error === undefined ? { outcome: "completed" } : { outcome: "failed", error });
  }
}
