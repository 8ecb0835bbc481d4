/** What `mockMcp()` takes: the engine's options, the HTTP wire's, and the mock's own. */
import type { EngineOptions } from "../engine/engine.js";
import type { McpObserver } from "../observe/observer.js";
import type { ObserveOptions } from "../observe/delivery.js";
import type { OriginGuardOptions } from "../wire/http/origin-guard.js";
import type { StreamableHttpOptions } from "../wire/http/streamable-http.js";
import type { StdioWireOptions } from "../wire/stdio.js";
import type { FakesBindingOptions, FixturesOption } from "./fakes-binding.js";
import type { MockAuthOptions } from "../auth/options.js";
import type { TraceOption } from "../trace/trace-log.js";

export type MockTransportKind = "http" | "memory" | "stdio";

export interface MockMcpOptions extends EngineOptions, StreamableHttpOptions, OriginGuardOptions {
  /**
   * Where the mock is served: `"http"` (default) listens on a Streamable HTTP URL (`server.url`);
   * `"stdio"` on this process's stdin/stdout; `"memory"` only through `connectInMemory()`,
   * `handle()`, `handler` and `fetch`.
   */
  transport?: MockTransportKind;
  /** HTTP: the port to listen on (default: a free one). */
  port?: number;
  /** HTTP: the host to listen on (default 127.0.0.1; one that is not loopback, such as "0.0.0.0", is reached by other names, so no Host check by default). */
  host?: string;
  /** HTTP: the path of the MCP endpoint (default "/mcp"). */
  path?: string;
  /** Another way to say `transport: "memory"`: `http: false`, as mcp-stub's options say it, so code written for mcp-stub runs unchanged. */
  http?: false;
  /**
   * Scenario fakes (the `mcpFakes` fixture format): a fixtures directory or file (relative to
   * the working directory), several, or `mcpFakes` blocks inline. Fakes answer `tools/call`
   * before the tools' own scripts.
   */
  fixtures?: FixturesOption;
  /** How the fakes keep state, and whether and where their `MCP-FAKE:` lines go (default: only shadowed-entry warnings, to the mock's `logger`). */
  fakesOptions?: FakesBindingOptions;
  /** Observers from the start (they hear `serverWillStart` too); more with `server.observe()`. */
  observers?: readonly McpObserver[];
  /** Delivery of `observers`: queue size and where diagnostics go. */
  observe?: ObserveOptions;
  /**
   * Collect metrics (default false): `server.metrics()`, `server.metricsText()`, and
   * Prometheus / OpenMetrics text at `/__mcp-testkit/metrics` on the mock's port.
   */
  metrics?: boolean;
  /**
   * Protect the MCP endpoint with OAuth: it wants a bearer token (401 with a
   * `WWW-Authenticate` challenge without one, 403 `insufficient_scope` for too few scopes),
   * serves protected resource metadata, and brings an authorization server of its own that
   * consents by itself. `{}` (or `true`) for the defaults; `server.auth` reads the record of the
   * sign-in, adds faults and asserts. HTTP only. Guide: docs/authorization.md.
   */
  auth?: MockAuthOptions | true;
  /**
   * Keep a trace of every message in and out (default off, and then it costs nothing): `true`
   * keeps the newest 10,000 entries in memory (`server.trace`, `GET /__mcp-testkit/trace`); a
   * file name also writes them there as JSON Lines as they pass; `{ file, limit }` sets the cap.
   */
  trace?: TraceOption;
}

/** `mockMcp()` options for `transport: "stdio"`, with the stdio wire's own under `stdio`. */
export interface StdioMockOptions extends MockMcpOptions {
  stdio?: StdioWireOptions;
}

export interface RecordStats {
  /** Calls dropped from the front of the record because of `recordLimit`. */
  droppedCalls: number;
  droppedMessages: number;
}
