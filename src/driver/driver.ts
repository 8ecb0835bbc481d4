/**
 * The driver: a client session for testing a real MCP server (or a mock) over any wire. It speaks
 * MCP as a good client does: it answers the server's requests, follows `list_changed`, pages
 * through lists, cancels what times out, and turns whatever the server got wrong into an error
 * that names the method, the JSON path and what was expected.
 *
 * `McpDriver` is a facade; each job is a part of its own:
 * - `RpcSession` (session.ts): JSON-RPC requests, responses, timeouts, the traffic record;
 * - `Negotiation` (negotiation.ts): the handshake every call waits for — `initialize`, or
 *   `server/discover` (discover-negotiation.ts) with `_meta` on every request in 2026-07-28;
 * - input rounds (input-rounds.ts): 2026-07-28's `input_required` results answered and retried;
 * - `ListCache` (list-cache.ts): the four lists, every page, until `list_changed`;
 * - `NotificationInbox` (inbox.ts): notifications kept, waited for, listened to;
 * - `ServerRequestAnswers` (server-requests.ts): roots, sampling, elicitation, ping;
 * - `ConnectionLifetime` (lifetime.ts): the process or connection, its end, and its errors.
 */
import { ErrorCode } from "../protocol/errors.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  ClientCapabilities,
  CompleteResult,
  InitializeResult,
  LoggingLevel,
  Prompt,
  PromptReference,
  Resource,
  ResourceTemplate,
  ResourceTemplateReference,
  Root,
  ServerCapabilities,
  Tool,
  Implementation,
} from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import type { TrafficRecorder } from "../inspect/recorder.js";
import type { TrafficProblem, TrafficRecord } from "../inspect/types.js";
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { ListKind } from "../protocol/list-kinds.js";
import { FEATURES, LATEST_PROTOCOL_VERSION, versionHas, type Feature } from "../protocol/versions.js";
import { RpcError } from "../protocol/rpc-error.js";
import { McpDriverError, PromptCallError, ProtocolError, RequestTimeoutError, ResourceCallError, ToolCallError, type ProcessContext } from "./errors.js";
import { NotificationInbox, type WaitForNotificationOptions } from "./inbox.js";
import { ConnectionLifetime, type CloseOptions } from "./lifetime.js";
import { ListCache } from "./list-cache.js";
import { ListChangeFollower } from "./list-changes.js";
import { DRIVER_MARKER } from "./markers.js";
import { checkNegotiation, DiscoverNegotiation, negotiationMode, type DiscoverResult, type DriverEra } from "./discover-negotiation.js";
import { isInputMethod } from "../protocol/methods.js";
import { withInputRounds } from "./input-rounds.js";
import type { ModernHttpFetch } from "./modern-http.js";
import { InitializeNegotiation, ResumedNegotiation, type Negotiation } from "./negotiation.js";
import { DEFAULT_CLOSE_TIMEOUT, DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_REQUEST_TIMEOUT, type DriverOptions, type InitializeParams } from "./options.js";
import { Subscription, type ListenFilter } from "./subscription.js";
import { invalidHeaderAnnotation } from "./tool-headers.js";
import { GetPromptResult, ReadResourceResult, ToolCallResult } from "./results.js";
import { checkRoots, ServerRequestAnswers } from "./server-requests.js";
import { abortedBeforeSending, defaultErrorFor, describeErrorObject, RpcSession, type CallOptions, type ErrorFor, type FailedRequest, type JsonObject, type ReceivedNotification, type RequestSpec, type ServerRequestContext, type CallServerRequestHandler } from "./session.js";
import { StdioProcessTransport } from "./stdio-process.js";
import { DriverObservation } from "./observed-session.js";
import { TraceMeta } from "./trace-meta.js";
import { connectionRefusal, sdkTransportErrors, type ErrorClassifier } from "./transport-errors.js";
import { checkKeys, checkValueKinds } from "../engine/spec-checks.js";
import { timerMsProblem } from "../util/timer-ms.js";
import { typeLabel } from "../util/text.js";

export type { WaitForNotificationOptions } from "./inbox.js";
export type { DiscoverResult, DriverEra } from "./discover-negotiation.js";
export type { ListenFilter, SubscriptionEnd } from "./subscription.js";
export { Subscription } from "./subscription.js";
export type { CloseOptions } from "./lifetime.js";

/** How the driver reaches its server. */
export interface DriverConnection {
  kind: "stdio" | "http" | "attached";
  /** The command or URL, for messages. */
  target: string;
  transport: Transport | PromiseLike<Transport>;
  /** The spawned server, for `kind: "stdio"`. */
  process?: StdioProcessTransport;
  /** Closes the wire (ends an HTTP session). Without it the transport's `close()` is called. */
  closeWire?: () => Promise<void>;
  /** Which of the transport's errors mean the server broke the protocol (default: the SDK transports'). */
  classifyError?: ErrorClassifier;
  /** Streamable HTTP: the per-request headers and streams of 2026-07-28 (mcpConnect). */
  modernHttp?: ModernHttpFetch;
  /** Streamable HTTP: the connection goes on a session begun elsewhere (its initialize is done). */
  resumesSession?: boolean;
}

/** A tool a client over HTTP must leave out of `tools/list` (2026-07-28: an invalid `x-mcp-header`). */
/** A legacy request in flight with its own `onServerRequest`, and its id once it was written. */
interface CallHandlerEntry {
  readonly label: string;
  readonly handler: CallServerRequestHandler;
  id: JsonRpcId | undefined;
}

export interface RejectedTool {
  name: string;
  reason: string;
}



export interface ListOptions {
  /** Ask the server again even if the list is cached (lists refresh by themselves on `list_changed`). */
  refresh?: boolean;
}

export type CompletionReference = PromptReference | ResourceTemplateReference;

export class McpDriver implements AsyncDisposable {
  declare readonly [DRIVER_MARKER]: true;
  /** `"stdio"` (mcpShell), `"http"` (mcpConnect) or `"attached"` (mcpAttach). */
  readonly kind: DriverConnection["kind"];
  /** The command or URL of the server. */
  readonly target: string;
  readonly requestTimeout: number;

  private readonly session: RpcSession;
  private readonly negotiation: Negotiation;
  /** The `server/discover` handshake, unless the options ask for `legacy`. */
  private readonly discovery: DiscoverNegotiation | undefined;
  private readonly modernHttp: ModernHttpFetch | undefined;
  private readonly maxInputRounds: number;
  private readonly rejected: RejectedTool[] = [];
  private readonly lists: ListCache;
  /** 2026-07-28: the subscription that brings list_changed (undefined with `followListChanges: false`). */
  private readonly listChanges: ListChangeFollower | undefined;
  private readonly inbox: NotificationInbox;
  private readonly answers: ServerRequestAnswers;
  /** The legacy-era calls in flight with their own `onServerRequest`. */
  private readonly callHandlers = new Set<CallHandlerEntry>();
  private readonly lifetime: ConnectionLifetime;
  /** Aborts when the driver closes: what waits on the caller between MRTR rounds stops then. */
  private readonly closing = new AbortController();
  private readonly process: StdioProcessTransport | undefined;
  /** The errors for JSON-RPC error answers to the calls that have their own error class. */
  private readonly failures: ReturnType<typeof callFailures>;

  constructor(connection: DriverConnection, options: DriverOptions = {}) {
    checkOptions(options);
    this.kind = connection.kind;
    this.modernHttp = connection.modernHttp;
    if (this.modernHttp) this.modernHttp.onStreamEnd = (id, why) => this.session.answerLost(id, why);
    this.maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.target = connection.target;
    this.process = connection.process;
    this.requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const processContext = (): ProcessContext | undefined => this.process?.context();
    this.answers = new ServerRequestAnswers(options);
    this.failures = callFailures(processContext);
    this.listChanges = options.followListChanges === false ? undefined : new ListChangeFollower((filter) => this.subscribe(filter, this.requestTimeout), () => this.lists.noticeAll());
    this.lists = new ListCache((method, params, spec) => this.send(method, params, spec), processContext, () => this.followListChanges());
    this.inbox = new NotificationInbox(options.maxRecords ?? 10_000, this.requestTimeout, processContext);
    const traceMeta = options.traceContext === false ? undefined : new TraceMeta();
    const observation = observationOf(connection, options, () => this.session);
    this.session = new RpcSession(
      // The first request waits for the OpenTelemetry API's import, so it carries trace context too.
      traceMeta === undefined ? connection.transport : traceMeta.loaded.then(() => connection.transport),
      {
        handleRequest: (method, params, context) => this.answerServerRequest(method, params, context),
        handleNotification: (notification) => {
          this.lists.notice(notification.method);
          this.inbox.receive(notification);
        },
        closedError: (method, id, label) => this.lifetime.closedError(method, id, label),
        processContext,
        classifyError: connection.classifyError ?? sdkTransportErrors,
        requestMeta: () => this.negotiation.requestMeta(),
        // On HTTP a modern request is cancelled by closing its stream (no notifications/cancelled).
        cancelRequest: (id, reason) => this.modernHttp?.closeStream(id, reason) ?? false,
        settled: (id) => this.modernHttp?.settled(id),
        ...(traceMeta === undefined ? {} : { traceMeta: () => traceMeta.current() }),
        ...(observation === undefined ? {} : { watcher: observation }),
        wireEnded: () => {
          this.lifetime.serverEnded();
          this.inbox.serverGone(connection.kind === "stdio" ? "its process exited or closed its stdout" : "its connection closed");
        },
        refusedAt: (error) => (connection.kind === "http" && connectionRefusal(error) !== undefined ? this.target : undefined),
        wireError: (error) => {
          // Over HTTP there is no connection to close: a refused connection is how a gone server shows.
          const refusal = connection.kind === "http" ? connectionRefusal(error) : undefined;
          if (refusal === undefined) return;
          this.lifetime.serverEnded(refusal);
          this.inbox.serverGone(`its URL refused a connection: ${refusal}`);
        },
      },
      { requestTimeout: this.requestTimeout, strict: options.strict ?? true, ...(options.maxRecords === undefined ? {} : { maxRecords: options.maxRecords }) },
    );
    const implied = (version: string) => this.answers.impliedCapabilities(version);
    const mode = negotiationMode(options);
    const initialize = new InitializeNegotiation(this.session, options, implied, processContext, mode === "legacy");
    // A session begun elsewhere (mcpConnect's sessionId) is a legacy one whose initialize is done.
    const resumedVersion = connection.resumesSession ? (options.protocolVersion ?? LATEST_PROTOCOL_VERSION) : undefined;
    this.discovery = mode === "legacy" || resumedVersion !== undefined ? undefined : new DiscoverNegotiation(this.session, options, mode, implied, processContext, initialize);
    this.negotiation = resumedVersion !== undefined ? new ResumedNegotiation(this.session, resumedVersion, implied(resumedVersion)) : (this.discovery ?? initialize);
    this.lifetime = new ConnectionLifetime(this.session, this.target, this.process, connection.closeWire, () => this.negotiation.result !== undefined, observation);
    if (observation !== undefined) {
      observation.willStart();
      void this.session.startFailure().then((failure) => observation.started(failure));
    }
  }

  // ── Lifecycle ──────────────────────────────────────────────────────────────────────────────

  /**
   * The MCP handshake. Legacy era: sends `initialize` (your `params` over the defaults: the latest
   * protocol version, the capabilities the options imply, `clientInfo`), checks the answer, then
   * sends `notifications/initialized`. 2026-07-28 (`versionNegotiation` auto or a pin): asks
   * `server/discover` and resolves with its answer in the same shape (version, capabilities,
   * serverInfo, instructions; the raw result is `discoverResult`); `params` then set the
   * capabilities and `clientInfo` every request's `_meta` carries. Calling it again returns the
   * same result. Every other method does it implicitly, so calling it is only needed to pass
   * params or to test the handshake.
   */
  async initialize(params: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    this.assertOpen("initialize");
    return await this.negotiation.negotiate(params);
  }

  isInitialized(): boolean {
    return this.negotiation.result !== undefined;
  }

  getInitializeResult(): InitializeResult | undefined {
    return this.negotiation.result;
  }

  /**
   * The era spoken once the handshake is done: `"modern"` (2026-07-28: `server/discover`, `_meta`
   * on every request, no session) or `"legacy"` (`initialize`); undefined before.
   */
  get era(): DriverEra | undefined {
    if (this.negotiation.result === undefined) return undefined;
    return this.discovery?.era ?? "legacy";
  }

  /** The server's `server/discover` result (modern era), once the handshake is done. */
  get discoverResult(): DiscoverResult | undefined {
    return this.discovery?.discoverResult;
  }

  /** Why `versionNegotiation: "auto"` fell back to `initialize`, when it did. */
  get fallbackReason(): string | undefined {
    return this.discovery?.fallbackReason;
  }

  /**
   * Tools left out of `getTools()` because their `x-mcp-header` annotations are invalid (a
   * client over HTTP must exclude them in 2026-07-28), with the reason.
   */
  get rejectedTools(): RejectedTool[] {
    return [...this.rejected];
  }

  /** The negotiated protocol version, once initialized. */
  get protocolVersion(): string | undefined {
    return this.negotiation.result?.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.negotiation.result?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.negotiation.result?.capabilities;
  }

  /** The Streamable HTTP session id (`Mcp-Session-Id`), once the server has given one. */
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  /** The capabilities this client declared (or will declare) in `initialize`. */
  get clientCapabilities(): ClientCapabilities {
    return this.negotiation.clientCapabilities;
  }

  async supportsTools(): Promise<boolean> {
    return (await this.ready("supportsTools")).capabilities.tools !== undefined;
  }

  async supportsResources(): Promise<boolean> {
    return (await this.ready("supportsResources")).capabilities.resources !== undefined;
  }

  async supportsPrompts(): Promise<boolean> {
    return (await this.ready("supportsPrompts")).capabilities.prompts !== undefined;
  }

  /**
   * Ends the session. For a spawned server: closes its stdin and waits up to `timeoutMs` for it to
   * exit. Still running then → its whole process tree is killed and `ProcessDidNotExit` is thrown;
   * a non-zero exit code (or a signal we did not send) → `ProcessExitedWithError`; with
   * `{ allowFailure: true }` neither throws (see `closeError`, `exitCode`). Either way no process
   * is left behind. For HTTP the session is ended (DELETE) and the connection closed. Requests
   * still in flight are rejected. Calling it again closes nothing more.
   */
  close(options: number | CloseOptions = {}): Promise<void> {
    const { timeoutMs = DEFAULT_CLOSE_TIMEOUT, allowFailure = false } = typeof options === "number" ? { timeoutMs: options } : options;
    const problem = timerMsProblem("timeoutMs", timeoutMs);
    if (problem !== undefined) return Promise.reject(new McpTestkitError(`close()'s options: ${problem}.`));
    this.closing.abort(new Error("the driver was closed"));
    return this.lifetime.close({ timeoutMs, allowFailure }, () => this.inbox.close(), () => this.endListChanges(timeoutMs));
  }

  /**
   * For `await using`: closes, and never leaves a process behind. It never throws either: a
   * server that ends badly is kept in `closeError` and said on stderr, so that it cannot hide the
   * test's own failure. Call `close()` in the test to fail it on a bad exit.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    this.closing.abort(new Error("the driver was closed"));
    await this.lifetime.dispose(DEFAULT_CLOSE_TIMEOUT, () => this.inbox.close(), () => this.endListChanges(DEFAULT_CLOSE_TIMEOUT));
  }

  /** What `close()` (or the disposal) found wrong with how the server ended: a non-zero exit, a signal, a kill at the timeout. */
  get closeError(): McpDriverError | undefined {
    return this.lifetime.closeError;
  }

  /** Resolves with the server's exit code (128 + the signal number if a signal ended it). Stdio only. */
  async waitForExit(): Promise<number> {
    const process = this.requireProcess("waitForExit");
    return StdioProcessTransport.exitNumber(await process.exited);
  }

  /** Ends the server's whole process tree now (default SIGKILL), without closing stdin first. Stdio only. */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.requireProcess("kill").kill(signal);
  }

  /** The spawned server's pid (stdio only). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** The exit code once the spawned server has exited (null if a signal ended it); undefined while it runs. */
  get exitCode(): number | null | undefined {
    return this.process?.exit?.code;
  }

  /** The signal that ended the spawned server (null if it exited by itself); undefined while it runs. */
  get exitSignal(): NodeJS.Signals | null | undefined {
    return this.process?.exit?.signal;
  }

  /** The last lines the spawned server wrote to stderr. */
  get stderr(): string[] {
    return this.process?.stderr ?? [];
  }

  /** The last lines the spawned server wrote to stdout (JSON-RPC included). */
  get stdout(): string[] {
    return this.process?.stdout ?? [];
  }

  // ── Lists ──────────────────────────────────────────────────────────────────────────────────

  /** Every tool, across all pages. Cached until the server says `notifications/tools/list_changed`. */
  getTools(options: ListOptions = {}): Promise<Tool[]> {
    return this.list<Tool>("tools", options);
  }

  getResources(options: ListOptions = {}): Promise<Resource[]> {
    return this.list<Resource>("resources", options);
  }

  getResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return this.list<ResourceTemplate>("resourceTemplates", options);
  }

  getPrompts(options: ListOptions = {}): Promise<Prompt[]> {
    return this.list<Prompt>("prompts", options);
  }

  async hasTool(name: string): Promise<boolean> {
    return (await this.getTools()).some((tool) => tool.name === name);
  }

  /** Whether a resource has that name or URI. */
  async hasResource(nameOrUri: string): Promise<boolean> {
    return (await this.getResources()).some((resource) => resource.name === nameOrUri || resource.uri === nameOrUri);
  }

  /** Whether a resource template has that name or URI template. */
  async hasResourceTemplate(nameOrUriTemplate: string): Promise<boolean> {
    return (await this.getResourceTemplates()).some((template) => template.name === nameOrUriTemplate || template.uriTemplate === nameOrUriTemplate);
  }

  async hasPrompt(name: string): Promise<boolean> {
    return (await this.getPrompts()).some((prompt) => prompt.name === name);
  }

  // ── Calls ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Calls a tool. A JSON-RPC error throws `ToolCallError`; a tool that reports failure in its
   * result (`isError: true`) does not throw: check `result.isError` or call `expectSuccess()`.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolCallResult> {
    this.assertOpen("callTool", options);
    const result = await this.send(
      "tools/call",
      { name, arguments: args },
      {
        ...options,
        label: `tools/call "${name}"`,
        subject: name,
        errorFor: (error, context) => this.failures.tool(error, context, rejectionHint(error, this.rejected.find((entry) => entry.name === name))),
      },
    );
    return new ToolCallResult(result, name);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    this.assertOpen("readResource", options);
    const result = await this.send("resources/read", { uri }, { ...options, label: `resources/read ${JSON.stringify(uri)}`, subject: uri, errorFor: this.failures.resource });
    return new ReadResourceResult(result, uri);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    this.assertOpen("getPrompt", options);
    const result = await this.send(
      "prompts/get",
      { name, arguments: args },
      {
        ...options,
        label: `prompts/get "${name}"`,
        subject: name,
        errorFor: this.failures.prompt,
      },
    );
    return new GetPromptResult(result, name);
  }

  /** `completion/complete`: suggestions for an argument of a prompt or a resource template. */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    this.assertOpen("complete", options);
    const params: JsonObject = { ref, argument, ...(context === undefined ? {} : { context }) };
    return (await this.send("completion/complete", params, options)) as CompleteResult;
  }

  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    this.assertOpen("setLoggingLevel", options);
    await this.send("logging/setLevel", { level }, { ...options, errorFor: this.legacyOnly("loggingSetLevel", 'in 2026-07-28 a log level goes in each request\'s _meta ("io.modelcontextprotocol/logLevel"); use versionNegotiation "legacy" to test logging/setLevel') });
  }

  /** Asks for `notifications/resources/updated` about a resource (see `waitForNotification`). */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("subscribeResource", options);
    await this.send("resources/subscribe", { uri }, { ...options, subject: uri, errorFor: this.legacyOnly("resourcesSubscribe", "use listen({ resourceSubscriptions: [uri] }) (subscriptions/listen) instead, or versionNegotiation \"legacy\"", this.failures.resource) });
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("unsubscribeResource", options);
    await this.send("resources/unsubscribe", { uri }, { ...options, subject: uri, errorFor: this.legacyOnly("resourcesSubscribe", "end the subscriptions/listen stream (close what listen() gave) instead, or use versionNegotiation \"legacy\"", this.failures.resource) });
  }

  async ping(options: CallOptions = {}): Promise<void> {
    this.assertOpen("ping", options);
    await this.send("ping", undefined, { ...options, errorFor: this.legacyOnly("ping", 'use versionNegotiation "legacy" to test ping against a server that also speaks the legacy era') });
  }

  /**
   * `server/discover` (2026-07-28): the server's versions, capabilities and identity, asked
   * again (the handshake asked it already; see `discoverResult`). Modern era only.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    this.assertOpen("discover", options);
    await this.requireModern("discover", "serverDiscover");
    return (await this.send("server/discover", undefined, { ...options, label: "server/discover" })) as DiscoverResult;
  }

  /**
   * `subscriptions/listen` (2026-07-28): a subscription to list changes and resource updates.
   * Its `acknowledged` resolves with the filter the server agreed to; its `notifications` are
   * those tagged with its id (they are in `notifications` and `waitForNotification` too);
   * `close()` ends it. Modern era only (the legacy era has `subscribeResource`).
   * `acknowledgeTimeoutMs` (default `requestTimeout`, at most 2147483647: a longer one is
   * refused) bounds the wait for the server's acknowledgement.
   */
  async listen(filter: ListenFilter, options: { acknowledgeTimeoutMs?: number } = {}): Promise<Subscription> {
    this.assertOpen("listen");
    const problem = options.acknowledgeTimeoutMs === undefined ? undefined : timerMsProblem("acknowledgeTimeoutMs", options.acknowledgeTimeoutMs, { min: 1 });
    if (problem !== undefined) throw new McpTestkitError(`listen()'s options: ${problem}.`);
    await this.requireModern("listen", "subscriptionsListen");
    return this.subscribe(filter, options.acknowledgeTimeoutMs ?? this.requestTimeout);
  }

  /**
   * 2026-07-28 (`followListChanges`, on by default): the `subscriptions/listen` the driver opened
   * itself for the lists the server says change, while it is open. Its notifications reach the
   * list cache and `notifications` as the legacy era's do.
   */
  get listChangeSubscription(): Subscription | undefined {
    return this.listChanges?.subscription;
  }

  /** Why the lists are not followed in 2026-07-28: the server refused that subscription (an error, or no acknowledgement in time). */
  get listChangeFailure(): Error | undefined {
    return this.listChanges?.failure;
  }

  /**
   * Any request, as is: no implicit `initialize`, the result validated like every other and
   * returned raw. A JSON-RPC error throws `RequestFailedError` (with `code`, `serverMessage`, `data`).
   */
  async request(method: string, params?: JsonObject, options: CallOptions = {}): Promise<JsonObject> {
    this.assertOpen("request", options);
    return await this.withCallHandler({ ...options, label: method }, () => this.session.request(method, params, options));
  }

  /** Sends any notification, as is. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    this.assertOpen("notify");
    await this.session.notify(method, params);
  }

  /** Replaces the roots and tells the server (`notifications/roots/list_changed`) if initialized. */
  async setRoots(roots: Root[]): Promise<void> {
    this.assertOpen("setRoots");
    this.answers.setRoots(roots, this.negotiation.started);
    // Only once a version is spoken, and only one that has it (2026-07-28 asks for roots in each request's input).
    if (this.speaks("rootsListChanged")) await this.session.notify("notifications/roots/list_changed");
  }

  // ── Notifications ─────────────────────────────────────────────────────────────────────────

  /** Every notification from the server since the start (or `clearNotifications()`), oldest first. */
  get notifications(): ReceivedNotification[] {
    return this.inbox.all;
  }

  /** Forgets the notifications received so far (waits then only see newer ones). */
  clearNotifications(): void {
    this.inbox.clear();
  }

  /**
   * Resolves with the first notification of `method` (passing `where`) received since the start
   * or `clearNotifications()`, waiting for it if needed.
   */
  async waitForNotification(method: string, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification> {
    this.assertOpen("waitForNotification");
    return (await this.inbox.waitFor(method, 1, options, "waitForNotification"))[0]!;
  }

  /** Resolves with the first `count` notifications of `method` (passing `where`), waiting for them if needed. */
  async waitForNotifications(method: string, count: number, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification[]> {
    this.assertOpen("waitForNotifications");
    return await this.inbox.waitFor(method, count, options);
  }

  /** Calls `listener` for each notification of `method` (`"*"` for all) from now on; returns an unsubscribe function. */
  onNotification(method: string, listener: (notification: ReceivedNotification) => void): () => void {
    return this.inbox.listen(method, listener);
  }

  // ── Traffic and validation ────────────────────────────────────────────────────────────────

  /** The recorder that saw every message both ways, with methods, latencies and problems. */
  get recorder(): TrafficRecorder {
    return this.session.recorder;
  }

  /** Every message recorded, both ways, oldest first. */
  get messages(): TrafficRecord[] {
    return this.session.recorder.messages;
  }

  /** Schema problems found in messages from the server (in results, notifications and requests). */
  get problems(): TrafficProblem[] {
    return this.session.recorder.problems.filter((problem) => problem.direction === "incoming");
  }

  /**
   * Protocol failures seen (output that is not JSON-RPC, responses to no request), oldest first.
   * The first ones are kept (a server writing garbage in a loop must not fill the memory);
   * `protocolErrorCount` counts them all.
   */
  get protocolErrors(): ProtocolError[] {
    return [...this.session.protocolErrors];
  }

  /** How many protocol failures were seen, kept or not. */
  get protocolErrorCount(): number {
    return this.session.protocolErrorCount;
  }

  /** Throws the first protocol failure, or a `ProtocolError` listing every schema problem in what the server sent. */
  assertNoProtocolError(): void {
    this.session.throwIfBroken();
    const problems = this.problems;
    if (problems.length > 0) {
      throw new ProtocolError(
        `The server sent ${problems.length} message problem${problems.length === 1 ? "" : "s"}:\n` +
          problems.map((problem) => `  - ${problem.method ?? "(no method)"}${problem.id === undefined ? "" : ` (id ${JSON.stringify(problem.id)})`} ${problem.path}: ${problem.message} [${problem.rule}]`).join("\n"),
        { problems, process: this.process?.context() },
      );
    }
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────

  /** One `subscriptions/listen`, its request sent at once (the session is ready). */
  private subscribe(filter: ListenFilter, acknowledgeTimeoutMs: number): Subscription {
    return new Subscription(
      (listener) => this.inbox.listen("*", listener),
      (signal, onId) => this.send("subscriptions/listen", { notifications: filter }, { label: "subscriptions/listen", signal, onId, timeoutMs: Infinity }),
      acknowledgeTimeoutMs,
    );
  }

  /**
   * As a list fetch starts: in 2026-07-28, make sure the lists are followed (see list-changes.ts).
   * Its listen request goes out before the list's (both wait for the same handshake).
   */
  private followListChanges(): Promise<void> | undefined {
    const follower = this.listChanges;
    if (follower === undefined || this.discovery === undefined) return undefined;
    const start = (result: InitializeResult) => (this.speaks("subscriptionsListen") && !this.lifetime.isClosing ? follower.follow(result.capabilities) : undefined);
    const ready = this.negotiation.ready();
    // A failed handshake fails the list's own request; here there is nothing to follow.
    return ready instanceof Promise ? ready.then(start, () => undefined) : start(ready);
  }

  /** Ends the driver's own subscription before the connection goes, so no request is left open. */
  private async endListChanges(timeoutMs: number): Promise<void> {
    await this.listChanges?.close(timeoutMs);
  }

  /** The handshake's answer, after the checks every call makes (open, not broken). */
  private ready(what: string): InitializeResult | Promise<InitializeResult> {
    this.assertOpen(what);
    this.session.throwIfBroken();
    return this.negotiation.ready();
  }

  /**
   * Every MCP request but `request()`'s goes out here, once the handshake is done. Once it is
   * (every call but the first), the request goes out without waiting a tick.
   */
  private send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    this.session.throwIfBroken(spec.label ?? method);
    const ready = this.negotiation.ready();
    if (ready instanceof Promise) return ready.then(() => this.sendNow(method, params, spec));
    return this.sendNow(method, params, spec);
  }

  /** A request once the version is known: with MRTR (2026-07-28) the three that may ask for input go through the input rounds. */
  private sendNow(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    if (!isInputMethod(method) || !this.speaks("mrtr")) return this.withCallHandler(spec, (sent) => this.session.request(method, params, sent));
    return this.sendModern(method, params ?? {}, spec);
  }

  /** A legacy-era request with its own `onServerRequest`: in flight as the call the server's requests may belong to. */
  private withCallHandler(spec: RequestSpec, send: (spec: RequestSpec) => Promise<JsonObject>): Promise<JsonObject> {
    const handler = spec.onServerRequest;
    if (handler === undefined) return send(spec);
    const entry: CallHandlerEntry = { label: spec.label ?? "a request", handler, id: undefined };
    this.callHandlers.add(entry);
    const sent = send({ ...spec, onId: (id) => ((entry.id = id), spec.onId?.(id)) });
    void sent.then(
      () => this.callHandlers.delete(entry),
      () => this.callHandlers.delete(entry),
    );
    return sent;
  }

  /**
   * The call a legacy server request belongs to, when it has its own `onServerRequest`: the one
   * request in flight that could have caused it (a tools/call, resources/read or prompts/get).
   * With others in flight beside a call that has a handler, nothing on the wire says which one
   * the request serves: refused, so no call gets an answer meant for another. None with a
   * handler: the driver's own handlers answer.
   */
  private callHandlerFor(method: string): CallHandlerEntry | undefined {
    if (this.callHandlers.size === 0) return undefined;
    const inFlight = this.session.pendingWhere(isInputMethod);
    const [only] = this.callHandlers;
    if (this.callHandlers.size === 1 && inFlight.length === 1 && inFlight[0]!.id === only!.id) return only;
    const labels = inFlight.map((request) => request.label).join(", ");
    throw new RpcError(
      ErrorCode.InternalError,
      `mcp-testkit: the server sent ${method} while ${inFlight.length} requests were in flight (${labels}), ${this.callHandlers.size} of them with their own onServerRequest; a server request in this protocol version does not say which call it belongs to, so the driver answered none of them. Make a call that has its own onServerRequest alone.`,
    );
  }

  private async sendModern(method: string, params: JsonObject, spec: RequestSpec): Promise<JsonObject> {
    const label = spec.label ?? method;
    const timeoutMs = spec.timeoutMs ?? this.requestTimeout;
    // Mcp-Param-* headers come from the tool's schema, so over HTTP the tools are listed first (again after a list_changed).
    if (method === "tools/call" && this.modernHttp && (!this.modernHttp.toolSchemas.has(params.name as string) || this.lists.changedSinceFetch("tools"))) {
      await boundedByCall(
        this.getTools().catch(() => undefined),
        { label, timeoutMs, signal: spec.signal, doing: "listing the tools for its Mcp-Param headers", processContext: () => this.process?.context() },
      );
    }
    // Between rounds the call waits on the caller's handlers: its signal, its timeout and close() bound that wait too;
    // with its own onServerRequest only its signal and close() (that wait is the caller's, as in the legacy era).
    // Not AbortSignal.any: on Node 20 the driver's long-lived closing signal would keep every call's combined signal.
    const linked = spec.signal === undefined ? undefined : eitherAborts(spec.signal, this.closing.signal);
    try {
      return await withInputRounds((round) => this.session.request(method, round, spec), params, {
        label,
        maxRounds: this.maxInputRounds,
        answer: (inputMethod, inputParams, context) => this.answers.answerFor(spec.onServerRequest, inputMethod, inputParams, context),
        processContext: () => this.process?.context(),
        signal: linked?.signal ?? this.closing.signal,
        answerTimeoutMs: spec.onServerRequest === undefined ? timeoutMs : undefined,
      });
    } finally {
      linked?.release();
    }
  }

  /**
   * A legacy-era request a 2026-07-28 server refused as unknown (-32601): the error says the
   * revision this driver speaks removed it, and what to use instead.
   */
  private legacyOnly(feature: Feature, instead: string, errorFor: ErrorFor = defaultErrorFor): ErrorFor {
    return (error, context) => {
      const failure = errorFor(error, context);
      if (error.code === ErrorCode.MethodNotFound && this.protocolVersion !== undefined && !this.speaks(feature)) {
        failure.message += `. ${this.protocolVersion}, which this driver speaks, has no ${FEATURES[feature].what}: ${instead}`;
      }
      return failure;
    };
  }

  /** A request from the server: answered, unless the revision spoken has none (2026-07-28 asks for input in results). */
  private answerServerRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    if (this.protocolVersion !== undefined && !this.speaks("serverRequests")) {
      return Promise.reject(
        new RpcError(ErrorCode.MethodNotFound, `mcp-testkit: ${this.protocolVersion} has no server-to-client requests (a server asks for input in an input_required result), so this client does not answer ${method}`),
      );
    }
    const call = this.callHandlerFor(method);
    if (call === undefined) return this.answers.answer(method, params, context);
    // The server waits on the call's handler now, not the other way round: its timeout waits too.
    const release = call.id === undefined ? undefined : this.session.holdDeadline(call.id);
    return this.answers.answerFor(call.handler, method, params, context).finally(release);
  }

  /** Whether the negotiated version has `feature` (false before the handshake): the era as data, asked per feature. */
  private speaks(feature: Feature): boolean {
    const version = this.protocolVersion;
    return version !== undefined && versionHas(version, feature);
  }

  /** Fails unless the negotiated version has `feature` (a 2026-07-28 method). */
  private async requireModern(what: string, feature: Feature): Promise<void> {
    await this.ready(what);
    if (!this.speaks(feature)) {
      throw new McpTestkitError(
        `${what}() is part of protocol revision 2026-07-28, but this driver speaks ${this.protocolVersion} (legacy era${this.fallbackReason ? `: ${this.fallbackReason}` : ""}). ` +
          `Against a 2026-07-28 server use versionNegotiation "auto" (the default) or { pin: "2026-07-28" }.`,
      );
    }
  }

  private list<T>(kind: ListKind, options: ListOptions): Promise<T[]> {
    this.assertOpen(`get${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    const items = this.lists.get<T>(kind, options.refresh === true);
    return kind === "tools" && this.modernHttp ? (items.then((tools) => this.acceptTools(tools as Tool[])) as Promise<T[]>) : items;
  }

  /**
   * Over HTTP: the tools' schemas are kept for the Mcp-Param-* headers, and in 2026-07-28 a tool
   * with an invalid x-mcp-header is left out (the spec says a client must exclude it).
   */
  private acceptTools(tools: Tool[]): Tool[] {
    const http = this.modernHttp!;
    if (!this.speaks("requestHeaders")) return tools;
    const accepted: Tool[] = [];
    for (const tool of tools) {
      const reason = invalidHeaderAnnotation(tool.inputSchema);
      if (reason === undefined) {
        accepted.push(tool);
        http.toolSchemas.set(tool.name, tool.inputSchema);
      } else if (!this.rejected.some((entry) => entry.name === tool.name && entry.reason === reason)) {
        this.rejected.push({ name: tool.name, reason });
      }
    }
    return accepted;
  }

  private requireProcess(what: string): StdioProcessTransport {
    if (this.process === undefined) {
      throw new McpTestkitError(`${what}() needs a spawned server (mcpShell); this driver is connected to ${this.target} (${this.kind}).`);
    }
    return this.process;
  }

  private assertOpen(what: string, callOptions?: unknown): void {
    if (this.lifetime.isClosing) throw new McpTestkitError(`${what}() was called after close(); this driver is closed: create a new one.`);
    if (callOptions !== undefined) checkCallOptions(callOptions, what);
  }
}

Object.defineProperty(McpDriver.prototype, DRIVER_MARKER, { value: true, enumerable: false });

/** One `errorFor` per call kind, shared by all its calls (each reads its request's `subject`). */
function callFailures(processContext: () => ProcessContext | undefined) {
  const fields = (error: JsonRpcErrorObject, method: string) => ({ code: error.code, serverMessage: error.message, data: error.data, method, process: processContext() });
  const tool = (error: JsonRpcErrorObject, { method, subject }: FailedRequest, hint = "") =>
    new ToolCallError(`Tool "${subject}" failed: the server answered ${method} with JSON-RPC error ${describeErrorObject(error)}${capabilityHint(error)}${hint}`, { ...fields(error, method), toolName: subject! });
  const prompt: ErrorFor = (error, { method, subject }) =>
    new PromptCallError(`Prompt "${subject}" failed: the server answered ${method} with JSON-RPC error ${describeErrorObject(error)}${capabilityHint(error)}`, { ...fields(error, method), promptName: subject! });
  const resource: ErrorFor = (error, { method, subject }) =>
    new ResourceCallError(`${method} ${JSON.stringify(subject)} failed: the server answered with JSON-RPC error ${describeErrorObject(error)}${capabilityHint(error)}`, { ...fields(error, method), uri: subject! });
  return { tool, prompt, resource };
}

/**
 * A -32020 for a tool the driver left out of getTools() (its `x-mcp-header` is invalid): the
 * server wanted the headers the driver could not make, so the message says why they are missing.
 */
function rejectionHint(error: JsonRpcErrorObject, rejected: RejectedTool | undefined): string {
  if (rejected === undefined || error.code !== ErrorCode.HeaderMismatch) return "";
  return `. The driver left tool "${rejected.name}" out of getTools() and sends no Mcp-Param headers for it: ${rejected.reason}`;
}

/** The option that makes the driver declare each client capability (2026-07-28 asks for them in every request's `_meta`). */
const CAPABILITY_OPTIONS: Readonly<Record<string, string>> = {
  elicitation: `onElicitation: (params) => ({ action: "accept", content: { ... } })`,
  sampling: "onSampling: (params) => ({ role, content, model })",
  roots: 'roots: [{ uri: "file:///…" }]',
};

/** For -32021 (a client capability the server requires): which driver option declares it. */
function capabilityHint(error: JsonRpcErrorObject): string {
  if (error.code !== ErrorCode.MissingRequiredClientCapability) return "";
  const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  const names = required !== null && typeof required === "object" ? Object.keys(required) : [];
  const options = names.map((name) => (name === "elicitation" && asksUrlMode(required) ? URL_MODE_OPTION : CAPABILITY_OPTIONS[name])).filter((option) => option !== undefined);
  if (options.length === 0) return "";
  return `. The driver declares a capability when it can answer for it: pass ${options.join(" and ")} to mcpShell / mcpConnect / mcpAttach`;
}

/** URL-mode elicitation is declared by name: `onElicitation` alone declares `elicitation: {}`, which means forms only. */
const URL_MODE_OPTION = `capabilities: { elicitation: { form: {}, url: {} } } beside onElicitation (which alone declares elicitation: {}, forms only; it answers URL-mode asks too)`;

function asksUrlMode(required: unknown): boolean {
  const elicitation = (required as { elicitation?: unknown }).elicitation;
  return elicitation !== null && typeof elicitation === "object" && "url" in elicitation;
}

/** The driver's observers, when it has any (the session is read lazily: it is made after them). */
function observationOf(connection: DriverConnection, options: DriverOptions, session: () => RpcSession): DriverObservation | undefined {
  if (options.observers === undefined || options.observers.length === 0) return undefined;
  return new DriverObservation(options.observers, options.observe, {
    wire: connection.kind,
    target: connection.target,
    sessionId: () => session().sessionId,
    protocolVersion: () => session().protocolVersion,
  });
}

/** What a call's options may hold, and of what kind. */
const CALL_OPTION_KINDS = { timeoutMs: "number", signal: "object", onProgress: "function", onServerRequest: "function" } as const;

/** Throws for a call's options the driver would not read (`{ timeout: 300 }`) or could not honour, naming the closest key. */
function checkCallOptions(options: unknown, api: string): void {
  const where = `${api}()'s options`;
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new McpTestkitError(`${where} must be an object { timeoutMs?, signal?, onProgress?, onServerRequest? }, got ${typeLabel(options)}.`);
  checkKeys(options, Object.keys(CALL_OPTION_KINDS), where);
  const { timeoutMs } = options as CallOptions;
  const problem = timeoutMs === undefined ? undefined : timerMsProblem("timeoutMs", timeoutMs, { min: 1 });
  if (problem !== undefined) throw new McpTestkitError(`${where}: ${problem}.`);
  checkValueKinds(options as Record<string, unknown>, CALL_OPTION_KINDS, where);
}


/** Throws a McpTestkitError for bad driver options (before anything is spawned). */
export function checkOptions(options: DriverOptions): void {
  const timeoutProblem = options.requestTimeout === undefined ? undefined : timerMsProblem("requestTimeout", options.requestTimeout, { min: 1 });
  if (timeoutProblem !== undefined) throw new McpTestkitError(`${timeoutProblem}.`);
  if (options.roots !== undefined) checkRoots(options.roots);
  checkNegotiation(options);
  const rounds = options.maxInputRounds;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 1000)) {
    throw new McpTestkitError(`maxInputRounds must be an integer from 1 to 1000, got ${String(rounds)}.`);
  }
  if (options.observers !== undefined && !Array.isArray(options.observers)) {
    throw new McpTestkitError(`observers must be an array of observer objects, got ${typeof options.observers}.`);
  }
  if (options.followListChanges !== undefined && typeof options.followListChanges !== "boolean") {
    throw new McpTestkitError(`followListChanges must be true or false, got ${typeof options.followListChanges}.`);
  }
  if (options.traceContext !== undefined && typeof options.traceContext !== "boolean") {
    throw new McpTestkitError(`traceContext must be true or false, got ${typeof options.traceContext}.`);
  }
  for (const name of ["onSampling", "onElicitation"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw new McpTestkitError(`${name} must be a function (params) => result, got ${typeof options[name]}.`);
    }
  }
}

/** A signal that aborts when either does (with its reason); `release()` unhooks it once the call is over. */
function eitherAborts(first: AbortSignal, second: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onFirst = () => controller.abort(first.reason);
  const onSecond = () => controller.abort(second.reason);
  const release = () => {
    first.removeEventListener("abort", onFirst);
    second.removeEventListener("abort", onSecond);
  };
  if (first.aborted) onFirst();
  else if (second.aborted) onSecond();
  else {
    first.addEventListener("abort", onFirst, { once: true });
    second.addEventListener("abort", onSecond, { once: true });
  }
  return { signal: controller.signal, release };
}

/**
 * Work a call does before its request goes out (listing the tools for its headers), bounded by
 * the call's own timeout and signal: a call asked to give up at 300 ms does not wait on the
 * driver-wide `requestTimeout` first.
 */
async function boundedByCall<T>(work: Promise<T>, call: { label: string; timeoutMs: number; signal?: AbortSignal; doing: string; processContext: () => ProcessContext | undefined }): Promise<T> {
  const { label, timeoutMs, signal } = call;
  if (signal?.aborted) throw abortedBeforeSending(label, "tools/call", signal.reason, call.processContext());
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const givenUp = new Promise<never>((_resolve, reject) => {
    // Infinity is a request with no deadline of its own; every timeout a user gives is checked to fit a timer.
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(
        () => reject(new RequestTimeoutError(`${label} got no response within ${timeoutMs} ms: it was still ${call.doing} (nothing was sent yet). Pass { timeoutMs } to this call or raise requestTimeout if the server is slow to list its tools.`, { timeoutMs, cancelled: false, process: call.processContext() })),
        timeoutMs,
      );
    }
    onAbort = () => reject(abortedBeforeSending(label, "tools/call", signal!.reason, call.processContext()));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, givenUp]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
