/**
 * The driver: a client session for testing a real MCP server (or a mock) over any wire. It speaks
 * MCP as a good client does: it answers the server's requests, follows `list_changed`, pages
 * through lists, cancels what times out, and turns whatever the server got wrong into an error
 * that names the method, the JSON path and what was expected.
 *
 * `McpDriver` is a facade; each job is a part of its own (assembled in assemble.ts):
 * - `RpcChannel` (rpc-channel.ts): JSON-RPC requests, responses, timeouts, the traffic record;
 * - `Negotiation` (negotiation.ts, discover-negotiation.ts): the handshake every call waits for;
 * - `LegacyEra` / `ModernEra` (legacy-era.ts, modern-era.ts), chosen by the version negotiated:
 *   how a call goes out, how the server's requests are answered, the `_meta` and the cancel;
 * - `ListCache` (list-cache.ts): the four lists, every page, until `list_changed`;
 * - `NotificationInbox` (inbox.ts): notifications kept, waited for, listened to;
 * - `ServerRequestAnswers` (server-requests.ts): roots, sampling, elicitation, ping;
 * - `ConnectionLifetime` (lifetime.ts): the process or connection, its end, and its errors;
 * - `driver.process` (server-process.ts) and `driver.traffic` (traffic.ts): the spawned server, and what was recorded.
 */
import { timerMsProblem } from "../util/timer-ms.js";
import type {
  ClientCapabilities,
  CompleteResult,
  Implementation,
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
} from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import type { ListKind } from "../protocol/list-kinds.js";
import { assembleDriver, type DriverConnection, type DriverParts } from "./assemble.js";
import { legacyOnly, rejectionHint } from "./call-failures.js";
import type { DiscoverResult, DriverEra } from "./discover-negotiation.js";
import type { McpDriverError } from "./errors.js";
import { DriverFormerNames } from "./former-names.js";
import type { WaitForNotificationOptions } from "./inbox.js";
import type { CloseOptions } from "./lifetime.js";
import { DRIVER_MARKER } from "./markers.js";
import type { RejectedTool } from "./modern-http.js";
import { checkCallOptions, checkOptions } from "./option-checks.js";
import { DEFAULT_CLOSE_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, type DriverOptions, type InitializeParams } from "./options.js";
import type { CallOptions, JsonObject, ReceivedNotification, RequestSpec } from "./request-types.js";
import { GetPromptResult, ReadResourceResult, ToolCallResult } from "./results.js";
import type { ServerProcess } from "./server-process.js";
import { getSkill, listSkills, readSkillDirectory, readSkillFile, type Skill, type SkillFile } from "./skills.js";
import type { ListenFilter, Subscription } from "./subscription.js";
import type { DriverTraffic } from "./traffic.js";
import { checkTaskOptions, TaskCalls, type StartTaskOptions, type ToolCallOptions } from "./task-calls.js";
import type { TaskHandle } from "./task-handle.js";

export type { WaitForNotificationOptions } from "./inbox.js";
export type { DiscoverResult, DriverEra } from "./discover-negotiation.js";
export type { ListenFilter, SubscriptionEnd } from "./subscription.js";
export { Subscription } from "./subscription.js";
export type { CloseOptions } from "./lifetime.js";
export type { RejectedTool } from "./modern-http.js";
export { checkOptions } from "./option-checks.js";
export type { DriverConnection } from "./assemble.js";
export type { StartTaskOptions, ToolCallOptions } from "./task-calls.js";

export interface ListOptions {
  /** Ask the server again even if the list is cached (lists refresh by themselves on `list_changed`). */
  refresh?: boolean;
}

export type CompletionReference = PromptReference | ResourceTemplateReference;

export class McpDriver extends DriverFormerNames implements AsyncDisposable {
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

  private readonly parts: DriverParts;
  /** Aborts when the driver closes: what waits on the caller between MRTR rounds stops then. */
  private readonly closing = new AbortController();
  private readonly tasks: TaskCalls;

  constructor(connection: DriverConnection, options: DriverOptions = {}) {
    super();
    checkOptions(options);
    this.kind = connection.kind;
    this.target = connection.target;
    this.requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    this.parts = assembleDriver(connection, options, this.requestTimeout, this.closing.signal);
    this.process = this.parts.process;
    this.traffic = this.parts.traffic;
    const { answers } = this.parts;
    this.tasks = new TaskCalls({
      ready: async () => await this.ready("callTool"),
      era: () => this.parts.eras.current(),
      toolCall: (name, params, callOptions) => this.toolCall(name, params, callOptions),
      send: (method, params, spec) => this.send(method, params, spec),
      answerFor: (handler, method, params, context) => answers.answerFor(handler, method, params, context),
      processContext: () => connection.process?.context(),
      closing: this.closing.signal,
    });
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
    return await this.parts.negotiation.negotiate(params);
  }

  isInitialized(): boolean {
    return this.parts.negotiation.result !== undefined;
  }

  getInitializeResult(): InitializeResult | undefined {
    return this.parts.negotiation.result;
  }

  /**
   * The era spoken once the handshake is done: `"modern"` (2026-07-28: `server/discover`, `_meta`
   * on every request, no session) or `"legacy"` (`initialize`); undefined before.
   */
  get era(): DriverEra | undefined {
    if (this.parts.negotiation.result === undefined) return undefined;
    return this.parts.discovery?.era ?? "legacy";
  }

  /** The server's `server/discover` result (modern era), once the handshake is done. */
  get discoverResult(): DiscoverResult | undefined {
    return this.parts.discovery?.discoverResult;
  }

  /** Why `versionNegotiation: "auto"` fell back to `initialize`, when it did. */
  get fallbackReason(): string | undefined {
    return this.parts.discovery?.fallbackReason;
  }

  /**
   * Tools left out of `getTools()` because their `x-mcp-header` annotations are invalid (a
   * client over HTTP must exclude them in 2026-07-28), with the reason.
   */
  get rejectedTools(): RejectedTool[] {
    return this.parts.http?.rejected ?? [];
  }

  /** The negotiated protocol version, once initialized. */
  get protocolVersion(): string | undefined {
    return this.parts.negotiation.result?.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.parts.negotiation.result?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.parts.negotiation.result?.capabilities;
  }

  /** The Streamable HTTP session id (`Mcp-Session-Id`), once the server has given one. */
  get sessionId(): string | undefined {
    return this.parts.channel.sessionId;
  }

  /** The capabilities this client declared (or will declare) in `initialize`. */
  get clientCapabilities(): ClientCapabilities {
    return this.parts.negotiation.clientCapabilities;
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
    const problem = timerMsProblem("timeoutMs", timeoutMs);
    if (problem !== undefined) return Promise.reject(new McpTestkitError(`close()'s options: ${problem}.`));
    this.closing.abort(new Error("the driver was closed"));
    const closed = this.parts.lifetime.close(
      { timeoutMs, allowFailure },
      () => this.parts.inbox.close(),
      () => this.endListChanges(timeoutMs),
    );
    // The trace ends after the wire, once; the caller gets the lifetime's own promise (the same one when called again).
    void closed.then(
      () => this.parts.traffic.trace?.close(),
      () => this.parts.traffic.trace?.close(),
    );
    return closed;
  }

  /**
   * For `await using`: closes, and never leaves a process behind. It never throws either: a
   * server that ends badly is kept in `closeError` and said on stderr, so that it cannot hide the
   * test's own failure. Call `close()` in the test to fail it on a bad exit.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    this.closing.abort(new Error("the driver was closed"));
    await this.parts.lifetime.dispose(
      DEFAULT_CLOSE_TIMEOUT,
      () => this.parts.inbox.close(),
      () => this.endListChanges(DEFAULT_CLOSE_TIMEOUT),
    );
    this.parts.traffic.trace?.close();
  }

  /** What `close()` (or the disposal) found wrong with how the server ended: a non-zero exit, a signal, a kill at the timeout. */
  get closeError(): McpDriverError | undefined {
    return this.parts.lifetime.closeError;
  }

  // ── Lists ──────────────────────────────────────────────────────────────────────────────────

  /** Every tool, across all pages. Cached until the server says `notifications/tools/list_changed`. */
  getTools(options: ListOptions = {}): Promise<Tool[]> {
    return this.list<Tool>("tools", options).then((tools) => this.parts.eras.current().acceptTools(tools));
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
  async callTool(name: string, args: Record<string, unknown> = {}, options: ToolCallOptions = {}): Promise<ToolCallResult> {
    const { task, ...callOptions } = options;
    this.assertOpen("callTool", callOptions);
    if (task !== undefined && task !== false && task !== true) checkTaskOptions(task, "callTool()'s task option");
    if (task !== undefined && task !== false) return await this.tasks.call(name, args, callOptions, task);
    return new ToolCallResult(await this.toolCall(name, { name, arguments: args }, callOptions), name);
  }

  /**
   * Calls a tool as a task and returns its handle, once the server has answered with one:
   * `status()`, `wait()`, `update()`, `cancel()`, `history`. Throws a `TaskError` when the server
   * does not say it runs tool calls as tasks (`notAdvertised`) or answers at once (`noTask`).
   */
  async startTask(name: string, args: Record<string, unknown> = {}, options: StartTaskOptions = {}): Promise<TaskHandle> {
    const { timeoutMs, signal, onProgress, onServerRequest, ...taskOptions } = options;
    const callOptions = Object.fromEntries(Object.entries({ timeoutMs, signal, onProgress, onServerRequest }).filter(([, value]) => value !== undefined));
    this.assertOpen("startTask", callOptions);
    checkTaskOptions(taskOptions, "startTask()'s options", ["timeoutMs", "signal", "onProgress", "onServerRequest"]);
    return await this.tasks.start(name, args, options);
  }

  /** `tools/call` as `callTool` sends it: its errors name the tool (and why it has no Mcp-Param headers, when that is why). */
  private toolCall(name: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const errorFor: RequestSpec["errorFor"] = (error, context) =>
      this.parts.failures.tool(
        error,
        context,
        rejectionHint(
          error,
          this.rejectedTools.find((entry) => entry.name === name),
        ),
      );
    return this.send("tools/call", params, { ...options, label: `tools/call "${name}"`, subject: name, errorFor });
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    this.assertOpen("readResource", options);
    const result = await this.send("resources/read", { uri }, { ...options, label: `resources/read ${JSON.stringify(uri)}`, subject: uri, errorFor: this.parts.failures.resource });
    return new ReadResourceResult(result, uri);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    this.assertOpen("getPrompt", options);
    const result = await this.send("prompts/get", { name, arguments: args }, { ...options, label: `prompts/get "${name}"`, subject: name, errorFor: this.parts.failures.prompt });
    return new GetPromptResult(result, name);
  }

  // ── Skills (SEP-2640): nothing is fetched before it is asked for ────────────────────────────

  /** Every skill the server lists (`skills/list`, every page); no skill file is read. */
  listSkills(options: CallOptions = {}): Promise<Skill[]> {
    this.assertOpen("listSkills", options);
    return listSkills(this.skillSend, options);
  }

  /** One skill's entry (`skills/get`) by the URI of its SKILL.md. */
  getSkill(uri: string, options: CallOptions = {}): Promise<Skill> {
    this.assertOpen("getSkill", options);
    return getSkill(this.skillSend, uri, options);
  }

  /**
   * Reads a skill's file (SKILL.md unless `file` names another, by path inside the skill) and
   * verifies it against the skill's entry: size, digest, and SKILL.md's frontmatter. A file that
   * fails throws `SkillVerificationError`; its content is never returned. A URI is looked up with `skills/get` first.
   */
  async readSkill(skill: Skill | string, file?: string, options: CallOptions = {}): Promise<SkillFile> {
    this.assertOpen("readSkill", options);
    const entry = typeof skill === "string" ? await getSkill(this.skillSend, skill, options) : skill;
    return readSkillFile(this.skillSend, entry, file, options);
  }

  /** A directory's direct children (`resources/directory/read`, every page); subdirectories have mimeType `inode/directory`. */
  readSkillDirectory(uri: string, options: CallOptions = {}): Promise<Record<string, unknown>[]> {
    this.assertOpen("readSkillDirectory", options);
    return readSkillDirectory(this.skillSend, uri, options);
  }

  /** `completion/complete`: suggestions for an argument of a prompt or a resource template. */
  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }, options: CallOptions = {}): Promise<CompleteResult> {
    this.assertOpen("complete", options);
    const params: JsonObject = { ref, argument, ...(context === undefined ? {} : { context }) };
    return (await this.send("completion/complete", params, options)) as CompleteResult;
  }

  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    this.assertOpen("setLoggingLevel", options);
    await this.send("logging/setLevel", { level }, { ...options, errorFor: legacyOnly(this.parts.spoken, "logging/setLevel") });
  }

  /** Asks for `notifications/resources/updated` about a resource (see `waitForNotification`). */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("subscribeResource", options);
    await this.send("resources/subscribe", { uri }, { ...options, subject: uri, errorFor: legacyOnly(this.parts.spoken, "resources/subscribe", this.parts.failures.resource) });
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    this.assertOpen("unsubscribeResource", options);
    await this.send("resources/unsubscribe", { uri }, { ...options, subject: uri, errorFor: legacyOnly(this.parts.spoken, "resources/unsubscribe", this.parts.failures.resource) });
  }

  async ping(options: CallOptions = {}): Promise<void> {
    this.assertOpen("ping", options);
    await this.send("ping", undefined, { ...options, errorFor: legacyOnly(this.parts.spoken, "ping") });
  }

  /**
   * `server/discover` (2026-07-28): the server's versions, capabilities and identity, asked
   * again (the handshake asked it already; see `discoverResult`). Modern era only.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    this.assertOpen("discover", options);
    await this.ready("discover");
    this.parts.spoken.require("discover", "serverDiscover", this.fallbackReason);
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
    const problem = options.acknowledgeTimeoutMs === undefined ? undefined : timerMsProblem("acknowledgeTimeoutMs", options.acknowledgeTimeoutMs, { min: 1 });
    if (problem !== undefined) throw new McpTestkitError(`listen()'s options: ${problem}.`);
    await this.ready("listen");
    this.parts.spoken.require("listen", "subscriptionsListen", this.fallbackReason);
    return this.parts.subscribe(filter, options.acknowledgeTimeoutMs ?? this.requestTimeout);
  }

  /**
   * 2026-07-28 (`followListChanges`, on by default): the `subscriptions/listen` the driver opened
   * itself for the lists the server says change, while it is open. Its notifications reach the
   * list cache and `notifications` as the legacy era's do.
   */
  get listChangeSubscription(): Subscription | undefined {
    return this.parts.listChanges?.subscription;
  }

  /** Why the lists are not followed in 2026-07-28: the server refused that subscription (an error, or no acknowledgement in time). */
  get listChangeFailure(): Error | undefined {
    return this.parts.listChanges?.failure;
  }

  /**
   * Any request, as is: no implicit `initialize`, the result validated like every other and
   * returned raw. A JSON-RPC error throws `RequestFailedError` (with `code`, `serverMessage`, `data`).
   */
  async request(method: string, params?: JsonObject, options: CallOptions = {}): Promise<JsonObject> {
    this.assertOpen("request", options);
    return await this.parts.calls.during({ ...options, label: method }, () => this.parts.channel.request(method, params, options));
  }

  /** Sends any notification, as is. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    this.assertOpen("notify");
    await this.parts.channel.notify(method, params);
  }

  /** Replaces the roots and tells the server (`notifications/roots/list_changed`) if initialized. */
  async setRoots(roots: Root[]): Promise<void> {
    this.assertOpen("setRoots");
    this.parts.answers.setRoots(roots, this.parts.negotiation.started);
    // Only once a version is spoken, and only one that has it (2026-07-28 asks for roots in each request's input).
    if (this.parts.spoken.has("rootsListChanged")) await this.parts.channel.notify("notifications/roots/list_changed");
  }

  // ── Notifications ─────────────────────────────────────────────────────────────────────────

  /** Every notification from the server since the start (or `clearNotifications()`), oldest first. */
  get notifications(): ReceivedNotification[] {
    return this.parts.inbox.all;
  }

  /** Forgets the notifications received so far (waits then only see newer ones). */
  clearNotifications(): void {
    this.parts.inbox.clear();
  }

  /**
   * Resolves with the first notification of `method` (passing `where`) received since the start
   * or `clearNotifications()`, waiting for it if needed.
   */
  async waitForNotification(method: string, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification> {
    this.assertOpen("waitForNotification");
    return (await this.parts.inbox.waitFor(method, 1, options, "waitForNotification"))[0]!;
  }

  /** Resolves with the first `count` notifications of `method` (passing `where`), waiting for them if needed. */
  async waitForNotifications(method: string, count: number, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification[]> {
    this.assertOpen("waitForNotifications");
    return await this.parts.inbox.waitFor(method, count, options);
  }

  /** Calls `listener` for each notification of `method` (`"*"` for all) from now on; returns an unsubscribe function. */
  onNotification(method: string, listener: (notification: ReceivedNotification) => void): () => void {
    return this.parts.inbox.listen(method, listener);
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────

  /** Ends the driver's own subscription before the connection goes, so no request is left open. */
  private async endListChanges(timeoutMs: number): Promise<void> {
    await this.parts.listChanges?.close(timeoutMs);
  }

  /** The handshake's answer, after the checks every call makes (open, not broken). */
  private ready(what: string): InitializeResult | Promise<InitializeResult> {
    this.assertOpen(what);
    this.parts.channel.throwIfBroken();
    return this.parts.negotiation.ready();
  }

  /** Every MCP request but `request()`'s goes out here, once the handshake is done, the way the era spoken sends it. */
  private send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    return this.parts.gate.after(spec.label ?? method, () => this.parts.eras.current().send(method, params, spec));
  }

  private readonly skillSend = (method: string, params: JsonObject, spec: RequestSpec) =>
    this.send(method, params, method === "resources/read" ? { ...spec, errorFor: this.parts.failures.resource } : spec);

  private list<T>(kind: ListKind, options: ListOptions): Promise<T[]> {
    this.assertOpen(`get${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    return this.parts.lists.get<T>(kind, options.refresh === true);
  }

  private assertOpen(what: string, callOptions?: unknown): void {
    if (this.parts.lifetime.isClosing) throw new McpTestkitError(`${what}() was called after close(); this driver is closed: create a new one.`);
    if (callOptions !== undefined) checkCallOptions(callOptions, what);
  }
}

Object.defineProperty(McpDriver.prototype, DRIVER_MARKER, { value: true, enumerable: false });
