/**
 * The keys `mockMcp()` reads, so a typo in plain JS or a JSON scenario (`"tool"`,
 * `"serverinfo"`) fails with a did-you-mean instead of being ignored. The table is typed by the
 * options' own interfaces: an option added to EngineOptions, StreamableHttpOptions,
 * MockMcpOptions or the stdio wire's options without a row here fails the type check (and so
 * `npm test`), and a row for an option that no longer exists fails it too.
 */
import { McpTestkitError } from "../errors.js";
import { typeLabel } from "../util/text.js";
import { checkKeys, checkValueKinds, type ValueKind } from "../engine/spec-checks.js";
import type { StdioMockOptions } from "./mock-options.js";
import { traceOptionsOf } from "../trace/trace-log.js";

/** Each option's kind of value; `undefined` where the part that reads it checks it more closely. */
export const MOCK_OPTION_KINDS: Record<keyof StdioMockOptions, ValueKind | undefined> = {
  // EngineOptions (and CatalogOptions)
  tools: undefined, // tools, resources and prompts: the catalog checks them
  resources: undefined,
  prompts: undefined,
  serverInfo: "object",
  instructions: "string",
  capabilities: "object",
  protocolVersions: undefined,
  pageSize: undefined,
  recordLimit: undefined,
  onUnknownTool: undefined, // the engine checks it
  logger: undefined, // the engine checks it
  cache: undefined, // the engine checks the caching hints
  inputTimeoutMs: "number",
  features: undefined, // the engine checks each feature
  onUnhandledMethod: undefined, // the engine checks it
  skills: undefined, // skills and app views: the catalog checks them
  apps: undefined,
  // StreamableHttpOptions (and OriginGuardOptions)
  responseMode: undefined,
  getStream: "boolean",
  maxBodyBytes: "number",
  dnsRebindingProtection: "boolean",
  host: "string",
  allowedHosts: "string list",
  allowedOrigins: "string list",
  // MockMcpOptions
  transport: "string",
  port: "number",
  path: "string",
  http: undefined,
  fixtures: undefined, // the fakes check it
  fakesOptions: "object",
  observers: undefined, // a list of observer objects, checked by observe()
  observe: "object",
  metrics: "boolean",
  auth: undefined, // the protected mock checks it (src/auth/option-checks.ts)
  trace: undefined, // traceOptionsOf checks it
  // StdioMockOptions
  stdio: "object",
};

/** Throws a McpTestkitError for an option `mockMcp()` would not read, or one of the wrong kind. */
export function checkMockOptions(options: unknown): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new McpTestkitError(`mockMcp() takes an options object such as { tools: { search: { returns: "found" } } }, got ${typeLabel(options)}.`);
  }
  checkKeys(
    options,
    Object.keys(MOCK_OPTION_KINDS),
    "mockMcp() options",
    `mockMcp() takes ${Object.keys(MOCK_OPTION_KINDS)
      .map((key) => `"${key}"`)
      .join(", ")}`,
  );
  const record = options as Record<string, unknown>;
  checkValueKinds(record, MOCK_OPTION_KINDS, "mockMcp() options");
  const { serverInfo, responseMode, http, port, fakesOptions, maxBodyBytes, trace } = record as Partial<Record<keyof StdioMockOptions, unknown>>;
  traceOptionsOf(trace as never, "mockMcp() option");
  if (maxBodyBytes !== undefined && !(Number.isSafeInteger(maxBodyBytes) && (maxBodyBytes as number) >= 0)) {
    throw new McpTestkitError(`"maxBodyBytes" must be a whole number of bytes, 0 or more (the largest POST body the MCP endpoint reads), got ${typeLabel(maxBodyBytes)}.`);
  }
  const fakesLogger = (fakesOptions as { logger?: unknown } | undefined)?.logger;
  if (fakesLogger !== undefined && typeof fakesLogger !== "function") {
    throw new McpTestkitError(`"fakesOptions.logger" must be a function (level, line) => void, got ${typeLabel(fakesLogger)}.`);
  }
  const fakesLog = (fakesOptions as { log?: unknown } | undefined)?.log;
  if (fakesLog !== undefined && typeof fakesLog !== "boolean") {
    throw new McpTestkitError(`"fakesOptions.log" must be true (write fake failures to the mock's log) or false, got ${typeLabel(fakesLog)}.`);
  }
  if (serverInfo !== undefined && !(typeof (serverInfo as { name?: unknown }).name === "string" && typeof (serverInfo as { version?: unknown }).version === "string")) {
    throw new McpTestkitError(`"serverInfo" must be { name: string, version: string }, got ${JSON.stringify(serverInfo)}.`);
  }
  if (responseMode !== undefined && responseMode !== "json" && responseMode !== "sse") {
    throw new McpTestkitError(`"responseMode" must be "json" or "sse", got ${typeLabel(responseMode)}.`);
  }
  if (http !== undefined && http !== false) throw new McpTestkitError(`"http" may only be false (mcp-stub's spelling of transport: "memory"), got ${typeLabel(http)}.`);
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535)) {
    throw new McpTestkitError(`"port" must be a port number from 0 to 65535 (0: a free one), got ${typeLabel(port)}.`);
  }
}
