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
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import { runHandler, type HandlerView } from "../interaction/run-handler.js";
import type { RequestIdentity } from "../request-context.js";
import type { HandlerInput } from "../methods/handler-input.js";

/**
 * One request, as a user handler sees it: its facts, and the interaction every handler that asks
 * shares (its signal, asks to the client in both eras, progress, logs, notifications).
 */
export interface McpMethodRequest extends HandlerView {
  readonly method: string;
  readonly id: JsonRpcId;
  /** The request's params (`{}` when it sent none); with a `params` schema, what the schema gave back. */
  readonly params: Record<string, unknown>;
  /** Who is asking (test id, context), as fakes see it. */
  readonly identity: RequestIdentity;
  /** The connection (session) the request came on. */
  readonly sessionId: string;
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

/** What a request's handlers answered when all passed it on. */
const PASSED: Outcome = Object.freeze({ type: "none" as const });

/** The params a retry must repeat: what the request asked, without the MRTR fields and metadata. */
function askedParams(params: Record<string, unknown>): Record<string, unknown> {
  const { requestState: _state, inputResponses: _responses, _meta, ...asked } = params;
  return asked;
}

/**
 * Runs `handlers` in order for one request (each may pass it on) and returns the first answer
 * as an outcome (a fault it returned enacted first), or `undefined` when all passed. `params`
 * may rewrite what the handlers see. They run on the interaction runtime, so they may ask the
 * client (in 2026-07-28 the run parks for the retry) and are cancelled with their request.
 */
export async function runUserHandlers(
  input: HandlerInput,
  handlers: readonly McpMethodHandler[],
  params: Record<string, unknown> = input.params,
  passed?: { ownRetry: boolean },
): Promise<Outcome | undefined> {
  const { request, connection, context } = input;
  // A retry that resumes a run of these handlers never calls this request's `run`: it is theirs.
  let ranFresh = false;
  const outcome = await runHandler(input, {
    // Named apart from the built-in handler's runs: a retry of one of those passes through here untouched.
    subject: { method: request.method, name: `use() ${request.method}`, args: askedParams(params), label: request.method },
    passOthers: true,
    run: async (view) => {
      ranFresh = true;
      const seen: McpMethodRequest = Object.create(view, {
        method: { value: request.method, enumerable: true },
        id: { value: request.id, enumerable: true },
        params: { value: params, enumerable: true },
        identity: { value: context.identity, enumerable: true },
        sessionId: { value: connection.id, enumerable: true },
      });
      for (const handler of handlers) {
        const answer = await handler(seen);
        if (answer !== undefined) return answer;
      }
      return PASSED;
    },
    answer: (settled, answering) => {
      if ("thrown" in settled) throw settled.thrown;
      return settled.value === PASSED ? PASSED : replyWith(answering.requestId, settled.value);
    },
  });
  if (outcome !== PASSED) return outcome;
  if (passed !== undefined && !ranFresh && input.params.requestState !== undefined) passed.ownRetry = true;
  return undefined;
}

/**
 * The request as the handler behind a `use()` handler sees it, after the `use()` handler asked
 * the client (2026-07-28) and then passed: its round is over, so the retry's `requestState` and
 * `inputResponses` are not the next handler's; it gets the request as first asked.
 */
export function withoutRetryFields(input: HandlerInput): HandlerInput {
  const { requestState: _state, inputResponses: _responses, ...params } = input.params;
  return { ...input, params, request: { ...input.request, params } };
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
