/**
 * MCP protocol revisions as data. Everything that differs between revisions is a row in
 * `FEATURES` (the revision that introduced it and, if any, the one that removed it), so a new
 * revision such as 2026-07-28 is added by appending to `PROTOCOL_VERSIONS` and marking the
 * features it adds or removes, not by adding `if` chains elsewhere.
 */

/** "legacy": `initialize` and sessions (2024-11-05 … 2025-11-25). "modern": `server/discover`, no sessions. */
export type ProtocolEra = "legacy" | "modern";

export interface ProtocolVersionInfo {
  version: string;
  era: ProtocolEra;
  /** JSON Schema dialect assumed for `inputSchema` / `outputSchema` without `$schema`. */
  jsonSchemaDialect: "draft-07" | "2020-12";
}

/** Supported revisions, oldest first. The last one is our latest. */
export const PROTOCOL_VERSIONS: readonly ProtocolVersionInfo[] = [
  { version: "2024-11-05", era: "legacy", jsonSchemaDialect: "draft-07" },
  { version: "2025-03-26", era: "legacy", jsonSchemaDialect: "draft-07" },
  { version: "2025-06-18", era: "legacy", jsonSchemaDialect: "draft-07" },
  { version: "2025-11-25", era: "legacy", jsonSchemaDialect: "2020-12" },
];

export type ProtocolVersion = string;

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.length - 1]!.version;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS.map((v) => v.version);
/** Assumed by a Streamable HTTP server when a request carries no `MCP-Protocol-Version` header. */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = "2025-03-26";

interface FeatureSpan {
  since: ProtocolVersion;
  /** The first revision that no longer has it. */
  until?: ProtocolVersion;
  what: string;
}

/** What each revision can carry. Keys are used by the engine (to speak a version) and the validator. */
export const FEATURES = {
  audioContent: { since: "2025-03-26", what: "audio content blocks" },
  toolAnnotations: { since: "2025-03-26", what: "tool annotations" },
  completionsCapability: { since: "2025-03-26", what: "the completions server capability" },
  progressMessage: { since: "2025-03-26", what: "a message on progress notifications" },
  jsonRpcBatches: { since: "2025-03-26", until: "2025-06-18", what: "JSON-RPC batches" },
  structuredContent: { since: "2025-06-18", what: "structuredContent in tool results" },
  outputSchema: { since: "2025-06-18", what: "outputSchema on tools" },
  resourceLinkContent: { since: "2025-06-18", what: "resource_link content blocks" },
  elicitation: { since: "2025-06-18", what: "elicitation (elicitation/create)" },
  titles: { since: "2025-06-18", what: "title on tools, resources, prompts and implementations" },
  completionContext: { since: "2025-06-18", what: "context in completion/complete" },
  protocolVersionHeader: { since: "2025-06-18", what: "the MCP-Protocol-Version HTTP header" },
  icons: { since: "2025-11-25", what: "icons on tools, resources, prompts and implementations" },
  elicitationUrlMode: { since: "2025-11-25", what: "URL-mode elicitation" },
  tasks: { since: "2025-11-25", what: "tasks (tasks/*)" },
  samplingTools: { since: "2025-11-25", what: "tools in sampling/createMessage" },
  ssePriming: { since: "2025-11-25", what: "SSE priming events (an event id before any data) for resumable streams" },
  annotationLastModified: { since: "2025-06-18", what: "lastModified in annotations" },
  implementationDescription: { since: "2025-11-25", what: "description and websiteUrl on implementations" },
  elicitationEnumVariants: { since: "2025-11-25", what: "titled and multi-select enums in elicitation schemas" },
  errorWithoutId: { since: "2025-11-25", what: "error responses without an id" },
  cancelWithoutRequestId: { since: "2025-11-25", what: "notifications/cancelled without a requestId" },
} as const satisfies Record<string, FeatureSpan>;

export type Feature = keyof typeof FEATURES;

const order = new Map(PROTOCOL_VERSIONS.map((info, index) => [info.version, index]));

export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return typeof version === "string" && order.has(version);
}

export function versionInfo(version: ProtocolVersion): ProtocolVersionInfo | undefined {
  return PROTOCOL_VERSIONS[order.get(version) ?? -1];
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b` (both must be known). */
export function compareVersions(a: ProtocolVersion, b: ProtocolVersion): number {
  // Dates in ISO form compare correctly as strings, so unknown future revisions still order.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a revision has a feature. Unknown revisions are judged by date like known ones. */
export function versionHas(version: ProtocolVersion, feature: Feature): boolean {
  const span: FeatureSpan = FEATURES[feature];
  if (compareVersions(version, span.since) < 0) return false;
  return span.until === undefined || compareVersions(version, span.until) < 0;
}

/**
 * Version negotiation as the spec says: the server answers with the requested version if it
 * supports it, else with its own latest (from `supported`, which defaults to all we know).
 */
export function negotiateVersion(
  requested: unknown,
  supported: readonly ProtocolVersion[] = SUPPORTED_PROTOCOL_VERSIONS,
): ProtocolVersion {
  if (typeof requested === "string" && supported.includes(requested)) return requested;
  const latest = [...supported].sort(compareVersions).at(-1);
  if (latest === undefined) throw new Error("negotiateVersion: the list of supported versions is empty");
  return latest;
}
