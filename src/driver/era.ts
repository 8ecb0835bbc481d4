/**
 * The era a driver speaks, as an object: how a call goes out (`send`), how a request from the
 * server is answered (`answerServerRequest`), what every request adds to its `_meta`
 * (`requestMeta`) and how a request given up is cancelled on the wire (`cancel`). The legacy era
 * (legacy-era.ts) and 2026-07-28 (modern-era.ts) are the two; the negotiation chooses between them
 * by the version it settles on, and what that version has comes from the version table.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { type Feature, LATEST_KNOWN_VERSION, revisionsWith, versionHas } from "../protocol/versions.js";
import type { Negotiation } from "./negotiation.js";
import type { JsonObject, RequestSpec, ServerRequestContext } from "./request-types.js";
import type { TaskWire } from "./task-wire.js";

export interface Era {
  /** A call's request, once the handshake is done. */
  send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject>;
  /** A request from the server: its result, or a thrown `RpcError` to answer with an error. */
  answerServerRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject>;
  /** What every request adds to its `_meta`; undefined when nothing. */
  requestMeta(): JsonObject | undefined;
  /** Cancels request `id` the wire's own way; false when the era has none (`notifications/cancelled` is sent then). */
  cancel(id: JsonRpcId, reason: string): boolean;
  /** The tools a client may use out of a `tools/list` (all of them, but where the revision says to leave some out). */
  acceptTools(tools: Tool[]): Tool[];
  /** As a list fetch starts: what the fetch must wait for too (the era's own way of following list changes), if anything. */
  beforeListFetch(): Promise<void> | undefined;
  /** How a tool call runs as a task in this era: asked for, polled, given input, cancelled. */
  readonly tasks: TaskWire;
}

/** What the negotiated version has, from the version table (nothing before the handshake). */
export class SpokenVersion {
  constructor(private readonly negotiation: Negotiation) {}

  get version(): string | undefined {
    return this.negotiation.result?.protocolVersion;
  }

  has(feature: Feature): boolean {
    const version = this.negotiation.result?.protocolVersion;
    return version !== undefined && versionHas(version, feature);
  }

  /** Fails `what()` unless the negotiated version has `feature` (a method of the modern era); `fallbackReason`: why auto chose initialize. */
  require(what: string, feature: Feature, fallbackReason: string | undefined): void {
    if (this.has(feature)) return;
    throw new McpTestkitError(
      `${what}() is part of protocol revision ${revisionsWith(feature)}, but this driver speaks ${this.version} (legacy era${fallbackReason ? `: ${fallbackReason}` : ""}). ` +
        `Against a ${revisionsWith(feature)} server use versionNegotiation "auto" (the default) or { pin: ${JSON.stringify(LATEST_KNOWN_VERSION)} }.`,
    );
  }
}

/** The era of the version the negotiation speaks now, or is asking for. */
export class EraChoice {
  constructor(
    private readonly negotiation: Negotiation,
    private readonly legacy: Era,
    /** Undefined when the options ask for the legacy era only. */
    private readonly modern: Era | undefined,
  ) {}

  current(): Era {
    const version = this.negotiation.speaking;
    return this.modern !== undefined && version !== undefined && versionHas(version, "perRequestMeta") ? this.modern : this.legacy;
  }
}
