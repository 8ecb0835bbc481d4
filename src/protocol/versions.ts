/**
 * MCP protocol revisions as data. Everything that differs between revisions is a row in
 * `FEATURES` (the revision that introduced it and, if any, the one that removed it), so a new
 * revision such as 2026-07-28 is added by appending to `PROTOCOL_VERSIONS` and marking the
 * features it adds or removes, not by adding `if` chains elsewhere.
 */

/** "legacy": `initialize` and sessions (2024-11-05 … 2025-11-25). "modern": `server/discover`, no sessions. */
export type ProtocolEra = "legacy" | "modern";

/** What mcp-testkit knows of one protocol revision (see `PROTOCOL_VERSIONS`, `versionInfo`). */
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
  { version: "2026-07-28", era: "modern", jsonSchemaDialect: "2020-12" },
];

/** A protocol revision's date string ("2025-11-25"); a plain string, so an unknown one can be named and refused. */
export type ProtocolVersion = string;

/** Every revision mcp-testkit knows, both eras, oldest first. */
export const KNOWN_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS.map((v) => v.version);
/**
 * The revisions an `initialize` can negotiate (the legacy era), oldest first: what a session
 * offers and accepts. 2026-07-28 has no `initialize`, so it is not among them; the mock, the
 * driver, the validator and `check` speak it per request (`LATEST_KNOWN_VERSION`).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS.filter((v) => v.era === "legacy").map((v) => v.version);
/** The newest revision a session can negotiate (what `initialize` offers). */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1]!;
/** The newest revision of all, spoken per request (2026-07-28: no `initialize`). */
export const LATEST_KNOWN_VERSION: ProtocolVersion = KNOWN_PROTOCOL_VERSIONS[KNOWN_PROTOCOL_VERSIONS.length - 1]!;
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
  elicitationId: { since: "2025-11-25", until: "2026-07-28", what: "elicitationId in a URL-mode elicitation (2026-07-28: the server correlates through requestState)" },
  tasks: { since: "2025-11-25", what: "tasks (tasks/*)" },
  coreTasks: {
    since: "2025-11-25",
    until: "2026-07-28",
    what: "tasks in the core protocol (capabilities.tasks, a tool's execution.taskSupport, params.task, tasks/result and tasks/list; 2026-07-28: the tasks extension)",
  },
  samplingTools: { since: "2025-11-25", what: "tools in sampling/createMessage" },
  ssePriming: { since: "2025-11-25", until: "2026-07-28", what: "SSE priming events (an event id before any data) for resumable streams" },
  annotationLastModified: { since: "2025-06-18", what: "lastModified in annotations" },
  implementationDescription: { since: "2025-11-25", what: "description and websiteUrl on implementations" },
  elicitationEnumVariants: { since: "2025-11-25", what: "titled and multi-select enums in elicitation schemas" },
  errorWithoutId: { since: "2025-11-25", what: "error responses without an id" },
  cancelWithoutRequestId: { since: "2025-11-25", what: "notifications/cancelled without a requestId" },
  // Removed by 2026-07-28 (the legacy era's session machinery).
  initialize: { since: "2024-11-05", until: "2026-07-28", what: "the initialize handshake (initialize, notifications/initialized)" },
  sessions: { since: "2025-03-26", until: "2026-07-28", what: "protocol sessions (Mcp-Session-Id over HTTP)" },
  getStream: { since: "2025-03-26", until: "2026-07-28", what: "the standalone GET stream and DELETE on Streamable HTTP" },
  resumption: { since: "2025-03-26", until: "2026-07-28", what: "resuming SSE streams with Last-Event-ID" },
  ping: { since: "2024-11-05", until: "2026-07-28", what: "ping" },
  loggingSetLevel: { since: "2024-11-05", until: "2026-07-28", what: "logging/setLevel (2026-07-28: a log level per request in _meta)" },
  resourcesSubscribe: { since: "2024-11-05", until: "2026-07-28", what: "resources/subscribe and resources/unsubscribe (2026-07-28: subscriptions/listen)" },
  rootsListChanged: { since: "2024-11-05", until: "2026-07-28", what: "notifications/roots/list_changed (2026-07-28: a server asks for roots in a result's input requests)" },
  serverRequests: { since: "2024-11-05", until: "2026-07-28", what: "server-to-client JSON-RPC requests (2026-07-28: input requests in results, MRTR)" },
  // Added by 2026-07-28 (the modern era).
  perRequestMeta: { since: "2026-07-28", what: "the protocol version, client info and capabilities in every request's _meta" },
  serverDiscover: { since: "2026-07-28", what: "server/discover" },
  resultType: { since: "2026-07-28", what: "resultType on every result" },
  cacheHints: { since: "2026-07-28", what: "ttlMs and cacheScope on list, read and discover results" },
  subscriptionsListen: { since: "2026-07-28", what: "subscriptions/listen (notifications tagged with a subscription id)" },
  mrtr: { since: "2026-07-28", what: "multi round-trip requests (input_required results, inputResponses and requestState)" },
  requestHeaders: { since: "2026-07-28", what: "the Mcp-Method, Mcp-Name and Mcp-Param-* HTTP headers, checked against the body" },
  resourceNotFoundInvalidParams: { since: "2026-07-28", what: "resource not found as -32602 (was -32002)" },
  // Extensions, in the revisions that can declare them (SEP-2133's capabilities.extensions).
  skills: { since: "2025-11-25", what: "the Skills extension (io.modelcontextprotocol/skills: skills/list, skills/get, resources/directory/read)" },
  tasksExtension: {
    since: "2026-07-28",
    what: "the tasks extension io.modelcontextprotocol/tasks (a tool call answered with resultType task, tasks/get with the result or error, tasks/update)",
  },
  structuredContentAnyValue: { since: "2026-07-28", what: "structuredContent as any JSON value, and a tool's outputSchema of any root type (before: objects)" },
} as const satisfies Record<string, FeatureSpan>;

/** A protocol feature some revisions have (a key of `FEATURES`): what `versionHas(version, feature)` asks. */
export type Feature = keyof typeof FEATURES;

const order = new Map(PROTOCOL_VERSIONS.map((info, index) => [info.version, index]));

/** Whether `version` is one an `initialize` can negotiate (see SUPPORTED_PROTOCOL_VERSIONS). */
export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return typeof version === "string" && order.has(version) && versionHas(version, "initialize");
}

/** Whether mcp-testkit knows `version` at all, either era. */
export function isKnownVersion(version: unknown): version is ProtocolVersion {
  return typeof version === "string" && order.has(version);
}

/** What mcp-testkit knows of `version` (era, JSON Schema dialect), or undefined for a revision it does not know. */
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

/** The known revisions that have `feature`, oldest first (for messages that name them). */
export function versionsWith(feature: Feature): ProtocolVersion[] {
  return KNOWN_PROTOCOL_VERSIONS.filter((version) => versionHas(version, feature));
}

/**
 * The known revisions that have `feature`, as a sentence names them: "2026-07-28", "2025-03-26
 * and later", "2025-03-26 to 2025-06-18". Messages name a revision through this (or through
 * `LATEST_KNOWN_VERSION`), so a new revision changes them with the table.
 */
export function revisionsWith(feature: Feature): string {
  const versions = versionsWith(feature);
  if (versions.length <= 1) return versions[0] ?? FEATURES[feature].since;
  return (FEATURES[feature] as FeatureSpan).until === undefined ? `${versions[0]} and later` : `${versions[0]} to ${versions.at(-1)}`;
}

/**
 * Version negotiation for `initialize` as the spec says: the server answers with the requested
 * version if it supports it, else with its own latest (from `supported`, which defaults to all
 * the session versions we know). Only revisions that have `initialize` take part: a client
 * asking for 2026-07-28 in `initialize` gets the newest legacy revision.
 */
export function negotiateVersion(requested: unknown, supported: readonly ProtocolVersion[] = SUPPORTED_PROTOCOL_VERSIONS): ProtocolVersion {
  const sessionVersions = supported.filter((version) => !versionHas(version, "perRequestMeta"));
  if (typeof requested === "string" && sessionVersions.includes(requested)) return requested;
  const latest = [...sessionVersions].sort(compareVersions).at(-1);
  if (latest === undefined) throw new Error(`negotiateVersion: no version in the list can be negotiated by initialize (${supported.join(", ") || "empty list"})`);
  return latest;
}
