/**
 * `simulate(target)`: drive synthetic HTTP requests through a server's real Streamable HTTP
 * handling with no socket. The target is a mock (its `fetch`: the same endpoint, engine,
 * observers and metrics as on a port) or any web-standard `fetch` handler, such as an MCP server
 * built with the official SDK (`WebStandardStreamableHTTPServerTransport.handleRequest`, or SDK
 * v2's `createMcpHandler(...).fetch`). Every message both ways goes to a traffic recorder that
 * validates it; observers hear each request.
 */
import { McpTestkitError } from "../errors.js";
import { declaredVersion } from "../protocol/request-meta.js";
import { isKnownVersion, versionHas } from "../protocol/versions.js";
import { TrafficRecorder } from "../inspect/recorder.js";
import { MockMcpServer } from "../mock/mock-mcp.js";
import { ObserverDelivery, type ObserveOptions } from "../observe/delivery.js";
import type { McpObserver } from "../observe/observer.js";
import { CaptureExchange } from "./capture-exchange.js";
import { ClientView } from "../observe/client-view.js";
import type { McpRequestOutcome } from "../observe/outcomes.js";
import { checkedOptions, type SimulationOptions } from "./options.js";
import { Simulation, type SimulationTerminationReason } from "./simulation.js";
import { readRequest, readRequestInit, type SimulatedRequest, type SimulationRequestInit } from "./request-input.js";
import { takeHeldBody } from "./held-body.js";

/** What a request that got no answer ended as, by why capture ended. */
const UNANSWERED: Record<SimulationTerminationReason, McpRequestOutcome> = {
  completed: "client_disconnected",
  client_disconnected: "client_disconnected",
  capture_item_limit: "client_disconnected",
  capture_byte_limit: "client_disconnected",
  internal_error: "internal_error",
};

/** A web-standard handler: a `Request` in, a `Response` out. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** What `simulate()` can drive: a mock, a fetch handler, or an object with a `fetch` method. */
export type SimulationTarget = MockMcpServer | FetchHandler | { fetch: FetchHandler };

export interface SimulateOptions {
  /**
   * Observers of the simulated requests. With a mock they are attached to the mock (its own,
   * server-side view); with any other target they hear each request from the client's side.
   */
  observers?: readonly McpObserver[];
  /** Delivery of `observers` (queue size, diagnostics). */
  observe?: ObserveOptions;
  /** The recorder every message goes to (default: a new one, strict: problems are kept, not thrown). */
  recorder?: TrafficRecorder;
}

export class Simulator {
  /** Every message sent and received, validated against the request's protocol version. */
  readonly recorder: TrafficRecorder;
  /** A fetch handler target (for a mock, its endpoint is driven directly, see `mock`). */
  private readonly handler?: FetchHandler;
  private readonly mock?: MockMcpServer;
  private readonly view?: ClientView;
  private readonly detach?: () => void;
  private readonly running = new Set<Simulation>();

  /** @internal use `simulate()` */
  constructor(target: SimulationTarget, options: SimulateOptions = {}) {
    this.recorder = options.recorder ?? new TrafficRecorder({ side: "client", strict: true });
    const observers = options.observers ?? [];
    if (target instanceof MockMcpServer) {
      this.mock = target;
      if (observers.length > 0) this.detach = target.observe(observers, options.observe);
    } else if (typeof target === "function") {
      this.handler = target;
    } else if (typeof target === "object" && target !== null && typeof (target as { fetch?: unknown }).fetch === "function") {
      const host = target as { fetch: FetchHandler };
      this.handler = (request) => host.fetch(request);
    } else {
      throw new McpTestkitError(
        `simulate(target): the target must be a mock from mockMcp(), a fetch handler (request) => response, or an object with a fetch method (SDK v2's createMcpHandler(...)); got ${target === null ? "null" : typeof target}.`,
      );
    }
    if (!(target instanceof MockMcpServer) && observers.length > 0) this.view = new ClientView(new ObserverDelivery(observers, options.observe));
  }

  /**
   * Sends `request` to the target (asynchronously) and returns its simulation at once. Build
   * the request as a client would: headers (`Accept`, `Content-Type`, `MCP-Protocol-Version`,
   * `Mcp-Session-Id`, ...) and body; nothing is added or repaired. A web-standard `Request`, or
   * its plain parts `{ method, url, headers, body }` (checked as `new Request` would check them),
   * which spares building a `Request` per call — undici's costs more than a mock's whole handling.
   */
  async startRequest(request: Request | SimulationRequestInit, options?: SimulationOptions): Promise<Simulation> {
    const limits = checkedOptions(options);
    // A body still held as given is taken without its stream; any other is awaited here, not in a helper (one promise hop fewer per call).
    const input = !isWebRequest(request)
      ? readRequestInit(request)
      : readRequest(request, request.method === "GET" || request.method === "HEAD" ? undefined : (takeHeldBody(request) ?? new Uint8Array(await request.arrayBuffer())));
    const text = input.text;
    const messages = text === undefined ? [] : jsonMessages(text);
    this.record(input, messages, text);
    const single = messages.length === 1 && messages[0]!.method !== undefined ? messages[0]!.id : undefined;
    const view = this.view;
    const simulation: Simulation = new Simulation(limits, single, {
      incoming: (message, text, headers) => {
        this.recorder.recordMessage("incoming", message, text, headers);
        view?.incoming(message);
      },
      ended: (completion) => {
        this.running.delete(simulation);
        view?.endAll(UNANSWERED[completion.reason], completion.errors);
      },
    });
    this.running.add(simulation);
    view?.sent(messages, { wire: "simulated", endpoint: input.path, sessionId: input.header("mcp-session-id") ?? "", protocolVersion: requestVersion(input, messages) ?? "unknown" });
    if (this.mock !== undefined) {
      // A mock's endpoint writes straight into the simulation: the same handling as its fetch, without a Response.
      try {
        this.mock.serveExchange(new CaptureExchange(input, simulation.sink, (listener) => simulation.onDisconnect(listener)));
      } catch (error) {
        void simulation.run(Promise.reject(error));
      }
      return simulation;
    }
    const body = input.bytes();
    const forwarded = new Request(input.url, { method: input.method, headers: input.headerPairs as Array<[string, string]>, ...(body !== undefined && { body }), signal: simulation.signal });
    let answer: Promise<Response>;
    try {
      answer = Promise.resolve(this.handler!(forwarded));
    } catch (error) {
      answer = Promise.reject(error);
    }
    void simulation.run(answer);
    return simulation;
  }

  /** Closes every simulation still capturing and detaches the observers. */
  close(): void {
    for (const simulation of [...this.running]) simulation.close();
    this.detach?.();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private record(request: SimulatedRequest, messages: readonly Record<string, unknown>[], text: string | undefined): void {
    const version = requestVersion(request, messages);
    if (version !== undefined) this.recorder.setProtocolVersion(version);
    // One message: its text is the body (the recorder copies it cheaply from the text).
    // A batch is one POST: its headers are checked with its first message (the rules count a POST once).
    messages.forEach((message, index) => this.recorder.recordMessage("outgoing", message, messages.length === 1 ? text : undefined, index === 0 ? request.distinctHeaders : undefined));
  }
}

/**
 * The version a request is sent in: the one its `_meta` names (2026-07-28, whatever its header
 * says), else its `MCP-Protocol-Version` header, else the one an `initialize` asks for (it has no
 * header yet) when that is a revision with `initialize`: a proposal of another (2026-07-28, or
 * one not known) says nothing of the version its request is in. Undefined when none says.
 */
function requestVersion(request: SimulatedRequest, messages: readonly Record<string, unknown>[]): string | undefined {
  const single = messages.length === 1 ? messages[0]! : undefined;
  const declared = single === undefined ? undefined : declaredVersion(single.params);
  if (typeof declared === "string") return declared;
  const header = request.header("mcp-protocol-version");
  if (header !== undefined) return header;
  const asked = single?.method === "initialize" ? (single.params as { protocolVersion?: unknown } | undefined)?.protocolVersion : undefined;
  return isKnownVersion(asked) && versionHas(asked, "initialize") ? asked : undefined;
}

/** A `Request`, also one of another realm or undici copy (whose `instanceof` fails), told from a plain init. */
function isWebRequest(input: Request | SimulationRequestInit): input is Request {
  if (input instanceof Request) return true;
  const candidate = input as Partial<Request> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.arrayBuffer === "function" && typeof candidate.headers?.forEach === "function";
}

/** The JSON-RPC messages of a body (one, or a batch); none when it is not JSON. */
function jsonMessages(body: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter((message): message is Record<string, unknown> => typeof message === "object" && message !== null);
}

/** A simulator for `target`: `sim.startRequest(request)` drives one request through it with no socket. */
export function simulate(target: SimulationTarget, options?: SimulateOptions): Simulator {
  return new Simulator(target, options);
}
