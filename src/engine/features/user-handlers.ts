/**
 * Handlers as values: the methods a user adds (`features`), puts in front of the built-in ones
 * (`server.use(method, handler)`), and the policy for a method nobody serves. A user handler gets
 * the request as plain data plus a way to notify its client, and answers with a result; it
 * answers `undefined` to pass the request on to the next handler (the one before it, then the
 * built-in one), as msw's `passthrough()`.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import { closest } from "../../util/closest.js";
import { McpTestkitError } from "../../errors.js";
import { typeLabel } from "../../util/text.js";
import { idKey } from "../connection.js";
import { CANCELLED, replyWith, RpcError, type Outcome } from "../outcome.js";
import type { RequestIdentity } from "../request-context.js";
import type { HandlerInput } from "../methods/handler-input.js";

/** One request, as a user handler sees it. */
export interface McpMethodRequest {
  readonly method: string;
  readonly id: JsonRpcId;
  /** The request's params (`{}` when it sent none); with a `params` schema, what the schema gave back. */
  readonly params: Record<string, unknown>;
  /** The protocol revision this request speaks. */
  readonly protocolVersion: string;
  /** Who is asking (test id, context), as fakes see it. */
  readonly identity: RequestIdentity;
  /** The connection (session) the request came on. */
  readonly sessionId: string;
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Sends a notification to this request's client; over HTTP it travels on the request's own stream. */
  notify(method: string, params?: Record<string, unknown>): void;
}

/**
 * Answers a request with its result, or `undefined` to pass it on. Throw an `RpcError` to answer
 * with a JSON-RPC error; any other throw answers -32603.
 */
export type McpMethodHandler = (request: McpMethodRequest) => unknown;

/**
 * A method nobody serves: `"error"` (default: -32601, as MCP servers answer), `"warn"` (the same
 * plus a line on the mock's log naming the closest method served) or a handler that answers it.
 */
export type UnhandledMethodPolicy = "error" | "warn" | McpMethodHandler;

export function checkUnhandledMethodPolicy(policy: unknown): asserts policy is UnhandledMethodPolicy | undefined {
  if (policy === undefined || policy === "error" || policy === "warn" || typeof policy === "function") return;
  throw new McpTestkitError(`"onUnhandledMethod" must be "error", "warn" or a function (request) => result, got ${typeLabel(policy)}.`);
}

export function checkMethodName(method: unknown, where: string): asserts method is string {
  if (typeof method !== "string" || method === "" || method.startsWith("notifications/")) {
    throw new McpTestkitError(
      `${where} takes a request method name such as "tools/call" or "x/echo", got ${typeof method === "string" ? JSON.stringify(method) : typeLabel(method)}.` +
        (typeof method === "string" && method.startsWith("notifications/") ? " A notification is acted on by a feature's `notifications`, not by a method handler." : ""),
    );
  }
}

/** The request a user handler sees; its signal is made (and made cancellable) only on first read. */
function requestFor(input: HandlerInput, controller: () => AbortController, params: Record<string, unknown>): McpMethodRequest {
  const { connection, request, context } = input;
  return {
    method: request.method,
    id: request.id,
    params,
    protocolVersion: context.protocolVersion,
    identity: context.identity,
    sessionId: connection.id,
    get signal() {
      return controller().signal;
    },
    notify(method, notificationParams) {
      connection.send(notificationParams === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: notificationParams }, { relatedRequestId: request.id });
    },
  };
}

/**
 * Runs `handlers` in order for one request (each may pass it on) and returns the first answer
 * as an outcome, or `undefined` when all passed. `params` may rewrite what the handler sees.
 */
export async function runUserHandlers(
  input: HandlerInput,
  handlers: readonly McpMethodHandler[],
  params: Record<string, unknown> = input.params,
): Promise<Outcome | undefined> {
  let made: AbortController | undefined;
  const key = idKey(input.request.id);
  const controller = () => {
    if (made === undefined) {
      made = new AbortController();
      input.connection.inFlight.set(key, { controller: made });
    }
    return made;
  };
  const request = requestFor(input, controller, params);
  try {
    for (const handler of handlers) {
      const answer = await handler(request);
      if (made?.signal.aborted) return CANCELLED;
      if (answer !== undefined) return replyWith(input.request.id, answer);
    }
    return undefined;
  } catch (thrown) {
    if (made?.signal.aborted) return CANCELLED;
    throw thrown;
  } finally {
    if (made !== undefined) input.connection.releaseInFlight(key, made);
  }
}

/** The answer for a method nobody served, by the policy; `served` names what is served, for the hint. */
export async function unhandledMethod(input: HandlerInput, policy: UnhandledMethodPolicy, served: readonly string[], warn: (line: string) => void): Promise<Outcome> {
  const method = input.request.method;
  if (typeof policy === "function") {
    const answer = await runUserHandlers(input, [policy]);
    if (answer !== undefined) return answer;
  }
  const near = closest(method, served);
  const hint = near !== undefined ? ` Did you mean ${near}?` : "";
  if (policy === "warn") warn(`mcp-testkit: no handler for ${method}; answered -32601.${hint} Serve it with server.use("${method}", handler), a feature, or set onUnhandledMethod.`);
  throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}
