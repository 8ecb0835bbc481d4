/**
 * The driver: a client session for testing a real MCP server (or a mock) over any wire. It speaks
 * MCP as a good client does: it answers the server's requests, follows `list_changed`, pages
 * through lists, cancels what times out, and turns whatever the server got wrong into an error
 * that names the method, the JSON path and what was expected.
 */
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
import { BoundedJournal } from "../inspect/journal.js";
import type { TrafficRecorder } from "../inspect/recorder.js";
import type { TrafficProblem, TrafficRecord } from "../inspect/types.js";
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/versions.js";
import {
  ConnectionClosedError,
  McpDriverError,
  ProcessDidNotExit,
  ProcessExitedWithError,
  ProcessExitWhileWaitingForResponse,
  ProcessFailedToStart,
  PromptCallError,
  ProtocolError,
  ResourceCallError,
  ToolCallError,
} from "./errors.js";
import { DRIVER_MARKER } from "./markers.js";
import { DEFAULT_CLIENT_INFO, DEFAULT_CLOSE_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, type DriverOptions, type InitializeParams } from "./options.js";
import { GetPromptResult, ReadResourceResult, ToolCallResult } from "./results.js";
import {
  describeErrorObject,
  formatProblems,
  JsonRpcFailure,
  RpcSession,
  type CallOptions,
  type JsonObject,
  type ReceivedNotification,
  type ServerRequestContext,
} from "./session.js";
import { StdioProcessTransport } from "./stdio-process.js";

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
}

export interface ListOptions {
  /** Ask the server again even if the list is cached (lists refresh by themselves on `list_changed`). */
  refresh?: boolean;
}

export interface WaitForNotificationOptions {
  /** How long to wait, in ms (default: the driver's `requestTimeout`). */
  timeoutMs?: number;
  /** Only notifications whose params pass this test count. */
  where?: (params: JsonObject | undefined) => boolean;
}

export type CompletionReference = PromptReference | ResourceTemplateReference;

type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";

const listMethods: Record<ListKind, { method: string; key: string }> = {
  tools: { method: "tools/list", key: "tools" },
  resources: { method: "resources/list", key: "resources" },
  resourceTemplates: { method: "resources/templates/list", key: "resourceTemplates" },
  prompts: { method: "prompts/list", key: "prompts" },
};

const listChangedKinds: Record<string, ListKind[]> = {
  "notifications/tools/list_changed": ["tools"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
  "notifications/prompts/list_changed": ["prompts"],
};

/** A server that keeps answering with new cursors is stopped here rather than looping forever. */
const maxPages = 10_000;

interface NotificationWaiter {
  method: string;
  where: WaitForNotificationOptions["where"];
  count: number;
  found: ReceivedNotification[];
  resolve: (found: ReceivedNotification[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class McpDriver implements AsyncDisposable {
  declare readonly [DRIVER_MARKER]: true;
  /** `"stdio"` (mcpShell), `"http"` (mcpConnect) or `"attached"` (mcpAttach). */
  readonly kind: DriverConnection["kind"];
  /** The command or URL of the server. */
  readonly target: string;
  readonly requestTimeout: number;

  private readonly session: RpcSession;
  private readonly process: StdioProcessTransport | undefined;
  private readonly closeWire: (() => Promise<void>) | undefined;
  private readonly options: DriverOptions;
  private roots: Root[] | undefined;
  private declaredCapabilities: ClientCapabilities | undefined;
  private initializing: Promise<InitializeResult> | undefined;
  private initializeResult: InitializeResult | undefined;
  private closing: Promise<void> | undefined;
  private readonly received: BoundedJournal<ReceivedNotification>;
  private readonly waiters = new Set<NotificationWaiter>();
  private readonly listeners = new Map<string, Set<(notification: ReceivedNotification) => void>>();
  private readonly lists = new Map<ListKind, { generation: number; items: Promise<unknown[]> }>();
  private readonly generations: Record<ListKind, number> = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };

  constructor(connection: DriverConnection, options: DriverOptions = {}) {
    checkOptions(options);
    this.kind = connection.kind;
    this.target = connection.target;
    this.process = connection.process;
    this.closeWire = connection.closeWire;
    this.options = options;
    this.requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    this.roots = options.roots === undefined ? undefined : [...options.roots];
    this.received = new BoundedJournal(options.maxRecords ?? 10_000);
    this.session = new RpcSession(
      connection.transport,
      {
        handleRequest: (method, params, context) => this.answerServerRequest(method, params, context),
        handleNotification: (notification) => this.receiveNotification(notification),
        closedError: (method, id, label) => this.closedError(method, id, label),
        processContext: () => this.process?.context(),
      },
      { requestTimeout: this.requestTimeout, strict: options.strict ?? true, ...(options.maxRecords === undefined ? {} : { maxRecords: options.maxRecords }) },
    );
  }

  // ── Lifecycle ──────────────────────────────────────────────────────────────────────────────

  /**
   * The MCP handshake: sends `initialize` (your `params` over the defaults: the latest protocol
   * version, the capabilities the options imply, `clientInfo`), checks the answer, then sends
   * `notifications/initialized`. Calling it again returns the same result. Every other method
   * initializes implicitly, so calling it is only needed to pass params or to test the handshake.
   */
  async initialize(params: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    this.assertOpen("initialize");
    this.initializing ??= this.handshake(params).catch((error: unknown) => {
      this.initializing = undefined;
      throw error;
    });
    return await this.initializing;
  }

  isInitialized(): boolean {
    return this.initializeResult !== undefined;
  }

  getInitializeResult(): InitializeResult | undefined {
    return this.initializeResult;
  }

  /** The negotiated protocol version, once initialized. */
  get protocolVersion(): string | undefined {
    return this.initializeResult?.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.initializeResult?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.initializeResult?.capabilities;
  }

  /** The Streamable HTTP session id (`Mcp-Session-Id`), once the server has given one. */
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  /** The capabilities this client declared (or will declare) in `initialize`. */
  get clientCapabilities(): ClientCapabilities {
    return this.declaredCapabilities ?? this.impliedCapabilities();
  }

  async supportsTools(): Promise<boolean> {
    return (await this.ensureInitialized("supportsTools")).capabilities.tools !== undefined;
  }

  async supportsResources(): Promise<boolean> {
    return (await this.ensureInitialized("supportsResources")).capabilities.resources !== undefined;
  }

  async supportsPrompts(): Promise<boolean> {
    return (await this.ensureInitialized("supportsPrompts")).capabilities.prompts !== undefined;
  }

  /**
   * Ends the session. For a spawned server: closes its stdin and waits up to `timeoutMs` for it to
   * exit. Still running then → its whole process tree is killed and `ProcessDidNotExit` is thrown;
   * a non-zero exit code (or a signal we did not send) → `ProcessExitedWithError`. Either way no
   * process is left behind. For HTTP the session is ended (DELETE) and the connection closed.
   * Requests still in flight are rejected. Calling it again returns the same promise.
   */
  close(timeoutMs: number = DEFAULT_CLOSE_TIMEOUT): Promise<void> {
    if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
      return Promise.reject(new McpTestkitError(`close(timeoutMs): expected a number of ms >= 0, got ${String(timeoutMs)}.`));
    }
    this.closing ??= this.shutDown(timeoutMs);
    return this.closing;
  }

  /** For `await using`: closes (and never leaves a process behind). After an explicit `close()`, it only waits for it. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.closing) {
      await this.closing.catch(() => undefined);
      return;
    }
    await this.close();
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
    const initialized = this.ensureInitialized("callTool");
    // Once initialized (every call but the first), the call goes out without waiting a tick.
    if (initialized instanceof Promise) await initialized;
    const result = await this.session.request(
      "tools/call",
      { name, arguments: args },
      {
        ...options,
        label: `tools/call "${name}"`,
        errorFor: (error) =>
          new ToolCallError(`Tool "${name}" failed: the server answered tools/call with JSON-RPC error ${describeErrorObject(error)}`, {
            ...errorFields(error),
            method: "tools/call",
            toolName: name,
            process: this.process?.context(),
          }),
      },
    );
    return new ToolCallResult(result, name);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    await this.ensureInitialized("readResource");
    const result = await this.session.request("resources/read", { uri }, { ...options, label: `resources/read ${JSON.stringify(uri)}`, errorFor: this.resourceError("resources/read", uri) });
    return new ReadResourceResult(result, uri);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    await this.ensureInitialized("getPrompt");
    const result = await this.session.request(
      "prompts/get",
      { name, arguments: args },
      {
        ...options,
        label: `prompts/get "${name}"`,
        errorFor: (error) =>
          new PromptCallError(`Prompt "${name}" failed: the server answered prompts/get with JSON-RPC error ${describeErrorObject(error)}`, {
            ...errorFields(error),
            method: "prompts/get",
            promptName: name,
            process: this.process?.context(),
          }),
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
    await this.ensureInitialized("complete");
    const params: JsonObject = { ref, argument, ...(context === undefined ? {} : { context }) };
    return (await this.session.request("completion/complete", params, options)) as CompleteResult;
  }

  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    await this.ensureInitialized("setLoggingLevel");
    await this.session.request("logging/setLevel", { level }, options);
  }

  /** Asks for `notifications/resources/updated` about a resource (see `waitForNotification`). */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    await this.ensureInitialized("subscribeResource");
    await this.session.request("resources/subscribe", { uri }, { ...options, errorFor: this.resourceError("resources/subscribe", uri) });
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    await this.ensureInitialized("unsubscribeResource");
    await this.session.request("resources/unsubscribe", { uri }, { ...options, errorFor: this.resourceError("resources/unsubscribe", uri) });
  }

  async ping(options: CallOptions = {}): Promise<void> {
    await this.ensureInitialized("ping");
    await this.session.request("ping", undefined, options);
  }

  /**
   * Any request, as is: no implicit `initialize`, the result validated like every other and
   * returned raw. A JSON-RPC error throws `RequestFailedError` (with `code`, `serverMessage`, `data`).
   */
  async request(method: string, params?: JsonObject, options: CallOptions = {}): Promise<JsonObject> {
    this.assertOpen("request");
    return await this.session.request(method, params, options);
  }

  /** Sends any notification, as is. */
  async notify(method: string, params?: JsonObject): Promise<void> {
    this.assertOpen("notify");
    await this.session.notify(method, params);
  }

  /** Replaces the roots and tells the server (`notifications/roots/list_changed`) if initialized. */
  async setRoots(roots: Root[]): Promise<void> {
    this.assertOpen("setRoots");
    checkRoots(roots);
    if (this.roots === undefined && this.declaredCapabilities !== undefined) {
      throw new McpTestkitError("setRoots(): this client did not declare the roots capability in initialize; pass roots: [] to the driver to declare it.");
    }
    this.roots = [...roots];
    if (this.initializeResult) await this.session.notify("notifications/roots/list_changed");
  }

  // ── Notifications ─────────────────────────────────────────────────────────────────────────

  /** Every notification from the server since the start (or `clearNotifications()`), oldest first. */
  get notifications(): ReceivedNotification[] {
    return this.received.toArray();
  }

  /** Forgets the notifications received so far (waits then only see newer ones). */
  clearNotifications(): void {
    this.received.clear();
  }

  /**
   * Resolves with the first notification of `method` (passing `where`) received since the start
   * or `clearNotifications()`, waiting for it if needed.
   */
  async waitForNotification(method: string, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification> {
    return (await this.waitForNotifications(method, 1, options))[0]!;
  }

  /** Resolves with the first `count` notifications of `method` (passing `where`), waiting for them if needed. */
  async waitForNotifications(method: string, count: number, options: WaitForNotificationOptions = {}): Promise<ReceivedNotification[]> {
    this.assertOpen("waitForNotifications");
    const where = options.where;
    const matches = (notification: ReceivedNotification) => notification.method === method && (where === undefined || where(notification.params));
    const found = this.notifications.filter(matches).slice(0, count);
    if (found.length >= count) return found;
    const timeoutMs = options.timeoutMs ?? this.requestTimeout;
    return await new Promise<ReceivedNotification[]>((resolve, reject) => {
      const waiter: NotificationWaiter = {
        method,
        where,
        count,
        found,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new McpDriverError(
              `Waited ${timeoutMs} ms for ${count === 1 ? "a" : `${count}`} ${method} notification${count === 1 ? "" : "s"}${where ? " matching `where`" : ""}; ` +
                `got ${waiter.found.length}. Notifications received: ${this.describeNotifications()}.`,
              { method, process: this.process?.context() },
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Calls `listener` for each notification of `method` (`"*"` for all) from now on; returns an unsubscribe function. */
  onNotification(method: string, listener: (notification: ReceivedNotification) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
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

  /** Protocol failures seen (output that is not JSON-RPC, responses to no request), oldest first. */
  get protocolErrors(): ProtocolError[] {
    return [...this.session.protocolErrors];
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

  private async handshake(params: Partial<InitializeParams>): Promise<InitializeResult> {
    const { protocolVersion, capabilities, clientInfo, ...rest } = params;
    const declared = mergeCapabilities(this.impliedCapabilities(), capabilities);
    const request: JsonObject = {
      ...rest,
      protocolVersion: protocolVersion ?? this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      capabilities: declared,
      clientInfo: clientInfo ?? this.options.clientInfo ?? DEFAULT_CLIENT_INFO,
    };
    this.declaredCapabilities = declared;
    const result = (await this.session.request("initialize", request, { cancellable: false })) as InitializeResult;
    const version = result.protocolVersion;
    if (!isSupportedVersion(version)) {
      throw new ProtocolError(
        `The server answered initialize with protocolVersion ${JSON.stringify(version)}, which mcp-testkit does not speak ` +
          `(it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; it asked for ${String(request.protocolVersion)}). ` +
          `The spec says the client should then disconnect: close() the driver.`,
        { method: "initialize", process: this.process?.context() },
      );
    }
    const transport = await this.session.connectedTransport();
    transport?.setProtocolVersion(version);
    this.initializeResult = result;
    await this.session.notify("notifications/initialized");
    return result;
  }

  private impliedCapabilities(): ClientCapabilities {
    const capabilities: ClientCapabilities = {};
    if (this.roots !== undefined) capabilities.roots = { listChanged: true };
    if (this.options.onSampling) capabilities.sampling = {};
    if (this.options.onElicitation) capabilities.elicitation = {};
    return mergeCapabilities(capabilities, this.options.capabilities);
  }

  /** Throws if the driver is closed or broken; initializes it if needed (only then is there a promise). */
  private ensureInitialized(what: string): InitializeResult | Promise<InitializeResult> {
    this.assertOpen(what);
    this.session.throwIfBroken();
    return this.initializeResult ?? this.initialize();
  }

  private list<T>(kind: ListKind, options: ListOptions): Promise<T[]> {
    this.assertOpen(`get${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    const cached = this.lists.get(kind);
    if (!options.refresh && cached && cached.generation === this.generations[kind]) return cached.items as Promise<T[]>;
    const entry = { generation: this.generations[kind], items: this.fetchAll(kind) };
    this.lists.set(kind, entry);
    entry.items.catch(() => {
      if (this.lists.get(kind) === entry) this.lists.delete(kind);
    });
    return entry.items as Promise<T[]>;
  }

  private async fetchAll(kind: ListKind): Promise<unknown[]> {
    await this.ensureInitialized(`get${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    const { method, key } = listMethods[kind];
    const items: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; page <= maxPages; page++) {
      const label = cursor === undefined ? method : `${method} (page ${page})`;
      const result = await this.session.request(method, cursor === undefined ? undefined : { cursor }, { label });
      items.push(...((result[key] as unknown[] | undefined) ?? []));
      const next = result.nextCursor;
      if (next === undefined) return items;
      if (typeof next !== "string" || cursors.has(next)) {
        throw new ProtocolError(
          `${method}: the server returned nextCursor ${JSON.stringify(next)} ${typeof next === "string" ? "a second time" : "(not a string)"}, so the pages would never end.`,
          { method, process: this.process?.context() },
        );
      }
      cursors.add(next);
      cursor = next;
    }
    throw new ProtocolError(`${method}: the server was still returning a nextCursor after ${maxPages} pages.`, { method, process: this.process?.context() });
  }

  private resourceError(method: string, uri: string) {
    return (error: JsonRpcErrorObject) =>
      new ResourceCallError(`${method} ${JSON.stringify(uri)} failed: the server answered with JSON-RPC error ${describeErrorObject(error)}`, {
        ...errorFields(error),
        method,
        uri,
        process: this.process?.context(),
      });
  }

  private async answerServerRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    switch (method) {
      case "ping":
        return {};
      case "roots/list":
        if (this.roots === undefined) {
          throw new JsonRpcFailure(
            ErrorCode.MethodNotFound,
            "mcp-testkit: this client declared no roots capability, so it has no roots to list; pass roots: [{ uri: \"file:///...\" }] to the driver (mcpShell / mcpConnect / mcpAttach) to answer roots/list.",
          );
        }
        return { roots: this.roots };
      case "sampling/createMessage": {
        const onSampling = this.options.onSampling;
        if (!onSampling) {
          throw new JsonRpcFailure(
            ErrorCode.MethodNotFound,
            "mcp-testkit: this client does not answer sampling/createMessage; pass onSampling: (params) => ({ role: \"assistant\", content: { type: \"text\", text: \"...\" }, model: \"test-model\" }) to the driver to answer it.",
          );
        }
        return (await onSampling(params as never, context)) as JsonObject;
      }
      case "elicitation/create": {
        const onElicitation = this.options.onElicitation;
        if (!onElicitation) {
          throw new JsonRpcFailure(
            ErrorCode.MethodNotFound,
            "mcp-testkit: this client does not answer elicitation/create; pass onElicitation: (params) => ({ action: \"accept\", content: { ... } }) to the driver to answer it.",
          );
        }
        return (await onElicitation(params as never, context)) as JsonObject;
      }
      default:
        throw new JsonRpcFailure(ErrorCode.MethodNotFound, `mcp-testkit: this client has no handler for ${JSON.stringify(method)}.`);
    }
  }

  private receiveNotification(notification: ReceivedNotification): void {
    this.received.push(notification);
    // Own entries only: a server's notification named "constructor" must not reach Object.prototype.
    for (const kind of (Object.hasOwn(listChangedKinds, notification.method) ? listChangedKinds[notification.method] : undefined) ?? []) this.generations[kind]++;
    for (const waiter of [...this.waiters]) {
      if (waiter.method !== notification.method) continue;
      let matched: boolean;
      try {
        matched = waiter.where === undefined || waiter.where(notification.params);
      } catch (error) {
        this.waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.reject(error as Error);
        continue;
      }
      if (!matched) continue;
      waiter.found.push(notification);
      if (waiter.found.length >= waiter.count) {
        this.waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve(waiter.found);
      }
    }
    for (const key of [notification.method, "*"]) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(notification);
        } catch {
          // A throwing listener must not stop the others or the session.
        }
      }
    }
  }

  private closedError(method: string, id: JsonRpcId, label: string): McpDriverError {
    const process = this.process;
    if (process === undefined) {
      return new ConnectionClosedError(`The connection to ${this.target} closed before ${label} (id ${id}) was answered.`, { method, id });
    }
    const context = process.context();
    if (process.spawnError) {
      return new ProcessFailedToStart(`Could not start the server: ${process.spawnError.message}.`, { method, id, process: context, cause: process.spawnError });
    }
    if (this.initializeResult === undefined) {
      return new ProcessFailedToStart(
        `The server process exited before answering ${label}: it failed to start (or exited at once). Its stderr below may say why.`,
        { method, id, process: context },
      );
    }
    return new ProcessExitWhileWaitingForResponse(`The server process exited before answering ${label} (id ${id}).`, { method, id, process: context });
  }

  private async shutDown(timeoutMs: number): Promise<void> {
    this.session.close(
      (method, id, label) =>
        new ConnectionClosedError(`close() was called before ${label} (id ${id}) was answered.`, { method, id, process: this.process?.context() }),
    );
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new ConnectionClosedError(`close() was called while waiting for a ${waiter.method} notification.`, { method: waiter.method }));
    }
    this.waiters.clear();

    const process = this.process;
    if (process) return this.shutDownProcess(process, timeoutMs);
    const wire = this.closeWire ?? (async () => (await this.session.connectedTransport())?.close());
    await withTimeout(wire(), timeoutMs).catch(() => undefined);
  }

  private async shutDownProcess(process: StdioProcessTransport, timeoutMs: number): Promise<void> {
    const outcome = await process.shutdown(timeoutMs);
    if (process.spawnError) return; // initialize already said why; there is nothing to end
    const context = process.context();
    if (!outcome.graceful) {
      throw new ProcessDidNotExit(
        `The server was still running ${timeoutMs} ms after its stdin was closed, so mcp-testkit killed its whole process tree. ` +
          `A stdio server should exit when its stdin closes (MCP lifecycle, shutdown); or pass a longer timeout to close().`,
        { timeoutMs, process: context },
      );
    }
    const { code, signal } = outcome.exit;
    if (code !== null && code !== 0) {
      throw new ProcessExitedWithError(`The server process exited with code ${code}.`, { process: context });
    }
    if (signal !== null && !process.killedByUs) {
      throw new ProcessExitedWithError(`The server process was ended by ${signal}.`, { process: context });
    }
  }

  private describeNotifications(): string {
    const counts = new Map<string, number>();
    for (const { method } of this.received.toArray()) counts.set(method, (counts.get(method) ?? 0) + 1);
    if (counts.size === 0) return "none";
    return [...counts].map(([method, count]) => `${method} ×${count}`).join(", ");
  }

  private requireProcess(what: string): StdioProcessTransport {
    if (this.process === undefined) {
      throw new McpTestkitError(`${what}() needs a spawned server (mcpShell); this driver is connected to ${this.target} (${this.kind}).`);
    }
    return this.process;
  }

  private assertOpen(what: string): void {
    if (this.closing) throw new McpTestkitError(`${what}() was called after close(); this driver is closed: create a new one.`);
  }
}

Object.defineProperty(McpDriver.prototype, DRIVER_MARKER, { value: true, enumerable: false });

function errorFields(error: JsonRpcErrorObject) {
  return { code: error.code, serverMessage: error.message, data: error.data };
}

function mergeCapabilities(base: ClientCapabilities, extra: ClientCapabilities | undefined): ClientCapabilities {
  if (extra === undefined) return base;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged as ClientCapabilities;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws a McpTestkitError for bad driver options (before anything is spawned). */
export function checkOptions(options: DriverOptions): void {
  const timeout = options.requestTimeout;
  if (timeout !== undefined && !(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
    throw new McpTestkitError(`requestTimeout must be a number of ms > 0, got ${String(timeout)}.`);
  }
  if (options.roots !== undefined) checkRoots(options.roots);
  for (const name of ["onSampling", "onElicitation"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw new McpTestkitError(`${name} must be a function (params) => result, got ${typeof options[name]}.`);
    }
  }
}

function checkRoots(roots: unknown): void {
  if (!Array.isArray(roots) || roots.some((root) => !isPlainObject(root) || typeof root.uri !== "string")) {
    throw new McpTestkitError(`roots must be an array of { uri: string, name?: string }, got ${JSON.stringify(roots)}.`);
  }
}

