/**
 * The driver: a client session for testing a real MCP server (or a mock) over any wire. It speaks
 * MCP as a good client does: it answers the server's requests, follows `list_changed`, pages
 * through lists, cancels what times out, and turns whatever the server got wrong into an error
 * that names the method, the JSON path and what was expected.
 *
 * `McpDriver` is a facade; each job is a part of its own, built here in the order they need each other:
 * - `RpcSession` (session.ts): JSON-RPC requests, responses, timeouts, the traffic record;
 * - `Negotiation` (negotiation.ts, discover-negotiation.ts): the handshake every call waits for;
 * - `LegacyEra` / `ModernEra` (legacy-era.ts, modern-era.ts), chosen by the version negotiated:
 *   how a call goes out, how the server's requests are answered, the `_meta` and the cancel;
 * - `ListCache` (list-cache.ts): the four lists, every page, until `list_changed`;
 * - `NotificationInbox` (inbox.ts): notifications kept, waited for, listened to;
 * - `ServerRequestAnswers` (server-requests.ts): roots, sampling, elicitation, ping;
 * - `ConnectionLifetime` (lifetime.ts): the process or connection, its end, and its errors;
 * - `driver.process` (server-process.ts) and `driver.traffic` (traffic.ts): the spawned server, and what was recorded.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ClientCapabilities, CompleteResult, Implementation, InitializeResult, LoggingLevel, Prompt, PromptReference, Resource, ResourceTemplate, ResourceTemplateReference, Root, ServerCapabilities, Tool } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import type { TrafficRecorder } from "../inspect/recorder.js";
import type { TrafficProblem, TrafficRecord } from "../inspect/types.js";
import type { ListKind } from "../protocol/list-kinds.js";
import { LATEST_PROTOCOL_VERSION, type Feature } from "../protocol/versions.js";
import { callFailures, legacyOnly, rejectionHint } from "./call-failures.js";
import { CallHandlers } from "./call-handlers.js";
import { DiscoverNegotiation, negotiationMode, type DiscoverResult, type DriverEra } from "./discover-negotiation.js";
import { EraChoice, SpokenVersion } from "./era.js";
import type { McpDriverError, ProtocolError } from "./errors.js";
import { HandshakeGate } from "./handshake-gate.js";
import { NotificationInbox, type WaitForNotificationOptions } from "./inbox.js";
import { metaFrom } from "./interceptors.js";
import { LegacyEra } from "./legacy-era.js";
import { ConnectionLifetime, type CloseOptions } from "./lifetime.js";
import { ListCache } from "./list-cache.js";
import { ListChangeFollower } from "./list-changes.js";
import { DRIVER_MARKER } from "./markers.js";
import { ModernEra } from "./modern-era.js";
import type { ModernHttpFetch, RejectedTool } from "./modern-http.js";
import { InitializeNegotiation, ResumedNegotiation, type Negotiation } from "./negotiation.js";
import { DriverObservation } from "./observed-session.js";
import { checkCallOptions, checkOptions } from "./option-checks.js";
import { DEFAULT_CLOSE_TIMEOUT, DEFAULT_MAX_INPUT_ROUNDS, DEFAULT_REQUEST_TIMEOUT, type DriverOptions, type InitializeParams } from "./options.js";
import type { CallOptions, JsonObject, ReceivedNotification, RequestSpec } from "./request-types.js";
import { GetPromptResult, ReadResourceResult, ToolCallResult } from "./results.js";
import { ServerProcess } from "./server-process.js";
import { ServerRequestAnswers } from "./server-requests.js";
import { RpcSession } from "./session.js";
import type { StdioProcessTransport } from "./stdio-process.js";
import { Subscription, type ListenFilter } from "./subscription.js";
import { TraceMeta } from "./trace-meta.js";
import { DriverTraffic } from "./traffic.js";
import { connectionRefusal, sdkTransportErrors, type ErrorClassifier } from "./transport-errors.js";

export type { WaitForNotificationOptions } from "./inbox.js";
export type { DiscoverResult, DriverEra } from "./discover-negotiation.js";
export type { ListenFilter, SubscriptionEnd } from "./subscription.js";
export { Subscription } from "./subscription.js";
export type { CloseOptions } from "./lifetime.js";
export type { RejectedTool } from "./modern-http.js";
export { checkOptions } from "./option-checks.js";

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
  /** The spawned server's process (stdio): pid, exit, output, `waitForExit()`, `kill()`. Over HTTP its facts are undefined and its actions throw. */
  readonly process: ServerProcess;
  /** What was recorded both ways: `messages`, `problems`, `protocolErrors`, `assertNoProtocolError()`, the `recorder`. */
  readonly traffic: DriverTraffic;

  private readonly session: RpcSession;
  private readonly negotiation: Negotiation;
  /** The `server/discover` handshake, unless the options ask for `legacy`. */
  private readonly discovery: DiscoverNegotiation | undefined;
  private readonly gate: HandshakeGate;
  private readonly eras: EraChoice;
  private readonly http: ModernHttpFetch | undefined;
  private readonly calls: CallHandlers;
  private readonly lists: ListCache;
  /** 2026-07-28: the subscription that brings list_changed (undefined with `followListChanges: false`). */
  private readonly listChanges: ListChangeFollower | undefined;
  private readonly inbox: NotificationInbox;
  private readonly answers: ServerRequestAnswers;
  private readonly lifetime: ConnectionLifetime;
  /** Aborts when the driver closes: what waits on the caller between MRTR rounds stops then. */
  private readonly closing = new AbortController();
  private readonly failures: ReturnType<typeof callFailures>;
  /** What the negotiated version has (the version table). */
  private readonly spoken: SpokenVersion;

  constructor(connection: DriverConnection, options: DriverOptions = {}) {
    checkOptions(options);
    this.kind = connection.kind;
    this.target = connection.target;
    this.requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const spawned = connection.process;
    const processContext = () => spawned?.context();
    this.process = new ServerProcess(spawned, connection);
    const answers = (this.answers = new ServerRequestAnswers(options));
    const inbox = (this.inbox = new NotificationInbox(options.maxRecords ?? 10_000, this.requestTimeout, processContext));
    this.failures = callFailures(processContext);
    const traceMeta = options.traceContext === false ? undefined : new TraceMeta();
    // The first request waits for the OpenTelemetry API's import, so it carries trace context too.
    const transport = traceMeta === undefined ? connection.transport : traceMeta.loaded.then(() => connection.transport);
    const classifyError = connection.classifyError ?? sdkTransportErrors;
    const session = (this.session = new RpcSession(transport, { requestTimeout: this.requestTimeout, strict: options.strict ?? true, processContext, classifyError, ...(options.maxRecords === undefined ? {} : { maxRecords: options.maxRecords }) }));
    this.traffic = new DriverTraffic(session, processContext);

    const implied = (version: string) => answers.impliedCapabilities(version);
    const mode = negotiationMode(options);
    const initialize = new InitializeNegotiation(session, options, implied, processContext, mode === "legacy");
    // A session begun elsewhere (mcpConnect's sessionId) is a legacy one whose initialize is done.
    const resumedVersion = connection.resumesSession ? (options.protocolVersion ?? LATEST_PROTOCOL_VERSION) : undefined;
    const discovery = (this.discovery = mode === "legacy" || resumedVersion !== undefined ? undefined : new DiscoverNegotiation(session, options, mode, implied, processContext, initialize));
    const negotiation = (this.negotiation = resumedVersion !== undefined ? new ResumedNegotiation(session, resumedVersion, implied(resumedVersion)) : (discovery ?? initialize));
    const gate = (this.gate = new HandshakeGate(session, negotiation));

    const lists = (this.lists = new ListCache(gate.request, processContext));
    const subscribe = (filter: ListenFilter, acknowledgeTimeoutMs: number) => openSubscription(inbox, gate, filter, acknowledgeTimeoutMs);
    const listChanges = (this.listChanges = options.followListChanges === false ? undefined : new ListChangeFollower((filter) => subscribe(filter, this.requestTimeout), () => lists.noticeAll()));
    const http = (this.http = connection.modernHttp);
    this.calls = new CallHandlers(session);
    const spoken = (this.spoken = new SpokenVersion(negotiation));
    const legacy = new LegacyEra(session, answers, this.calls);
    const modern = discovery === undefined ? undefined : new ModernEra({ session, discovery, spoken, answers, lists, listChanges, http, maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS, requestTimeout: this.requestTimeout, closing: this.closing.signal, processContext });
    const eras = (this.eras = new EraChoice(negotiation, legacy, modern));
    lists.followChangesWith(() => eras.current().beforeListFetch());

    const observation = observationOf(connection, options, session);
    // The order of `_meta`: the era's fields, then trace context (the caller's own win over both).
    session.use(metaFrom(() => eras.current().requestMeta()));
    if (traceMeta !== undefined) session.use(metaFrom(() => traceMeta.current()));
    session.use({ cancel: (id, reason) => eras.current().cancel(id, reason) });
    if (observation !== undefined) session.use(observation);
    if (http !== undefined) {
      session.use(http);
      http.onStreamEnd = (id, why) => session.answerLost(id, why);
    }
    session.answerServerRequestsWith((method, params, context) => eras.current().answerServerRequest(method, params, context));
    session.onNotification((notification) => {
      lists.notice(notification.method);
      inbox.receive(notification);
    });

    const lifetime = (this.lifetime = new ConnectionLifetime(session, this.target, spawned, connection.closeWire, () => negotiation.result !== undefined, observation));
    session.explainWireLoss((method, id, label) => lifetime.closedError(method, id, label));
    session.onWireEnd((error) => {
      if (error === undefined) {
        lifetime.serverEnded();
        inbox.serverGone(connection.kind === "stdio" ? "its process exited or closed its stdout" : "its connection closed");
        return;
      }
      // Over HTTP there is no connection to close: a refused connection is how a gone server shows.
      const refusal = connection.kind === "http" ? connectionRefusal(error) : undefined;
      if (refusal === undefined) return;
      lifetime.serverEnded(refusal);
      inbox.serverGone(`its URL refused a connection: ${refusal}`);
    });
    if (observation !== undefined) {
      observation.willStart();
      void session.startFailure().then((failure) => observation.started(failure));
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
    return this.http?.rejected ?? [];
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
   * `{ allowFailure: true }` neither throws (see `closeError`, `process.exitCode`). Either way no
   * process is left behind. For HTTP the session is ended (DELETE) and the connection closed.
   * Requests still in flight are rejected. Calling it again closes nothing more.
   */
  close(options: number | CloseOptions = {}): Promise<void> {
    const { timeoutMs = DEFAULT_CLOSE_TIMEOUT, allowFailure = false } = typeof options === "number" ? { timeoutMs: options } : options;
    if (!(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
      return Promise.reject(new McpTestkitError(`close(timeoutMs): expected a number of ms >= 0, got ${String(timeoutMs)}.`));
    }
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

  // ── Lists ──────────────────────────────────────────────────────────────────────────────────

  /** Every tool, across all pages. Cached until the server says `notifications/tools/list_changed`. */
  getTools(options: ListOptions = {}): Promise<Tool[]> {
    return this.list<Tool>("tools", options).then((tools) => this.eras.current().acceptTools(tools));
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
    const errorFor: RequestSpec["errorFor"] = (error, context) => this.failures.tool(error, context, rejectionHint(error, this.rejectedTools.find((entry) => entry.name === name)));
    const result = await this.send("tools/call", { name, arguments: args }, { ...options, label: `tools/call "${name}"`, subject: name, errorFor });
    return new ToolCallResult(result, name);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    this.assertOpen("readResource", options);
    const result = await this.send("resources/read", { uri }, { ...options, label: `resources/read ${JSON.stringify(uri)}`, subject: uri, errorFor: this.failures.resource });
    return new ReadResourceResult(result, uri);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    this.assertOpen("getPrompt", options);
    const result = await this.send("prompts/get", { name, arguments: args }, { ...options, label: `prompts/get "${name}"`, subject: name, errorFor: this.failures.prompt });
    return new GetPromptResult(result, name);
  }

  /** `completion/complete`: suggestions for an argument of a prompt or a resource template. */
  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }, options: CallOptions = {}): Promise<CompleteResult> {
    this.assertOpen("complete", options);
    const params: JsonObject = { ref, argument, ...(context === undefined ? {} : { context }) };
    return (await this.send("completion/complete", params, options)) as CompleteResult;
  }

  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    this.assertOpen("setLoggingLevel", options);
    await this.send("logging/setLevel", { level }, { ...options, errorFor: legacyOnly(this.spoken, "loggingSetLevel", 'in 2026-07-28 a log level goes in each request\'s _meta ("io.modelcontextprotocol/logLevel"); use versionNegotiation "legacy" to test logging/setLevel') });
  }

  /** Asks for `notifications/resources/updated` about a resource (see `waitForNotification`). */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("subscribeResource", options);
    await this.send("resources/subscribe", { uri }, { ...options, subject: uri, errorFor: legacyOnly(this.spoken, "resourcesSubscribe", 'use listen({ resourceSubscriptions: [uri] }) (subscriptions/listen) instead, or versionNegotiation "legacy"', this.failures.resource) });
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("unsubscribeResource", options);
    await this.send("resources/unsubscribe", { uri }, { ...options, subject: uri, errorFor: legacyOnly(this.spoken, "resourcesSubscribe", 'end the subscriptions/listen stream (close what listen() gave) instead, or use versionNegotiation "legacy"', this.failures.resource) });
  }

  async ping(options: CallOptions = {}): Promise<void> {
    this.assertOpen("ping", options);
    await this.send("ping", undefined, { ...options, errorFor: legacyOnly(this.spoken, "ping", 'use versionNegotiation "legacy" to test ping against a server that also speaks the legacy era') });
  }

  /**
   * `server/discover` (2026-07-28): the server's versions, capabilities and identity, asked
   * again (the handshake asked it already; see `discoverResult`). Modern era only.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    this.assertOpen("discover", options);
    await this.requireRevisionWith("discover", "serverDiscover");
    return (await this.send("server/discover", undefined, { ...options, label: "server/discover" })) as DiscoverResult;
  }

  /**
   * `subscriptions/listen` (2026-07-28): a subscription to list changes and resource updates.
   * Its `acknowledged` resolves with the filter the server agreed to; its `notifications` are
   * those tagged with its id (they are in `notifications` and `waitForNotification` too);
   * `close()` ends it. Modern era only (the legacy era has `subscribeResource`).
   */
  async listen(filter: ListenFilter, options: { acknowledgeTimeoutMs?: number } = {}): Promise<Subscription> {
    this.assertOpen("listen");
    await this.requireRevisionWith("listen", "subscriptionsListen");
    return openSubscription(this.inbox, this.gate, filter, options.acknowledgeTimeoutMs ?? this.requestTimeout);
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
    return await this.calls.during({ ...options, label: method }, () => this.session.request(method, params, options));
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
    if (this.spoken.has("rootsListChanged")) await this.session.notify("notifications/roots/list_changed");
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

  // ── Former names, kept for one release ──────────────────────────────────────────────────

  /** @deprecated use `driver.process.waitForExit()` */
  waitForExit(): Promise<number> {
    return this.process.waitForExit();
  }
  /** @deprecated use `driver.process.kill(signal)` */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.process.kill(signal);
  }
  /** @deprecated use `driver.process.pid` */
  get pid(): number | undefined {
    return this.process.pid;
  }
  /** @deprecated use `driver.process.exitCode` */
  get exitCode(): number | null | undefined {
    return this.process.exitCode;
  }
  /** @deprecated use `driver.process.exitSignal` */
  get exitSignal(): NodeJS.Signals | null | undefined {
    return this.process.exitSignal;
  }
  /** @deprecated use `driver.process.stderr` */
  get stderr(): string[] {
    return this.process.stderr;
  }
  /** @deprecated use `driver.process.stdout` */
  get stdout(): string[] {
    return this.process.stdout;
  }
  /** @deprecated use `driver.traffic.recorder` */
  get recorder(): TrafficRecorder {
    return this.traffic.recorder;
  }
  /** @deprecated use `driver.traffic.messages` */
  get messages(): TrafficRecord[] {
    return this.traffic.messages;
  }
  /** @deprecated use `driver.traffic.problems` */
  get problems(): TrafficProblem[] {
    return this.traffic.problems;
  }
  /** @deprecated use `driver.traffic.protocolErrors` */
  get protocolErrors(): ProtocolError[] {
    return this.traffic.protocolErrors;
  }
  /** @deprecated use `driver.traffic.protocolErrorCount` */
  get protocolErrorCount(): number {
    return this.traffic.protocolErrorCount;
  }
  /** @deprecated use `driver.traffic.assertNoProtocolError()` */
  assertNoProtocolError(): void {
    this.traffic.assertNoProtocolError();
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────

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

  /** Every MCP request but `request()`'s goes out here, once the handshake is done, the way the era spoken sends it. */
  private send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    return this.gate.after(spec.label ?? method, () => this.eras.current().send(method, params, spec));
  }

  /** Fails unless the negotiated version has `feature` (a 2026-07-28 method). */
  private async requireRevisionWith(what: string, feature: Feature): Promise<void> {
    await this.ready(what);
    if (!this.spoken.has(feature)) {
      throw new McpTestkitError(
        `${what}() is part of protocol revision 2026-07-28, but this driver speaks ${this.protocolVersion} (legacy era${this.fallbackReason ? `: ${this.fallbackReason}` : ""}). ` +
          `Against a 2026-07-28 server use versionNegotiation "auto" (the default) or { pin: "2026-07-28" }.`,
      );
    }
  }

  private list<T>(kind: ListKind, options: ListOptions): Promise<T[]> {
    this.assertOpen(`get${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    return this.lists.get<T>(kind, options.refresh === true);
  }

  private assertOpen(what: string, callOptions?: unknown): void {
    if (this.lifetime.isClosing) throw new McpTestkitError(`${what}() was called after close(); this driver is closed: create a new one.`);
    if (callOptions !== undefined) checkCallOptions(callOptions, what);
  }
}

Object.defineProperty(McpDriver.prototype, DRIVER_MARKER, { value: true, enumerable: false });

/** One `subscriptions/listen`, its request sent at once (the session is ready). */
function openSubscription(inbox: NotificationInbox, gate: HandshakeGate, filter: ListenFilter, acknowledgeTimeoutMs: number): Subscription {
  return new Subscription(
    (listener) => inbox.listen("*", listener),
    (signal, onId) => gate.request("subscriptions/listen", { notifications: filter }, { label: "subscriptions/listen", signal, onId, timeoutMs: Infinity }),
    acknowledgeTimeoutMs,
  );
}

/** The driver's observers, when it has any. */
function observationOf(connection: DriverConnection, options: DriverOptions, session: RpcSession): DriverObservation | undefined {
  if (options.observers === undefined || options.observers.length === 0) return undefined;
  return new DriverObservation(options.observers, options.observe, {
    wire: connection.kind,
    target: connection.target,
    sessionId: () => session.sessionId,
    protocolVersion: () => session.protocolVersion,
  });
}
