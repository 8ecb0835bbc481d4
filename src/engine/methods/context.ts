/** What a method handler gets: the engine's state, the session and the request. */
import type { JsonRpcRequest } from "../../protocol/jsonrpc.js";
import type { Catalog } from "../catalog.js";
import type { CallLog } from "../call-log.js";
import { replyWith, type Outcome } from "../outcome.js";
import type { Session } from "../session.js";

export interface EngineState {
  readonly catalog: Catalog;
  readonly calls: CallLog;
  readonly pageSize: number;
  readonly serverInfo: Record<string, unknown>;
  readonly instructions?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly protocolVersions: readonly string[];
}

export interface HandlerContext {
  state: EngineState;
  session: Session;
  request: JsonRpcRequest;
  params: Record<string, unknown>;
}

export type RequestHandler = (context: HandlerContext) => Outcome | Promise<Outcome>;

export function ok(context: HandlerContext, result: Record<string, unknown>): Outcome {
  return replyWith(context.request.id, result);
}
