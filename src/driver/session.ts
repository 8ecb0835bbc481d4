/**
 * A JSON-RPC client session over any SDK-shaped transport: numbered requests with timeouts and
 * `notifications/cancelled`, answers to the server's own requests, and notifications passed on.
 * Every message goes through a strict `TrafficRecorder`, so everything the server sent is
 * recorded and checked against the negotiated version's schema; a response with problems fails
 * its request with a `ProtocolError` naming each JSON path, and a broken stream (a line that is
 * not JSON, a response to no request) fails every request in flight and every later one.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { TrafficRecorder } from "../inspect/recorder.js";
import { SENT } from "../inspect/json-text.js";
import { RecordingTransport } from "../inspect/recording-transport.js";
import { NO_PROBLEMS, type MessageProblem } from "../inspect/types.js";
import { ErrorCode } from "../protocol/errors.js";
import { isObject, type JsonRpcErrorObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/rpc-error.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import { ConnectionClosedError, McpDriverError, ProtocolError, RequestFailedError, RequestTimeoutError, type ProcessContext } from "./errors.js";
import { MESSAGE_PREFIX } from "../errors.js";
import { Deadlines } from "./deadlines.js";
import type { ErrorClassifier } from "./transport-errors.js";
import type { McpRequestOutcome } from "../observe/outcomes.js";
import { clipCounted, errorText } from "../util/text.js";
import { describeCause } from "../util/error-causes.js";

export type JsonObject = Record<string, unknown>;

export interface CallOptions {
  /** Overrides the driver's `requestTimeout` for this call, in ms (1 to 2147483647; a longer one is refused). */
  timeoutMs?: number;
  /** Aborting cancels the request (`notifications/cancelled`) and rejects it. */
  signal?: AbortSignal;
  /**
   * Receives the server's `notifications/progress` for this request (a progress token is sent).
   * Each progress notification restarts the timeout.
   */
  onProgress?: (progress: ProgressParams) => void;
  /**
   * Answers the server's requests that belong to this call, before the driver's own handlers
   * (`onElicitation`, `onSampling`, `roots`): in 2026-07-28 the input requests of this call's
   * `input_required` results; in the legacy era a server request that arrives while this call is
   * the only tools/call, resources/read or prompts/get in flight (a legacy server request does
   * not say which call it serves; with others in flight beside it, it is refused, saying so).
   * Return undefined to leave a request to the driver's handlers. Throwing answers a legacy
   * server request with that error (an `RpcError` for its code); in 2026-07-28, where an input
   * response cannot be an error, it fails the call. The time the handler takes is not the
   * server's: the call's timeout waits meanwhile and starts again after (its signal and
   * `close()` still end the wait). The driver declares only the capabilities its own options
   * imply: declare what this answers in the driver's `capabilities`. A proxy's hook: `recordMcp`
   * passes a call's requests on this way.
   */
  onServerRequest?: CallServerRequestHandler;
}

/** A call's own answer to one of the server's requests; undefined leaves it to the driver's handlers. */
export type CallServerRequestHandler = (method: string, params: JsonObject | undefined, context: ServerRequestContext) => JsonObject | undefined | Promise<JsonObject | undefined>;

export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

export interface RequestSpec extends CallOptions {
  /** How the request is named in errors, e.g. `tools/call "echo"`. */
  label?: string;
  /** What the request is about (a tool's name, a URI), for `errorFor`. */
  subject?: string;
  /**
   * Turns a JSON-RPC error response into the error to throw. One function serves every request
   * of its kind (it reads the request's `subject`), so a call makes no closure of its own.
   */
  errorFor?: ErrorFor;
  /** False for `initialize`, which the spec says must never be cancelled. */
  cancellable?: boolean;
  /** Told the request's JSON-RPC id just before it is written (a subscription is named by it). */
  onId?: (id: JsonRpcId) => void;
  /** Added to a timeout's message: what else went unanswered before this request. */
  timeoutNote?: string;
}

/** Passed to the handlers of server requests (`onSampling`, `onElicitation`). */
export interface ServerRequestContext {
  method: string;
  requestId: JsonRpcId;
  /** Aborted when the server cancels its request or the driver closes. */
  signal: AbortSignal;
}

/** A notification from the server, as the driver keeps it. */
export interface ReceivedNotification {
  method: string;
  params: JsonObject | undefined;
  /** When it arrived, in ms since the epoch. */
  timestamp: number;
  /** Schema problems the validator found in it (empty when valid). */
  problems: readonly MessageProblem[];
}

/** What `errorFor` knows about the request that failed. */
export interface FailedRequest {
  method: string;
  label: string;
  subject: string | undefined;
}

export type ErrorFor = (error: JsonRpcErrorObject, request: FailedRequest) => McpDriverError;

export interface SessionHooks {
  /** Answers a server request; throw an `RpcError` (or any error) to answer with an error. */
  handleRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject>;
  handleNotification(notification: ReceivedNotification): void;
  /** The error for a request in flight when the connection closes. */
  closedError(method: string, id: JsonRpcId, label: string): McpDriverError;
  /** The spawned process, to give errors their context. */
  processContext(): ProcessContext | undefined;
  /** Which transport errors are the server breaking the protocol (the transport's own knowledge). */
  classifyError: ErrorClassifier;
  /** What the negotiated era adds to every request's `_meta` (none before 2026-07-28). */
  requestMeta(): JsonObject | undefined;
  /**
   * Cancels a request the wire's own way (2026-07-28 over HTTP: close its stream); false when
   * the wire has none, and `notifications/cancelled` is sent instead.
   */
  cancelRequest?(id: JsonRpcId, reason: string): boolean;
  /** A request is over (answered, failed or given up): the wire may forget it. */
  settled?(id: JsonRpcId): void;
  /** W3C trace context for every request's `_meta` (the driver's `traceContext`), if any now. */
  traceMeta?(): JsonObject | undefined;
  /** Hears each request's start and its end (the driver's observers, observed-session.ts). */
  watcher?: RequestWatcher;
  /**
   * The transport closed by itself, not by `close()` (a process that exited, a connection the
   * other side closed): told once, after the requests in flight have failed.
   */
  wireEnded?(): void;
  /** Every error the transport reports, so the connection can tell one that means its server is gone. */
  wireError?(error: Error): void;
  /** The URL that refused the connection, when a failed send's `error` is that (HTTP); else undefined. */
  refusedAt?(error: unknown): string | undefined;
}

/**
 * Told when each request is written and when it ends, once. `end` is the response the session
 * read, or, when there is none the caller could use, the outcome the caller saw; `cause` is the
 * error the caller got then.
 */
export interface RequestWatcher {
  sent(id: JsonRpcId, method: string, params: JsonObject | undefined): void;
  ended(id: JsonRpcId, end: JsonObject | McpRequestOutcome, cause?: unknown): void;
}

export interface SessionOptions {
  requestTimeout: number;
  /** When false, schema problems in results are recorded but do not fail the call. */
  strict: boolean;
  maxRecords?: number;
}

interface PendingRequest {
  id: JsonRpcId;
  method: string;
  label: string;
  timeoutMs: number;
  /** When it times out (see `Deadlines`). */
  deadline: number;
  /** How many of the client's own handlers are answering for it now (its countdown waits meanwhile). */
  holds: number;
  cancellable: boolean;
  onProgress: ((progress: ProgressParams) => void) | undefined;
  subject: string | undefined;
  errorFor: ErrorFor;
  timeoutNote: string | undefined;
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  detach: () => void;
}

/** Ids of requests we gave up on, so their late responses are expected rather than protocol errors. */
const rememberedCancellations = 1000;
/**
 * Protocol failures kept; the rest are counted. Each carries the process's last output lines, so
 * a server writing garbage in a loop would otherwise fill the memory (one error per line).
 */
export const keptProtocolErrors = 100;

export class RpcSession {
  readonly recorder: TrafficRecorder;
  /** The first protocol failures seen (at most `keptProtocolErrors`). The first one fails every later request. */
  readonly protocolErrors: ProtocolError[] = [];
  /** Every protocol failure seen, kept or not. */
  protocolErrorCount = 0;
  private transport: RecordingTransport | undefined;
  /** The transport once it has started (and did not fail to). */
  private startedTransport: RecordingTransport | undefined;
  private readonly ready: Promise<void>;
  private startError: unknown;
  private nextId = 1;
  private readonly pending = new Map<JsonRpcId, PendingRequest>();
  private readonly timeouts = new Deadlines<PendingRequest>(
    () => this.pending.values(),
    (request) => this.timedOut(request),
  );
  private readonly abandoned = new Set<JsonRpcId>();
  private readonly serverRequests = new Map<JsonRpcId, AbortController>();
  /** What the recorder found wrong with the message being received; none (the usual case) allocates nothing. */
  private incomingProblems: MessageProblem[] | undefined;
  private closed = false;
  private closeReason: ((method: string, id: JsonRpcId, label: string) => McpDriverError) | undefined;

  constructor(
    transport: Transport | PromiseLike<Transport>,
    private readonly hooks: SessionHooks,
    private readonly options: SessionOptions,
  ) {
    this.recorder = new TrafficRecorder({
      side: "client",
      strict: true,
      ...(options.maxRecords === undefined ? {} : { maxRecords: options.maxRecords }),
      // Called synchronously while a message is recorded, just before it reaches `receive`.
      onProblem: (problem) => {
        if (problem.direction === "incoming") (this.incomingProblems ??= []).push(problem);
      },
    });
    this.ready = Promise.resolve(transport).then(
      (inner) => this.startTransport(inner),
      (error: unknown) => {
        this.startError = error;
      },
    );
  }

  /** The protocol version the recorder validates against (learned from the initialize result). */
  get protocolVersion(): string | undefined {
    return this.recorder.protocolVersion;
  }

  /** The transport's session id (Streamable HTTP), once it has one. */
  get sessionId(): string | undefined {
    return this.transport?.sessionId;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Once the transport has started, or failed to: undefined, or why it could not start. */
  async startFailure(): Promise<{ error: unknown } | undefined> {
    await this.ready;
    return this.startedTransport === undefined ? { error: this.startError } : undefined;
  }

  /** The wrapped transport, once it has been resolved and started. */
  async connectedTransport(): Promise<RecordingTransport | undefined> {
    await this.ready;
    return this.transport;
  }

  /** Sends a request and resolves with its result. */
  request(method: string, params: JsonObject | undefined, spec: RequestSpec = {}): Promise<JsonObject> {
    // The usual case, a session up and well: the request goes out now, with nothing to wait for.
    const transport = this.startedTransport;
    if (transport !== undefined && !this.closed && this.protocolErrorCount === 0) return this.sendRequest(transport, method, params, spec);
    return this.requestOnceStarted(method, params, spec);
  }

  /** A request made before the transport has started, or once the session is closed or broken. */
  private async requestOnceStarted(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    const label = spec.label ?? method;
    this.throwIfBroken(label);
    if (this.closed) throw this.closedError(method, this.nextId, label);
    await this.ready;
    const transport = this.startedTransport;
    if (transport === undefined) {
      throw new ConnectionClosedError(`Could not start the connection to send ${label}: ${describeCause(this.startError)}`, {
        method,
        cause: this.startError,
        process: this.hooks.processContext(),
      });
    }
    this.throwIfBroken(label);
    if (this.closed) throw this.closedError(method, this.nextId, label);
    return await this.sendRequest(transport, method, params, spec);
  }

  /** Numbers the request, waits for its response (with its timeout and abort signal) and writes it. */
  private sendRequest(transport: RecordingTransport, method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    // A call given up before it went out is not written: the server never runs it.
    if (spec.signal?.aborted) return Promise.reject(abortedBeforeSending(spec.label ?? method, method, spec.signal.reason, this.hooks.processContext()));
    const id = this.nextId++;
    const label = spec.label ?? method;
    const sentParams = this.withMeta(params, spec.onProgress ? id : undefined);
    const message = sentParams === undefined ? { jsonrpc: "2.0" as const, id, method } : { jsonrpc: "2.0" as const, id, method, params: sentParams };

    const result = new Promise<JsonObject>((resolve, reject) => {
      const request: PendingRequest = {
        id,
        method,
        label,
        timeoutMs: spec.timeoutMs ?? this.options.requestTimeout,
        deadline: Infinity,
        holds: 0,
        cancellable: spec.cancellable ?? true,
        onProgress: spec.onProgress,
        subject: spec.subject,
        errorFor: spec.errorFor ?? defaultErrorFor,
        timeoutNote: spec.timeoutNote,
        resolve,
        reject,
        detach: noop,
      };
      this.pending.set(id, request);
      // A long-lived request (subscriptions/listen) has no deadline.
      if (Number.isFinite(request.timeoutMs)) this.timeouts.start(request, request.timeoutMs);
      if (spec.signal) this.listenForAbort(request, spec.signal);
    });
    spec.onId?.(id);
    this.hooks.watcher?.sent(id, method, sentParams);
    const sending = transport.send(message as JSONRPCMessage);
    // A line written at once cannot fail later: no catch (and no promise) for it.
    if (sending !== SENT) sending.catch((error: unknown) => this.sendFailed(id, error));
    return result;
  }

  /**
   * The one place a request's `_meta` is made: the era's own fields (a protocol version per
   * request, later), the active trace context (`traceparent`, ...) and a progress token. Params the caller gave are never changed in place.
   */
  private withMeta(params: JsonObject | undefined, progressToken: JsonRpcId | undefined): JsonObject | undefined {
    const eraMeta = this.hooks.requestMeta();
    const traceMeta = this.hooks.traceMeta?.();
    if (eraMeta === undefined && traceMeta === undefined && progressToken === undefined) return params;
    const given = isObject(params?._meta) ? params._meta : {};
    // The caller's own `_meta` wins over ours (a test may send a traceparent of its choosing).
    return { ...params, _meta: { ...eraMeta, ...traceMeta, ...given, ...(progressToken === undefined ? {} : { progressToken }) } };
  }

  /** Aborting the signal gives up on the request (and cancels it on the server). */
  private listenForAbort(request: PendingRequest, signal: AbortSignal): void {
    const onAbort = () => this.giveUp(request, `aborted: ${describeCause(signal.reason)}`, "cancelled", (how) => abortError(request, signal.reason, how, this.hooks.processContext()));
    if (signal.aborted) queueMicrotask(onAbort);
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      request.detach = () => signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * 2026-07-28 over HTTP: the request's own response stream ended without its answer. There is no
   * resumption in that revision, so the request fails now rather than at its timeout.
   */
  answerLost(id: JsonRpcId, why: string): void {
    const request = this.pending.get(id as number);
    if (request === undefined) return;
    const failure = new ConnectionClosedError(
      `${request.label} (id ${request.id}) got no answer: ${why} before the response came. In 2026-07-28 a lost request is not resumed; send it again (a new request).`,
      { method: request.method, id: request.id, process: this.hooks.processContext() },
    );
    this.settle(request, "write_failed", failure);
    request.reject(failure);
  }

  /** A request that could not be written fails; a server that has gone away is said so, rather than EPIPE. */
  private sendFailed(id: number, error: unknown): void {
    const request = this.pending.get(id);
    if (request === undefined) return;
    const { method, label } = request;
    // Nothing listening is said first, in plain words: the method's name means little to a user at a wrong port.
    const refusedAt = this.hooks.refusedAt?.(error);
    const text =
      refusedAt === undefined
        ? `${describeSendFailure(label, id, error)}: ${describeCause(error)}`
        : `Nothing answered at ${refusedAt} (connection refused), so ${label} (id ${id}) was not sent. Is the server running, on this port? Detail: ${describeCause(error)}`;
    const failure = this.closed
      ? this.closedError(method, id, label)
      : new ConnectionClosedError(text, {
          method,
          id,
          cause: error,
          process: this.hooks.processContext(),
          refusedAt,
        });
    this.settle(request, "write_failed", failure);
    request.reject(failure);
  }

  /** Sends a notification. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    this.throwIfBroken();
    await this.ready;
    const transport = this.transport;
    if (transport === undefined || this.closed) throw this.closedError(method, 0, method);
    const message = { jsonrpc: "2.0" as const, method, ...(params === undefined ? {} : { params }) };
    try {
      await transport.send(message as JSONRPCMessage);
    } catch (error) {
      throw new ConnectionClosedError(`Could not send the ${method} notification: ${describeCause(error)}`, {
        method,
        cause: error,
        process: this.hooks.processContext(),
      });
    }
  }

  /**
   * Throws once the server has broken the protocol: the first failure itself, or, for a request
   * `what` made afterwards, an error that says it was not sent and why (the first failure's
   * words describe the requests in flight then, not this one).
   */
  throwIfBroken(what?: string): void {
    const failure = this.protocolErrors[0];
    if (!failure) return;
    if (what === undefined) throw failure;
    throw new ProtocolError(
      `${what} was not sent: the session stopped when the server broke the protocol earlier, and a broken session sends nothing more (start a new driver to go on). What happened then: ${failure.message.replace(`${MESSAGE_PREFIX} `, "")}`,
      { problems: failure.problems, cause: failure, process: this.hooks.processContext() },
    );
  }

  /** The number of requests waiting for a response. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** The requests waiting for a response whose method `which` picks: their ids and labels. */
  pendingWhere(which: (method: string) => boolean): { id: JsonRpcId; label: string }[] {
    const found: { id: JsonRpcId; label: string }[] = [];
    for (const request of this.pending.values()) if (which(request.method)) found.push({ id: request.id, label: request.label });
    return found;
  }

  /**
   * Stops request `id`'s countdown while the client itself is busy for it (a call's own handler
   * answering the server's request): the server cannot answer then. The returned function starts
   * the countdown again from the full timeout, as a progress notification does.
   */
  holdDeadline(id: JsonRpcId): () => void {
    const request = this.pending.get(id);
    if (request === undefined || !Number.isFinite(request.timeoutMs)) return noop;
    // An armed timer that fires meanwhile skips it (its deadline never comes) and re-arms for the others.
    request.holds++;
    request.deadline = Infinity;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--request.holds === 0 && this.pending.get(id) === request) this.timeouts.start(request, request.timeoutMs);
    };
  }

  /**
   * Stops the session: requests in flight are rejected with `reason`'s error and no more can be
   * sent. The transport itself is closed by the caller, which knows what kind it is.
   */
  close(reason: (method: string, id: JsonRpcId, label: string) => McpDriverError): void {
    if (this.closed) return;
    this.closeReason = reason;
    this.shutDown();
  }

  private async startTransport(inner: Transport): Promise<void> {
    const transport = new RecordingTransport(inner, this.recorder);
    transport.onmessage = (message) => this.receive(message);
    transport.onerror = (error) => this.transportError(error);
    transport.onclose = () => {
      const byItself = this.closeReason === undefined && !this.closed;
      this.shutDown();
      if (byItself) this.hooks.wireEnded?.();
    };
    this.transport = transport;
    try {
      await transport.start();
      this.startedTransport = transport;
    } catch (error) {
      this.startError = error;
    }
  }

  private shutDown(): void {
    if (this.closed && this.pending.size === 0 && this.serverRequests.size === 0) return;
    this.closed = true;
    // close() is the client leaving; otherwise the wire went away under the requests.
    const outcome = this.closeReason === undefined ? "write_failed" : "client_disconnected";
    for (const request of [...this.pending.values()]) {
      const failure = this.closedError(request.method, request.id, request.label);
      this.settle(request, outcome, failure);
      request.reject(failure);
    }
    for (const controller of this.serverRequests.values()) controller.abort(new Error("the connection closed"));
    this.serverRequests.clear();
    this.timeouts.stop();
  }

  private closedError(method: string, id: JsonRpcId, label: string): McpDriverError {
    return (this.closeReason ?? this.hooks.closedError)(method, id, label);
  }

  /** A request whose deadline passed with no response (`Deadlines` calls it). */
  private timedOut(request: PendingRequest): void {
    const cancelled = request.cancellable;
    this.giveUp(request, `timed out after ${request.timeoutMs} ms`, "deadline_exceeded", (how) => {
      const what = cancelled ? `; ${cancelledHow(how)}` : ` (${request.method} is never cancelled)`;
      return new RequestTimeoutError(
        `${request.label} (id ${request.id}) got no response within ${request.timeoutMs} ms${what}${request.timeoutNote ?? ""}. ` +
          `If the server is just slow, raise requestTimeout (or pass { timeoutMs } to this call).`,
        { method: request.method, id: request.id, timeoutMs: request.timeoutMs, cancelled, process: this.hooks.processContext() },
      );
    });
  }

  /** Stops waiting for a request: tells the server (unless it is initialize) and rejects it. */
  private giveUp(request: PendingRequest, reason: string, outcome: McpRequestOutcome, error: (how: "stream-closed" | "notified") => Error): void {
    if (this.pending.get(request.id) !== request) return;
    // Before settling, which forgets the request's stream: closing it is how 2026-07-28 over HTTP cancels.
    const streamClosed = request.cancellable && !this.closed && this.hooks.cancelRequest?.(request.id, reason) === true;
    const failure = error(streamClosed ? "stream-closed" : "notified");
    this.settle(request, outcome, failure);
    this.abandoned.add(request.id);
    if (this.abandoned.size > rememberedCancellations) this.abandoned.delete(this.abandoned.values().next().value as JsonRpcId);
    if (request.cancellable && !this.closed && !streamClosed) {
      this.notify("notifications/cancelled", { requestId: request.id, reason }).catch(() => undefined);
    }
    request.reject(failure);
  }

  /** Every way a request ends comes here once, saying how (the response, or the outcome and the error). */
  private settle(request: PendingRequest, end: JsonObject | McpRequestOutcome, cause?: unknown): void {
    request.detach();
    this.pending.delete(request.id);
    this.hooks.watcher?.ended(request.id, end, cause);
    this.hooks.settled?.(request.id);
    if (this.pending.size === 0) this.timeouts.idle();
  }

  /** A transport error: a protocol failure if the transport says so; other errors are in the recorder. */
  private transportError(error: Error): void {
    const protocolError = this.hooks.classifyError(error);
    if (protocolError !== undefined) this.fail(protocolError);
    this.hooks.wireError?.(error);
  }

  /** A protocol failure (or the maker of one): kept while few, counted always; it fails every request in flight. */
  private fail(failure: ProtocolError | (() => ProtocolError)): void {
    this.protocolErrorCount++;
    if (this.protocolErrors.length < keptProtocolErrors) {
      const error = typeof failure === "function" ? failure() : failure;
      // Formatting the stack now drops the frames V8 keeps until then, and with them the
      // objects (this session among them) that a kept error would otherwise hold alive.
      void error.stack;
      this.protocolErrors.push(error);
    }
    if (this.pending.size === 0) return;
    const first = this.protocolErrors[0]!;
    for (const request of [...this.pending.values()]) {
      this.settle(request, "protocol_error", first);
      request.reject(first);
    }
  }

  private receive(message: unknown): void {
    const problems = this.incomingProblems ?? NO_PROBLEMS;
    this.incomingProblems = undefined;
    if (Array.isArray(message)) return this.receiveBatch(message, problems);
    this.receiveOne(message, problems);
  }

  /** A JSON-RPC batch (allowed by 2025-03-26 only): each message is handled on its own. */
  private receiveBatch(batch: unknown[], problems: readonly MessageProblem[]): void {
    // Problems at "$" concern the batch itself (empty, or a version without batches).
    if (batch.length === 0 || problems.some((problem) => problem.path === "$")) {
      return this.fail(() => this.invalidMessage("a JSON-RPC batch it may not send", batch, problems));
    }
    batch.forEach((item, index) => {
      const prefix = `$[${index}]`;
      const own = problems
        .filter((problem) => problem.path === prefix || problem.path.startsWith(`${prefix}.`) || problem.path.startsWith(`${prefix}[`))
        .map((problem) => ({ ...problem, path: `$${problem.path.slice(prefix.length)}` }));
      this.receiveOne(item, own);
    });
  }

  private receiveOne(message: unknown, problems: readonly MessageProblem[]): void {
    if (!isObject(message)) {
      return this.fail(() => this.invalidMessage("a message that is not a JSON object", message, problems));
    }
    if ("method" in message) {
      const envelope = problems.filter(isEnvelopeProblem);
      if (envelope.length > 0 || typeof message.method !== "string") {
        return this.fail(() => this.invalidMessage("an invalid request or notification", message, envelope));
      }
      const params = isObject(message.params) ? message.params : undefined;
      if (message.id === undefined) return this.receiveNotification(message.method, params, problems);
      return void this.answer(message.id as JsonRpcId, message.method, params, problems);
    }
    if ("result" in message || "error" in message) return this.receiveResponse(message, problems);
    return this.fail(() => this.invalidMessage("a message that is neither a request, a notification nor a response", message, problems));
  }

  private receiveResponse(message: JsonObject, problems: readonly MessageProblem[]): void {
    const id = message.id;
    const request = typeof id === "string" || typeof id === "number" ? this.pending.get(id) : undefined;
    if (request === undefined) {
      if ((typeof id === "string" || typeof id === "number") && this.abandoned.has(id)) return; // late, after we gave up
      if (id === null && "error" in message && !("result" in message)) {
        const error = isObject(message.error) ? message.error : {};
        return this.fail(
          () =>
            new ProtocolError(
            `The server answered with an error that has a null id (it could not read a request we sent): ` +
              `${String(error.code)} ${JSON.stringify(error.message)}. Requests in flight: ${this.describeInFlight()}.`,
            { problems, process: this.hooks.processContext() },
          ),
        );
      }
      return this.fail(
        () =>
          new ProtocolError(
          `The server sent a response with id ${JSON.stringify(id)}${typeof id === "string" ? " (a string)" : ""}, which matches no request in flight. ` +
            `Requests in flight: ${this.describeInFlight()}. A response must carry the id of its request, unchanged.`,
          { problems, process: this.hooks.processContext() },
        ),
      );
    }
    const blocking = problems.length === 0 ? problems : problems.filter((problem) => problem.rule !== "version.unknown" && (this.options.strict || isEnvelopeProblem(problem)));
    if (blocking.length > 0) {
      const version = this.recorder.protocolVersion ?? LATEST_PROTOCOL_VERSION;
      const failure = new ProtocolError(
        `${request.label} (id ${request.id}): the server's response breaks the MCP ${version} schema:\n` +
          `${formatProblems(blocking)}\n  response: ${clipCounted(safeJson(message), 500)}`,
        { method: request.method, id: request.id, problems: blocking, response: message, process: this.hooks.processContext() },
      );
      // An answer the caller cannot use: the server broke the protocol, whatever the answer said.
      this.settle(request, "protocol_error", failure);
      request.reject(failure);
      return;
    }
    this.settle(request, message);
    if ("error" in message && isObject(message.error)) {
      request.reject(request.errorFor(message.error as unknown as JsonRpcErrorObject, request));
      return;
    }
    request.resolve(message.result as JsonObject);
  }

  private receiveNotification(method: string, params: JsonObject | undefined, problems: readonly MessageProblem[]): void {
    if (method === "notifications/progress" && params !== undefined) {
      const request = [...this.pending.values()].find((pending) => pending.onProgress && pending.id === params.progressToken);
      if (request) {
        if (Number.isFinite(request.timeoutMs) && request.holds === 0) this.timeouts.start(request, request.timeoutMs);
        try {
          request.onProgress!(params as ProgressParams);
        } catch {
          // A throwing progress callback is the test's problem, not the session's.
        }
      }
    } else if (method === "notifications/cancelled" && params !== undefined) {
      const id = params.requestId as JsonRpcId;
      const controller = this.serverRequests.get(id);
      if (controller) {
        this.serverRequests.delete(id);
        controller.abort(new Error(typeof params.reason === "string" ? params.reason : "cancelled by the server"));
      }
    }
    this.hooks.handleNotification({ method, params, timestamp: Date.now(), problems });
  }

  private async answer(id: JsonRpcId, method: string, params: JsonObject | undefined, problems: readonly MessageProblem[]): Promise<void> {
    const paramProblems = problems.filter((problem) => problem.rule === "params.shape");
    const controller = new AbortController();
    this.serverRequests.set(id, controller);
    let reply: JsonObject;
    if (paramProblems.length > 0) {
      reply = { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}:\n${formatProblems(paramProblems)}` } };
    } else {
      try {
        const result = await this.hooks.handleRequest(method, params, { method, requestId: id, signal: controller.signal });
        reply = { jsonrpc: "2.0", id, result };
      } catch (error) {
        reply = { jsonrpc: "2.0", id, error: toJsonRpcError(error) };
      }
    }
    // A request the server cancelled gets no answer (the spec says the receiver should not reply).
    if (this.serverRequests.get(id) !== controller || this.closed) return;
    this.serverRequests.delete(id);
    try {
      await this.transport?.send(reply as JSONRPCMessage);
    } catch {
      // The failure is in the recorder; the server will time out its request.
    }
  }

  private invalidMessage(what: string, message: unknown, problems: readonly MessageProblem[]): ProtocolError {
    const details = problems.length > 0 ? `:\n${formatProblems(problems)}` : "";
    return new ProtocolError(`The server sent ${what}${details}\n  message: ${clipCounted(safeJson(message), 500)}`, {
      problems,
      process: this.hooks.processContext(),
    });
  }

  private describeInFlight(): string {
    if (this.pending.size === 0) return "none";
    return [...this.pending.values()].map((request) => `${request.id} (${request.label})`).join(", ");
  }
}

function noop(): void {}

function isEnvelopeProblem(problem: MessageProblem): boolean {
  return problem.rule.startsWith("jsonrpc.") || problem.rule === "json.parse";
}

export function defaultErrorFor(error: JsonRpcErrorObject, { method, label }: FailedRequest): McpDriverError {
  return new RequestFailedError(`The server answered ${label} with JSON-RPC error ${describeErrorObject(error)}`, {
    method,
    code: error.code,
    serverMessage: error.message,
    data: error.data,
  });
}

/** `-32601 (MethodNotFound): "Unknown method"`, with the data when there is some. */
export function describeErrorObject(error: JsonRpcErrorObject): string {
  const name = codeNames.get(error.code);
  const data = error.data === undefined ? "" : ` (data: ${clipCounted(safeJson(error.data), 300)})`;
  return `${String(error.code)}${name ? ` (${name})` : ""}: ${JSON.stringify(error.message)}${data}`;
}

const codeNames = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) return error.toObject();
  const code = isObject(error) && Number.isInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
  const message = errorText(error);
  return { code, message };
}

/** How a request given up was cancelled at the server, in words. */
function cancelledHow(how: "stream-closed" | "notified"): string {
  return how === "stream-closed" ? "closed its response stream (how 2026-07-28 cancels over HTTP)" : "sent notifications/cancelled";
}

/** The signal had aborted before the request was written: nothing went to the server. */
export function abortedBeforeSending(label: string, method: string, reason: unknown, process: ProcessContext | undefined): McpDriverError {
  return new McpDriverError(`${label} was aborted (${describeCause(reason)}) before it was sent; nothing was sent to the server.`, { method, cause: reason, process });
}

function abortError(request: PendingRequest, reason: unknown, how: "stream-closed" | "notified", process: ProcessContext | undefined): McpDriverError {
  return new McpDriverError(`${request.label} (id ${request.id}) was aborted (${describeCause(reason)}); ${cancelledHow(how)}.`, {
    method: request.method,
    id: request.id,
    cause: reason,
    process,
  });
}

export function formatProblems(problems: readonly MessageProblem[]): string {
  return problems.map((problem) => `  - ${problem.path}: ${problem.message} [${problem.rule}]`).join("\n");
}

/**
 * What a failed send means. Over HTTP the transport's send is the whole round trip, so a refusal
 * (an HTTP status) or a connection cut before the answer came is no failure to send.
 */
function describeSendFailure(label: string, id: number, error: unknown): string {
  const status = (error as { code?: unknown } | undefined)?.code;
  if (typeof status === "number" && status >= 400 && status < 600) return `The server refused ${label} (id ${id}) with HTTP ${status}`;
  if (closedMidRequest(error)) return `The server closed the connection before answering ${label} (id ${id})`;
  // The SDK's words for an answer that is neither JSON nor an event stream (a web page, most often: the wrong path).
  const contentType = /Unexpected content type: ([^\s,;]+)/.exec(error instanceof Error ? error.message : String(error))?.[1];
  if (contentType !== undefined) return `The server answered ${label} (id ${id}) with ${contentType}, not JSON or an event stream: is the URL the MCP endpoint (its path is often /mcp)?`;
  return `Could not send ${label} (id ${id})`;
}

/** undici's "other side closed" (`UND_ERR_SOCKET`) under fetch's "fetch failed": the request went out, the answer never came. */
function closedMidRequest(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === "UND_ERR_SOCKET") return true;
    cause = cause.cause;
  }
  return false;
}


function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
