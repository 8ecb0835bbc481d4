/**
 * The server's requests to the client, on the wire: each gets a signal (aborted when the server
 * cancels it or the connection closes), is answered by the one handler the driver gives (its era
 * decides how), and gets its reply written, unless the server cancelled it meanwhile (the spec
 * says the receiver should not reply then). Params that break the schema are answered -32602
 * without asking the handler.
 */
import type { MessageProblem } from "../inspect/types.js";
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { formatProblems, toJsonRpcError } from "./request-errors.js";
import type { JsonObject, ServerRequestContext } from "./request-types.js";

/** Answers a server request; throws an `RpcError` (or any error) to answer with an error. */
export type ServerRequestHandler = (method: string, params: JsonObject | undefined, context: ServerRequestContext) => Promise<JsonObject>;

export class IncomingRequests {
  private readonly open = new Map<JsonRpcId, AbortController>();
  private handler: ServerRequestHandler | undefined;

  constructor(
    /** Writes a reply (nothing once the connection is closed). */
    private readonly reply: (message: JsonObject) => Promise<void> | undefined,
  ) {}

  /** The one handler every server request goes to (until then, each is refused as unknown). */
  answerWith(handler: ServerRequestHandler): void {
    this.handler = handler;
  }

  get size(): number {
    return this.open.size;
  }

  async answer(id: JsonRpcId, method: string, params: JsonObject | undefined, problems: readonly MessageProblem[]): Promise<void> {
    const paramProblems = problems.filter((problem) => problem.rule === "params.shape");
    const controller = new AbortController();
    this.open.set(id, controller);
    let reply: JsonObject;
    if (paramProblems.length > 0) {
      reply = { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}:\n${formatProblems(paramProblems)}` } };
    } else if (this.handler === undefined) {
      reply = { jsonrpc: "2.0", id, error: { code: ErrorCode.MethodNotFound, message: `mcp-testkit: this client answers no ${method}` } };
    } else {
      try {
        const result = await this.handler(method, params, { method, requestId: id, signal: controller.signal });
        reply = { jsonrpc: "2.0", id, result };
      } catch (error) {
        reply = { jsonrpc: "2.0", id, error: toJsonRpcError(error) };
      }
    }
    // A request the server cancelled (or one the closing connection ended) gets no answer.
    if (this.open.get(id) !== controller) return;
    this.open.delete(id);
    try {
      await this.reply(reply);
    } catch {
      // The failure is in the recorder; the server will time out its request.
    }
  }

  /** `notifications/cancelled` from the server: its request's handler is told, and no reply goes out. */
  cancelled(id: JsonRpcId, reason: unknown): void {
    const controller = this.open.get(id);
    if (controller === undefined) return;
    this.open.delete(id);
    controller.abort(new Error(typeof reason === "string" ? reason : "cancelled by the server"));
  }

  /** The connection closed: every handler still at work is told; none of them will be answered. */
  closeAll(): void {
    for (const controller of this.open.values()) controller.abort(new Error("the connection closed"));
    this.open.clear();
  }
}
