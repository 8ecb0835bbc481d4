/** What a method handler gets: the engine's state, the connection, the request and its context. */
import type { StepKindSpec } from "../features/feature.js";
import type { JsonRpcRequest } from "../../protocol/jsonrpc.js";
import type { Catalog } from "../catalog.js";
import type { CallLog } from "../call-log.js";
import type { Connection } from "../connection.js";
import { replyWith, type Outcome } from "../outcome.js";
import type { RequestContext } from "../request-context.js";
import type { ToolListSource, ToolStepSource } from "../step-sources.js";
import type { PromptGetSource, PromptListSource, ResourceListSource, ResourceReadSource } from "../request-sources.js";
import type { CacheOptions } from "../cache-hints.js";
import type { Subscription } from "./subscriptions.js";
import type { RequestStateKeeper } from "../mrtr/request-state.js";
import type { EventHub } from "../events.js";

export interface EngineState {
  readonly catalog: Catalog;
  readonly calls: CallLog;
  /** Asked in order for each tool call's step; the last always answers. */
  readonly toolSources: readonly ToolStepSource[];
  /** Tools listed besides the catalog's (fakes), asked on every `tools/list`. */
  readonly toolListSources: readonly ToolListSource[];
  /** Asked in order for each `resources/read` and `prompts/get` before the catalog (fakes). */
  readonly resourceReadSources: readonly ResourceReadSource[];
  readonly promptGetSources: readonly PromptGetSource[];
  /** Resources and prompts listed besides the catalog's (fakes). */
  readonly resourceListSources: readonly ResourceListSource[];
  readonly promptListSources: readonly PromptListSource[];
  readonly pageSize: number;
  readonly serverInfo: Record<string, unknown>;
  readonly instructions?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly protocolVersions: readonly string[];
  readonly cache?: CacheOptions;
  readonly subscriptions: Set<Subscription>;
  /** The mock's events (a listen tells its life as a `stream:open` / `stream:close`). */
  readonly events: EventHub;
  readonly requestStates: RequestStateKeeper;
  /** The step kinds the features answer, by step key (a tool call hands a step with one of these keys to its feature). */
  readonly stepKinds: ReadonlyMap<string, StepKindSpec>;
  /** Sends a notification to every legacy session and every subscriptions/listen that opted in. */
  broadcast(method: string, params?: Record<string, unknown>): void;
  /** Tells the sessions and listens subscribed to `uri` (or a URI its template matches) that it changed. */
  notifyResourceUpdated(uri: string, params?: Record<string, unknown>): void;
  endSubscriptions(): number;
  /** The capabilities declared at `version` (every feature's), unless the `capabilities` option replaces them. */
  capabilitiesFor(version: string): Record<string, unknown>;
  /** Ends one in-flight request of a connection (its call, if any, gets `outcome`). */
  abortRequest(connection: Connection, requestKey: string, outcome: "cancelled" | "disconnected", reason: string): void;
}

export interface HandlerInput {
  readonly state: EngineState;
  /** The client's connection: where server requests go, what it negotiated. */
  readonly connection: Connection;
  readonly request: JsonRpcRequest;
  readonly params: Record<string, unknown>;
  /** This request's version, identity and transport facts. */
  readonly context: RequestContext;
}

export type RequestHandler = (input: HandlerInput) => Outcome | Promise<Outcome>;

export function ok(input: HandlerInput, result: Record<string, unknown>): Outcome {
  return replyWith(input.request.id, result);
}
