/**
 * What a step function `(call) => step` receives: the call's record plus ways to talk back to
 * the client while the call runs (progress, log messages, sampling, elicitation, roots), which
 * are the request's interaction (the runtime every handler that asks shares). Every request made
 * here and its answer is recorded on the call (`call.exchanges`).
 */
import type { LoggingLevel } from "../protocol/methods.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { ClientFacts } from "../protocol/request-meta.js";
import type { ToolCall } from "./call-log.js";
import { CALL_ENDED, type Connection } from "./connection.js";
import type { CallerAuth, RequestIdentity } from "./request-context.js";
import { Interaction, type AskOptions, type ClientRoot, type ElicitAnswer, type SampleAnswer } from "./interaction/interaction.js";

import type { CallTask } from "./tasks/task-handle.js";
import type { StepObject } from "./steps.js";

export type { AskOptions, ClientRoot, ElicitAnswer, SampleAnswer } from "./interaction/interaction.js";
export { passesLevel } from "./interaction/interaction.js";

type Json = Record<string, unknown>;

export interface ToolCallContext {
  readonly tool: string;
  /** Always an object: `{}` when the client sent none, or sent something else (that value is in `rawArguments`). */
  readonly arguments: Record<string, unknown>;
  /** Only when the client sent `arguments` that are not an object: that value, as sent. */
  readonly rawArguments?: unknown;
  readonly index: number;
  readonly sessionId: string;
  readonly meta?: Record<string, unknown>;
  readonly requestId: JsonRpcId;
  /** The protocol version the request spoke. */
  readonly protocolVersion: string;
  /** Who is calling (test id, context), as the wire read it; empty when nothing said. */
  readonly identity: RequestIdentity;
  /** Who signed in (client id, subject, scopes), when the mock is protected; undefined otherwise. */
  readonly auth?: CallerAuth;
  /** The call's live record (its outcome is still `pending`). */
  readonly record: ToolCall;
  /** Aborted when the client cancels the call, the connection drops or the server closes. */
  readonly signal: AbortSignal;
  /** Sends `notifications/progress` if the request carried a progress token and is not answered yet (else does nothing). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message`, unless the client's `logging/setLevel` filters it out. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Sends any notification to the client. */
  notify(method: string, params?: Json): void;
  /**
   * Sends a request to the client and waits for the answer (recorded on the call). In
   * 2026-07-28 it becomes an entry of the call's `input_required` result (MRTR), keyed by
   * `options.key` (default `elicitation-1`, `sampling-2`, ...), answered by the client's retry.
   */
  request(method: string, params?: Json, options?: AskOptions): Promise<Json>;
  /** `sampling/createMessage`; resolves with the client's answer (`answer.content.text` for a text reply). */
  sample(params: Json, options?: AskOptions): Promise<SampleAnswer>;
  /** `elicitation/create` (form mode: `{ message, requestedSchema }`; URL mode: `{ mode: "url", ... }`); resolves with `{ action, content? }`. */
  elicit(params: Json, options?: AskOptions): Promise<ElicitAnswer>;
  /** `roots/list`; resolves with the client's roots themselves (the result's `roots` array, `[]` when it sent none). */
  listRoots(options?: AskOptions): Promise<ClientRoot[]>;
  /** What the client declared it can do: per request in 2026-07-28, at `initialize` before. */
  readonly clientCapabilities: Json;
  /**
   * Tells every client, not only this one: legacy sessions get the notification, 2026-07-28
   * `subscriptions/listen` streams get it when they opted in (e.g. `notifications/tools/list_changed`).
   * `notifications/resources/updated` with a `uri` goes only where that resource is subscribed to.
   */
  broadcast(method: string, params?: Json): void;
  /** Ends every open `subscriptions/listen` from the server side (each gets its closing result). */
  endSubscriptions(): number;
  /** `ping` to the client; resolves when it answers. */
  ping(): Promise<void>;
  /**
   * The call as a task (see docs/tasks.md): `call.task.start()` answers the call with a task now
   * (when the client can take one) and the function's work goes on as the task's; its status and
   * message, its asks (input the task waits for), and its return value (the task's outcome).
   */
  readonly task: CallTask;
}

/** What a call may tell every client through (the engine). */
export interface CallHub {
  broadcast(method: string, params?: Json): void;
  notifyResourceUpdated(uri: string, params?: Json): void;
  endSubscriptions(): number;
}

const NO_HUB: CallHub = { broadcast: () => undefined, notifyResourceUpdated: () => undefined, endSubscriptions: () => 0 };

/**
 * A call in progress, as its step function sees it: the call's facts over the request's
 * interaction. One object per call, its methods on the prototype.
 */
export class LiveCall extends Interaction implements ToolCallContext {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  // Declared only: an own property exactly when the client sent non-object arguments.
  declare readonly rawArguments?: unknown;
  declare readonly auth?: CallerAuth;
  readonly index: number;
  readonly sessionId: string;
  readonly meta?: Record<string, unknown>;
  readonly requestId: JsonRpcId;
  readonly #hub: CallHub;

  constructor(
    readonly record: ToolCall,
    connection: Connection,
    protocolVersion: string,
    readonly identity: RequestIdentity,
    /** What a 2026-07-28 request said about its client (capabilities, log level); legacy: undefined. */
    client?: ClientFacts,
    /** 2026-07-28: `inputResponses` the request already carries, answering asks by key. */
    given?: Json,
    hub: CallHub = NO_HUB,
  ) {
    super({
      connection,
      requestId: record.requestId,
      protocolVersion,
      client,
      given,
      progressToken: record.meta?.progressToken as JsonRpcId | undefined,
      ended: CALL_ENDED,
      call: record,
      exchanges: record.exchanges,
    });
    this.#hub = hub;
    this.tool = record.tool;
    this.arguments = record.arguments;
    if (Object.hasOwn(record, "rawArguments")) (this as { rawArguments?: unknown }).rawArguments = record.rawArguments;
    if (record.auth !== undefined) (this as { auth?: CallerAuth }).auth = record.auth;
    this.index = record.index;
    this.sessionId = record.sessionId;
    this.meta = record.meta;
    this.requestId = record.requestId;
  }

  /** Set by the tool-call runtime: the handle of a step kind a step function reads (`call.task`). */
  kindHandles?: (key: string) => unknown;
  #handOver?: { promise: Promise<{ key: string; step: StepObject }>; resolve: (hand: { key: string; step: StepObject }) => void };
  /** Set when the function handed its call to a step kind before it returned (synchronously). */
  handedOverStep?: { key: string; step: StepObject };

  get task(): CallTask {
    return this.kindHandles?.("task") as CallTask;
  }

  /** The call is handed to the step kind `key`, to be answered as `step` says (its work goes on as the kind's). */
  handOver(key: string, step: StepObject): void {
    if (this.handedOverStep !== undefined) return;
    this.handedOverStep = { key, step };
    this.#handOver?.resolve(this.handedOverStep);
  }

  /** Resolves when the function hands its call to a step kind (asked once, for a function still running). */
  handOverPoint(): Promise<{ key: string; step: StepObject }> {
    if (this.#handOver === undefined) {
      let resolve!: (hand: { key: string; step: StepObject }) => void;
      const promise = new Promise<{ key: string; step: StepObject }>((done) => (resolve = done));
      this.#handOver = { promise, resolve };
      if (this.handedOverStep !== undefined) resolve(this.handedOverStep);
    }
    return this.#handOver.promise;
  }

  broadcast(method: string, params?: Json): void {
    // An update is news only to those who subscribed to that resource (the spec sends it nowhere else).
    if (method === "notifications/resources/updated" && typeof params?.uri === "string") this.#hub.notifyResourceUpdated(params.uri, params);
    else this.#hub.broadcast(method, params);
  }

  endSubscriptions(): number {
    return this.#hub.endSubscriptions();
  }
}
