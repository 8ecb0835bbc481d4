/**
 * The driver's side of MCP trace context: the active OpenTelemetry span context (and baggage),
 * written by the global propagator into every request's `_meta` (`traceparent`, `tracestate`,
 * `baggage`), so a server's span is the child of the caller's. `@opentelemetry/api` is an
 * optional peer loaded once with a dynamic import; without it (or with `traceContext: false`)
 * nothing is added.
 */
import { injectTraceContext, loadApi, type OtelApi } from "../observe/otel.js";
import type { JsonObject } from "./rpc-channel.js";

export class TraceMeta {
  private api: OtelApi | undefined;
  /** Resolves once the API is loaded (or known to be missing); requests wait for it. */
  readonly loaded: Promise<void>;

  constructor() {
    this.loaded = loadApi().then((api) => {
      this.api = api;
    });
  }

  /** The fields for this request's `_meta`, or undefined when there is no span context or baggage. */
  current(): JsonObject | undefined {
    const api = this.api;
    if (api === undefined) return undefined;
    const carrier = injectTraceContext(api, api.context.active());
    return carrier.traceparent === undefined && carrier.baggage === undefined ? undefined : carrier;
  }
}
