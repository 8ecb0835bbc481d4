/** The three ways to get a driver: spawn a stdio server, connect to a URL, or attach to a transport. */
import { ForeignAnswers } from "./foreign-answers.js";
import { revisionsWith, LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpTestkitError } from "../errors.js";
import { checkOptions, McpDriver } from "./driver.js";
import { isModernVersion } from "./discover-negotiation.js";
import { ModernHttpFetch } from "./modern-http.js";
import { MessageTap } from "./message-tap.js";
import { OPTION_NAMES, type DriverOptions, type McpConnectOptions, type McpShellOptions } from "./options.js";
import { checkKeys } from "../engine/spec-checks.js";
import { StdioProcessTransport } from "./stdio-process.js";
import { typeLabel } from "../util/text.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { checkAuthOptions } from "./auth/options.js";
import { signedInFetch } from "./auth/signed-in-fetch.js";

/**
 * Spawns a stdio MCP server with the system shell and returns a driver for it (not yet
 * initialized: every call initializes implicitly, or call `initialize()`).
 *
 * @example
 * await using app = mcpShell("node path/to/mcp-server.js");
 * await expect(app).toHaveTool("read_file");
 */
export function mcpShell(shellCommand: string, options: McpShellOptions = {}): McpDriver {
  if (typeof shellCommand !== "string" || shellCommand.trim() === "") {
    throw new McpTestkitError(`mcpShell(shellCommand): expected a command line such as "node server.js", got ${JSON.stringify(shellCommand)}.`);
  }
  checkOptionNames(options, "mcpShell");
  checkOptions(options);
  checkProcessOptions(options);
  const process = new StdioProcessTransport({ shellCommand, ...processOptions(options) });
  return new McpDriver({ kind: "stdio", target: shellCommand, transport: process, process, classifyError: process.classifyError }, options);
}

/**
 * Connects to a Streamable HTTP MCP server (the SDK's client transport) and returns a driver.
 *
 * @example
 * await using app = mcpConnect("http://127.0.0.1:3000/mcp", { headers: { Authorization: "Bearer t" } });
 * const tools = await app.getTools();
 */
export function mcpConnect(url: string | URL, options: McpConnectOptions = {}): McpDriver {
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new McpTestkitError(`mcpConnect(url): expected an http(s) URL such as "http://127.0.0.1:3000/mcp", got ${JSON.stringify(String(url))}.`);
  }
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
    throw new McpTestkitError(`mcpConnect(url): expected an http: or https: URL, got ${JSON.stringify(endpoint.href)}.`);
  }
  checkOptionNames(options, "mcpConnect");
  checkOptions(options);
  checkResumedSession(options);
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  if (options.auth !== undefined) checkSignIn(options);
  // The SDK transport writes the same headers on every POST; 2026-07-28 wants some per request.
  const tap = new MessageTap("http", testIdOf(options.headers));
  const foreignAnswers = new ForeignAnswers();
  // Signing in sits under the tap, so what the tap records never holds a token, and the sign-in's own requests (metadata, tokens) are not MCP traffic.
  const modernHttp = new ModernHttpFetch(foreignAnswers.watch(tap.watch(options.auth === undefined ? base : signedInFetch(options.auth, endpoint, base))));
  // The SDK's HTTP transport (and the schemas it brings) is loaded when a driver first connects
  // over HTTP, not when mcp-testkit is imported; the driver takes a promise of a transport.
  const transport = import("@modelcontextprotocol/sdk/client/streamableHttp.js").then(
    ({ StreamableHTTPClientTransport }) =>
      new StreamableHTTPClientTransport(endpoint, {
        ...(options.headers === undefined ? {} : { requestInit: { headers: options.headers } }),
        fetch: modernHttp.fetch,
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      }),
  );
  const closeWire = async () => {
    const wire = await transport;
    // End the session (DELETE) so the server can free it; a server that is gone, or one that
    // does not allow DELETE (405, handled by the SDK), must not make close() fail.
    if (wire.sessionId !== undefined) await wire.terminateSession().catch(() => undefined);
    await wire.close();
  };
  return new McpDriver({ kind: "http", target: endpoint.href, transport, closeWire, modernHttp, tap, foreignAnswers, resumesSession: options.sessionId !== undefined }, options);
}

/**
 * Drives any transport of the SDK's shape, e.g. a mock's in-memory connection:
 *
 * @example
 * const mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
 * await using app = mcpAttach(mock.connectInMemory());
 * (await app.callTool("echo")).getTextContent(); // "hi"
 */
export function mcpAttach(transport: Transport | PromiseLike<Transport>, options: DriverOptions & { name?: string } = {}): McpDriver {
  if (transport === null || typeof transport !== "object") {
    throw new McpTestkitError(`mcpAttach(transport): expected a Transport (or a promise of one), got ${String(transport)}.`);
  }
  checkOptionNames(options, "mcpAttach");
  return new McpDriver({ kind: "attached", target: options.name ?? "the attached transport", transport }, options);
}

/**
 * expect-mcp's class, for code moving over: `new MCPStdinSubprocess({ command, args, ... })`
 * spawns `command` with `args` (no shell) and is a driver like `mcpShell`'s.
 */
export class MCPStdinSubprocess extends McpDriver {
  constructor(options: McpShellOptions & { command: string; args?: string[] }) {
    if (typeof options?.command !== "string" || options.command === "") {
      throw new McpTestkitError(`new MCPStdinSubprocess({ command }): expected a command, got ${JSON.stringify(options?.command)}.`);
    }
    checkOptionNames(options, "MCPStdinSubprocess");
    checkOptions(options);
    checkProcessOptions(options);
    const process = new StdioProcessTransport({ command: options.command, args: options.args ?? [], ...processOptions(options) });
    super({ kind: "stdio", target: process.shellCommand, transport: process, process, classifyError: process.classifyError }, options);
  }
}

/** A `sessionId` resumes a 2025 session: one that 2026-07-28 (no sessions) or a pin to it cannot have. */
function checkResumedSession(options: McpConnectOptions): void {
  const { sessionId, protocolVersion, versionNegotiation } = options;
  if (sessionId === undefined) return;
  if (typeof sessionId !== "string" || sessionId === "")
    throw new McpTestkitError(`sessionId must be the Mcp-Session-Id of a session the server gave, a non-empty string, got ${typeLabel(sessionId)}.`);
  const pinned = typeof versionNegotiation === "object" && versionNegotiation !== null;
  if (pinned || (protocolVersion !== undefined && isModernVersion(protocolVersion))) {
    throw new McpTestkitError(
      `sessionId resumes a session, and ${pinned ? "a pinned " : ""}${revisionsWith("perRequestMeta")} has none (each request stands alone): leave sessionId out, or give a legacy protocolVersion such as ${JSON.stringify(LATEST_PROTOCOL_VERSION)}.`,
    );
  }
}

/** Throws for an `auth` that cannot work, and for a second Authorization header beside it. */
function checkSignIn(options: McpConnectOptions): void {
  checkAuthOptions(options.auth);
  if (options.headers !== undefined && Object.keys(options.headers).some((name) => name.toLowerCase() === "authorization"))
    throw new McpTestkitError("auth and an Authorization header in headers both set the credentials: keep one (auth: { token } sends a static bearer token).");
}

/** Throws for process options that would be ignored or break the spawn (an env that is no object of strings, a cwd that is no string). */
function checkProcessOptions(options: McpShellOptions): void {
  const { env, cwd, allowDebugLogging } = options as Record<string, unknown>;
  if (env !== undefined && (typeof env !== "object" || env === null || Array.isArray(env) || Object.values(env).some((value) => value !== undefined && typeof value !== "string"))) {
    throw new McpTestkitError(`env must be an object of strings such as { DEBUG: "1" } (added to this process's environment), got ${typeLabel(env)}.`);
  }
  if (cwd !== undefined && typeof cwd !== "string") throw new McpTestkitError(`cwd must be a directory path (a string), got ${typeLabel(cwd)}.`);
  if (allowDebugLogging !== undefined && typeof allowDebugLogging !== "boolean") throw new McpTestkitError(`allowDebugLogging must be true or false, got ${typeLabel(allowDebugLogging)}.`);
}

function processOptions(options: McpShellOptions) {
  return {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.allowDebugLogging === undefined ? {} : { allowDebugLogging: options.allowDebugLogging }),
  };
}

/** TypeScript catches a misspelled option; plain JS gets a did-you-mean rather than an option silently ignored. */
function checkOptionNames(options: object, entry: keyof typeof OPTION_NAMES): void {
  if (typeof options !== "object" || options === null) throw new McpTestkitError(`${entry}() takes an options object, got ${options === null ? "null" : typeof options}.`);
  checkKeys(options, OPTION_NAMES[entry], `${entry}() options`);
}

/** The test id the driver's headers send (`X-Test-Id`, any case), for its message events. */
function testIdOf(headers: Record<string, string> | undefined): string | undefined {
  if (headers === undefined) return undefined;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === "x-test-id");
  return name === undefined ? undefined : headers[name];
}
