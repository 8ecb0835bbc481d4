/**
 * What a step function `(call) => step` receives: the call's record plus ways to talk back to
 * the client while the call runs (progress, log messages, sampling, elicitation, roots).
 * Every request made here and its answer is recorded on the call (`call.exchanges`).
 */
import { LoggingLevels, type LoggingLevel } from "../protocol/methods.js";
import { versionHas } from "../protocol/versions.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { Exchange, ToolCall } from "./call-log.js";
import { ServerRequestError, type Session } from "./session.js";

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
  readonly protocolVersion: string;
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
  /** Sends a request to the client and waits for the answer (recorded on the call). */
  request(method: string, params?: Json): Promise<Json>;
  /** `sampling/createMessage`. */
  sample(params: Json): Promise<Json>;
  /** `elicitation/create` (form mode: `{ message, requestedSchema }`; URL mode: `{ mode: "url", ... }`). */
  elicit(params: Json): Promise<Json>;
  /** `roots/list`; resolves with the client's roots. */
  listRoots(): Promise<Json[]>;
  /** `ping` to the client; resolves when it answers. */
  ping(): Promise<void>;
}

export function createCallContext(call: ToolCall, session: Session, signal: AbortSignal): ToolCallContext {
  const related = { relatedRequestId: call.requestId };
  const progressToken = call.meta?.progressToken;
  const request = async (method: string, params?: Json): Promise<Json> => {
    const exchange: Exchange = { method, params, sentAt: Date.now() };
    call.exchanges.push(exchange);
    try {
      exchange.result = await session.request(method, params, { ...related, signal });
      return exchange.result;
    } catch (error) {
      if (error instanceof ServerRequestError) exchange.error = error.error;
      throw error;
    } finally {
      exchange.answeredAt = Date.now();
    }
  };
  return {
    tool: call.tool,
    arguments: call.arguments,
    ...(Object.hasOwn(call, "rawArguments") ? { rawArguments: call.rawArguments } : {}),
    index: call.index,
    sessionId: call.sessionId,
    meta: call.meta,
    requestId: call.requestId,
    protocolVersion: session.protocolVersion,
    record: call,
    signal,
    progress(progress, total, message) {
      // Progress must stop once the call is answered (the client forgets the token then).
      if (progressToken === undefined || signal.aborted || call.outcome !== "pending") return;
      const params: Json = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined && versionHas(session.protocolVersion, "progressMessage")) params.message = message;
      session.send({ jsonrpc: "2.0", method: "notifications/progress", params }, related);
    },
    log(level, data, logger) {
      if (signal.aborted || !passesLevel(level, session.logLevel)) return;
      const params: Json = { level, data };
      if (logger !== undefined) params.logger = logger;
      session.send({ jsonrpc: "2.0", method: "notifications/message", params }, related);
    },
    notify(method, params) {
      session.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, related);
    },
    request,
    sample: (params) => request("sampling/createMessage", params),
    elicit: (params) => request("elicitation/create", params),
    listRoots: async () => ((await request("roots/list")).roots as Json[] | undefined) ?? [],
    ping: async () => {
      await request("ping");
    },
  };
}

/** Whether a message at `level` gets through a client's minimum level (all pass when unset). */
export function passesLevel(level: LoggingLevel, minimum: LoggingLevel | undefined): boolean {
  return minimum === undefined || LoggingLevels.indexOf(level) >= LoggingLevels.indexOf(minimum);
}
