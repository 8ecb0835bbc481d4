/**
 * The JSON-RPC channel to the server over any SDK-shaped transport: numbered requests with timeouts and
 * cancellation, the server's own requests answered, notifications passed on. Every message goes
 * through a strict `TrafficRecorder`, so everything the server sent is recorded and checked against
 * the negotiated version's schema; a response with problems fails its request with a
 * `ProtocolError` naming each JSON path, and a broken stream (a line that is not JSON, a response
 * to no request) fails every request in flight and every later one.
 *
 * Its parts: `PendingRequests` (what waits, and until when), `classifyInbound` (what a message
 * is), `IncomingRequests` (the server's requests and their replies) and the outgoing-request
 * interceptors (interceptors.ts), which add `_meta`, hear requests and cancel them the wire's way.
 */
import { SignInError } from "./auth/sign-in-error.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ChannelOptions, ClosedError } from "./channel-options.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { TrafficRecorder } from "../inspect/recorder.js";
import { SENT } from "../inspect/json-text.js";
import { RecordingTransport } from "../inspect/recording-transport.js";
import { NO_PROBLEMS, type MessageProblem } from "../inspect/types.js";
import { isObject, type JsonRpcErrorObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import { ConnectionClosedError, type McpDriverError, ProtocolError } from "./errors.js";
import type { McpRequestOutcome } from "../observe/outcomes.js";
import { clipCounted } from "../util/text.js";
import { describeCause } from "../util/error-causes.js";
import { classifyInbound, isEnvelopeProblem, type InboundMessage } from "./inbound.js";
import { IncomingRequests, type ServerRequestHandler } from "./incoming-requests.js";
import { progressToken, type OutgoingRequest, type RequestInterceptor } from "./interceptors.js";
import { noop, PendingRequests, type PendingRequest } from "./pending-requests.js";
import {
  abortedBeforeSending,
  abortedInFlight,
  defaultErrorFor,
  describeSendFailure,
  sendFailureError,
  answerLostError,
  formatProblems,
  invalidMessageError,
  safeJson,
  timeoutError,
  unmatchedResponseError,
  type CancelledHow,
} from "./request-errors.js";
import type { JsonObject, ProgressParams, ReceivedNotification, RequestSpec } from "./request-types.js";
import { onAbort } from "../util/on-abort.js";

export type { CallOptions, CallServerRequestHandler, ErrorFor, FailedRequest, JsonObject, ProgressParams, ReceivedNotification, RequestSpec, ServerRequestContext } from "./request-types.js";
export { abortedBeforeSending, defaultErrorFor, describeErrorObject, formatProblems } from "./request-errors.js";

export type { ChannelOptions, ClosedError } from "./channel-options.js";

/**
 * Protocol failures kept; the rest are counted. Each carries the process's last output lines, so
 * a server writing garbage in a loop would otherwise fill the memory (one error per line).
 */
export const keptProtocolErrors = 100;

export class RpcChannel {
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
  private readonly pending = new PendingRequests((request) => this.timedOut(request));
  private readonly incoming = new IncomingRequests((reply) => (this.closed || this.transport === undefined ? undefined : this.sendOut(this.transport, reply as JSONRPCMessage)));
  /** In order; the progress token is always there, and its `_meta` wins over the caller's. */
  private readonly interceptors: RequestInterceptor[] = [progressToken];
  private readonly notificationListeners: ((notification: ReceivedNotification) => void)[] = [];
  private readonly wireEndListeners: ((error?: Error) => void)[] = [];
  /** What the recorder found wrong with the message being received; none (the usual case) allocates nothing. */
  private incomingProblems: MessageProblem[] | undefined;
  private closed = false;
  private closeReason: ClosedError | undefined;
  /** The error for a request in flight when the wire goes away by itself (the connection's lifetime knows better, see `explainWireLoss`). */
  private wireLossError: ClosedError = (method, id, label) => new ConnectionClosedError(`The connection closed before ${label} (id ${id}) was answered.`, { method, id });

  constructor(
    transport: Transport | PromiseLike<Transport>,
    private readonly options: ChannelOptions,
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

  /** Adds an outgoing-request interceptor (after those added before it; the progress token stays last). */
  use(interceptor: RequestInterceptor): void {
    this.interceptors.splice(this.interceptors.length - 1, 0, interceptor);
  }

  /** The one handler the server's requests go to. */
  answerServerRequestsWith(handler: ServerRequestHandler): void {
    this.incoming.answerWith(handler);
  }

  /** Hears every notification from the server (after the channel has acted on progress and cancellation). */
  onNotification(listener: (notification: ReceivedNotification) => void): void {
    this.notificationListeners.push(listener);
  }

  /**
   * Hears the wire go away: with no error when it closed by itself (not by `close()`), told once
   * after the requests in flight have failed; with each error the transport reports, so the
   * connection can tell one that means its server is gone.
   */
  onWireEnd(listener: (error?: Error) => void): void {
    this.wireEndListeners.push(listener);
  }

  /** Sets the error a request in flight gets when the wire goes away by itself (not by `close()`). */
  explainWireLoss(error: ClosedError): void {
    this.wireLossError = error;
  }

  /** The protocol version the recorder validates against (learned from the initialize result). */
  get protocolVersion(): string | undefined {
    return this.recorder.protocolVersion;
  }

  /** The transport's session id (Streamable HTTP), once it has one. */
  get sessionId(): string | undefined {
    return this.transport?.sessionId;
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
    // The usual case, a channel up and well: the request goes out now, with nothing to wait for.
    const transport = this.startedTransport;
    if (transport !== undefined && !this.closed && this.protocolErrorCount === 0) return this.sendRequest(transport, method, params, spec);
    return this.requestOnceStarted(method, params, spec);
  }

  /** A request made before the transport has started, or once the channel is closed or broken. */
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
        process: this.options.processContext(),
      });
    }
    this.throwIfBroken(label);
    if (this.closed) throw this.closedError(method, this.nextId, label);
    return await this.sendRequest(transport, method, params, spec);
  }

  /** Numbers the request, waits for its response (with its timeout and abort signal) and writes it. */
  private sendRequest(transport: RecordingTransport, method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    // A call given up before it went out is not written: the server never runs it.
    if (spec.signal?.aborted) return Promise.reject(abortedBeforeSending(spec.label ?? method, method, spec.signal.reason, this.options.processContext()));
    const id = this.nextId++;
    const label = spec.label ?? method;
    const sentParams = this.withMeta(params, { id, method, spec });
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
      this.pending.add(request);
      if (spec.signal) this.listenForAbort(request, spec.signal);
    });
    spec.onId?.(id);
    for (const interceptor of this.interceptors) interceptor.sent?.(id, method, sentParams);
    const sending = this.sendOut(transport, message as JSONRPCMessage);
    // A line written at once cannot fail later: no catch (and no promise) for it.
    if (sending !== SENT) sending.catch((error: unknown) => this.sendFailed(id, error));
    return result;
  }

  /**
   * The one place a request's `_meta` is made, from the interceptors' fields and the caller's
   * own (which win, but for a progress token). Params the caller gave are never changed in place.
   */
  private withMeta(params: JsonObject | undefined, request: OutgoingRequest): JsonObject | undefined {
    let under: JsonObject | undefined;
    let over: JsonObject | undefined;
    for (const interceptor of this.interceptors) {
      const fields = interceptor.meta?.(request);
      if (fields === undefined) continue;
      if (interceptor.metaWins) over = over === undefined ? fields : { ...over, ...fields };
      else under = under === undefined ? fields : { ...under, ...fields };
    }
    if (under === undefined && over === undefined) return params;
    const given = isObject(params?._meta) ? params._meta : {};
    // The caller's own `_meta` wins over ours (a test may send a traceparent of its choosing).
    return { ...params, _meta: { ...under, ...given, ...over } };
  }

  /** Aborting the signal gives up on the request (and cancels it on the server). */
  private listenForAbort(request: PendingRequest, signal: AbortSignal): void {
    const giveUp = () => this.giveUp(request, `aborted: ${describeCause(signal.reason)}`, "cancelled", (how) => abortedInFlight(request, signal.reason, how, this.options.processContext()));
    // Already aborted: given up after the caller has the request in hand, not inside this call.
    if (signal.aborted) queueMicrotask(giveUp);
    else request.detach = onAbort(signal, giveUp);
  }

  /**
   * 2026-07-28 over HTTP: the request's own response stream ended without its answer. There is no
   * resumption in that revision, so the request fails now rather than at its timeout.
   */
  answerLost(id: JsonRpcId, why: string): void {
    const request = this.pending.get(id);
    if (request === undefined) return;
    const failure = answerLostError(request, why, this.options.processContext());
    this.settle(request, "write_failed", failure);
    request.reject(failure);
  }

  private readonly failedSendFacts = (id: number, error: unknown) => ({ refusedAt: this.options.refusedAt?.(error), foreignContentType: this.options.foreignContentType?.(id) });

  /** A request that could not be written fails; a server that has gone away is said so, rather than EPIPE. */
  private sendFailed(id: number, error: unknown): void {
    const request = this.pending.get(id);
    if (request === undefined) return;
    const { method, label } = request;
    // A failed sign-in says itself what went wrong and what to set.
    const failure = this.closed
      ? this.closedError(method, id, label)
      : error instanceof SignInError
        ? error
        : sendFailureError(describeSendFailure(label, id, error, this.failedSendFacts(id, error)), { method, id, cause: error, process: this.options.processContext() });
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
      await this.sendOut(transport, message as JSONRPCMessage);
    } catch (error) {
      throw new ConnectionClosedError(`Could not send the ${method} notification: ${describeCause(error)}`, {
        method,
        cause: error,
        process: this.options.processContext(),
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
      `${what} was not sent: the session stopped when the server broke the protocol earlier, and a broken session sends nothing more (start a new driver to go on). What happened then: ${failure.detail}`,
      { problems: failure.problems, cause: failure, process: this.options.processContext() },
    );
  }

  /** The requests waiting for a response whose method `which` picks: their ids and labels. */
  pendingWhere(which: (method: string) => boolean): { id: JsonRpcId; label: string }[] {
    return this.pending.where(which);
  }

  /**
   * Stops request `id`'s countdown while the client itself is busy for it (a call's own handler
   * answering the server's request): the server cannot answer then. The returned function starts
   * the countdown again from the full timeout, as a progress notification does.
   */
  holdDeadline(id: JsonRpcId): () => void {
    return this.pending.hold(id);
  }

  /**
   * Stops the channel: requests in flight are rejected with `reason`'s error and no more can be
   * sent. The transport itself is closed by the caller, which knows what kind it is.
   */
  close(reason: ClosedError): void {
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
      if (byItself) for (const listener of this.wireEndListeners) listener();
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
    if (this.closed && this.pending.size === 0 && this.incoming.size === 0) return;
    this.closed = true;
    // close() is the client leaving; otherwise the wire went away under the requests.
    const outcome = this.closeReason === undefined ? "write_failed" : "client_disconnected";
    for (const request of this.pending.all()) {
      const failure = this.closedError(request.method, request.id, request.label);
      this.settle(request, outcome, failure);
      request.reject(failure);
    }
    this.incoming.closeAll();
    this.pending.stopTimer();
  }

  private closedError(method: string, id: JsonRpcId, label: string): McpDriverError {
    return (this.closeReason ?? this.wireLossError)(method, id, label);
  }

  /** A request whose deadline passed with no response (`PendingRequests` calls it). */
  private timedOut(request: PendingRequest): void {
    this.giveUp(request, `timed out after ${request.timeoutMs} ms`, "deadline_exceeded", (how) => timeoutError(request, how, this.options.processContext()));
  }

  /** Stops waiting for a request: tells the server (unless it is initialize) and rejects it. */
  private giveUp(request: PendingRequest, reason: string, outcome: McpRequestOutcome, error: (how: CancelledHow) => Error): void {
    if (this.pending.get(request.id) !== request) return;
    // Before settling, which forgets the request's stream: closing it is how 2026-07-28 over HTTP cancels.
    const streamClosed = request.cancellable && !this.closed && this.cancelOnWire(request.id, reason);
    const failure = error(streamClosed ? "stream-closed" : "notified");
    this.settle(request, outcome, failure);
    this.pending.rememberGiveUp(request.id);
    if (request.cancellable && !this.closed && !streamClosed) {
      this.notify("notifications/cancelled", { requestId: request.id, reason }).catch(() => undefined);
    }
    request.reject(failure);
  }

  /** Whether an interceptor cancelled the request the wire's own way. */
  private cancelOnWire(id: JsonRpcId, reason: string): boolean {
    for (const interceptor of this.interceptors) if (interceptor.cancel?.(id, reason) === true) return true;
    return false;
  }

  /** Every way a request ends comes here once, saying how (the response, or the outcome and the error). */
  private settle(request: PendingRequest, end: JsonObject | McpRequestOutcome, cause?: unknown): void {
    this.pending.remove(request);
    for (const interceptor of this.interceptors) interceptor.ended?.(request.id, end, cause);
  }

  /** A transport error: a protocol failure if the transport says so; other errors are in the recorder. */
  private transportError(error: Error): void {
    const protocolError = this.options.classifyError(error);
    if (protocolError !== undefined) this.fail(protocolError);
    for (const listener of this.wireEndListeners) listener(error);
  }

  /** A protocol failure (or the maker of one): kept while few, counted always; it fails every request in flight. */
  private fail(failure: ProtocolError | (() => ProtocolError)): void {
    this.protocolErrorCount++;
    if (this.protocolErrors.length < keptProtocolErrors) {
      const error = typeof failure === "function" ? failure() : failure;
      // Formatting the stack now drops the frames V8 keeps until then, and with them the
      // objects (this channel among them) that a kept error would otherwise hold alive.
      void error.stack;
      this.protocolErrors.push(error);
    }
    if (this.pending.size === 0) return;
    const first = this.protocolErrors[0]!;
    for (const request of this.pending.all()) {
      this.settle(request, "protocol_error", first);
      request.reject(first);
    }
  }

  /** Sends on the wire; the tap is told first, as a peer in the same process may answer within send. */
  private sendOut(transport: RecordingTransport, message: JSONRPCMessage): ReturnType<RecordingTransport["send"]> {
    this.options.tap?.sent(message);
    return transport.send(message);
  }

  private receive(message: unknown): void {
    const problems = this.incomingProblems ?? NO_PROBLEMS;
    this.options.tap?.received(message, problems);
    this.incomingProblems = undefined;
    classifyInbound(message, problems, this.act);
  }

  /** What the channel does with each kind of message. */
  private readonly act = (inbound: InboundMessage): void => {
    switch (inbound.kind) {
      case "request":
        return void this.incoming.answer(inbound.id, inbound.method, inbound.params, inbound.problems);
      case "notification":
        return this.receiveNotification(inbound.method, inbound.params, inbound.problems);
      case "response":
        return this.receiveResponse(inbound.message, inbound.problems);
      case "invalid":
        return this.fail(() => invalidMessageError(inbound.what, inbound.message, inbound.problems, this.options.processContext()));
    }
  };

  private receiveResponse(message: JsonObject, problems: readonly MessageProblem[]): void {
    const id = message.id;
    const request = this.pending.get(id);
    if (request === undefined) return this.unmatchedResponse(message, problems);
    const blocking = problems.length === 0 ? problems : problems.filter((problem) => problem.rule !== "version.unknown" && (this.options.strict || isEnvelopeProblem(problem)));
    if (blocking.length > 0) {
      const version = this.recorder.protocolVersion ?? LATEST_PROTOCOL_VERSION;
      const failure = new ProtocolError(
        `${request.label} (id ${request.id}): the server's response breaks the MCP ${version} schema:\n` + `${formatProblems(blocking)}\n  response: ${clipCounted(safeJson(message), 500)}`,
        { method: request.method, id: request.id, problems: blocking, response: message, process: this.options.processContext() },
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

  /** A response to no request in flight: late (one given up on), or a protocol failure. */
  private unmatchedResponse(message: JsonObject, problems: readonly MessageProblem[]): void {
    if (this.pending.wasGivenUp(message.id)) return;
    this.fail(() => unmatchedResponseError(message, problems, this.pending.describe(), this.options.processContext()));
  }

  private receiveNotification(method: string, params: JsonObject | undefined, problems: readonly MessageProblem[]): void {
    if (method === "notifications/progress" && params !== undefined) {
      const request = this.pending.progressOf(params.progressToken);
      if (request) {
        this.pending.progressed(request);
        try {
          request.onProgress!(params as ProgressParams);
        } catch {
          // A throwing progress callback is the test's problem, not the channel's.
        }
      }
    } else if (method === "notifications/cancelled" && params !== undefined) {
      this.incoming.cancelled(params.requestId as JsonRpcId, params.reason);
    }
    const notification: ReceivedNotification = { method, params, timestamp: Date.now(), problems };
    for (const listener of this.notificationListeners) listener(notification);
  }
}
