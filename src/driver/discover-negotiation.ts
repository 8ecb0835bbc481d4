/**
 * The 2026-07-28 handshake: there is none to keep, only a `server/discover` to learn the server's
 * versions, capabilities and identity, and a `_meta` that every request carries from then on.
 * In `auto` mode the same probe tells a legacy server apart (the spec's backward-compatibility
 * rules): a `DiscoverResult` or a recognised modern error means modern; anything else (an
 * unknown method, an HTTP 4xx without a modern error, a timeout) means legacy, and the
 * `initialize` handshake takes over for the rest of the connection. A -32022 is the one modern
 * error that may still lead there: when it lists only legacy versions, or refuses the version it
 * lists twice while listing legacy ones too. A DiscoverResult or a modern error that breaks the
 * schema is a modern server at fault: the connection fails, saying what is wrong, and does not
 * fall back.
 */
import { refusalOf } from "./http-refusal.js";
import type { ClientCapabilities, Implementation, InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import { META } from "../protocol/meta-keys.js";
import { ErrorCode } from "../protocol/errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { compareVersions, isKnownVersion, isSupportedVersion, KNOWN_PROTOCOL_VERSIONS, LATEST_KNOWN_VERSION, LATEST_PROTOCOL_VERSION, revisionsWith, versionHas } from "../protocol/versions.js";
import { ConnectionClosedError, McpDriverError, ProtocolError, RequestFailedError, RequestTimeoutError, type DriverHint, type NegotiationModeAsked, type ProcessContext } from "./errors.js";
import { FULL_STOP, partsOf, renderParts, type MessagePart } from "./error-rendering.js";
import { mergeCapabilities, type InitializeNegotiation, type Negotiation } from "./negotiation.js";
import { DEFAULT_CLIENT_INFO, type DriverOptions, type InitializeParams, type VersionNegotiation } from "./options.js";
import { formatProblems, type JsonObject, type RpcChannel } from "./rpc-channel.js";
import type { MessageProblem } from "../inspect/types.js";
import { clip, clipCounted, errorText, typeLabel } from "../util/text.js";

/** The era the driver speaks once the handshake is done. */
export type DriverEra = "legacy" | "modern";

/** What `server/discover` answers (2026-07-28). */
export interface DiscoverResult extends JsonObject {
  supportedVersions: string[];
  capabilities: JsonObject;
  instructions?: string;
  _meta?: JsonObject;
}

/** Errors that only a modern server sends: they say "modern" (spec, versioning); only a -32022's list may still point to initialize. */
const MODERN_ERRORS: ReadonlySet<number> = new Set([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion]);

/** Whether `version` is a revision spoken per request (2026-07-28 and later ones we know). */
export function isModernVersion(version: unknown): version is string {
  return isKnownVersion(version) && versionHas(version, "perRequestMeta");
}

/** The mode the options ask for: `versionNegotiation`, else what `protocolVersion` implies, else auto. */
export function negotiationMode(options: Pick<DriverOptions, "protocolVersion" | "versionNegotiation">): VersionNegotiation {
  const { versionNegotiation: mode, protocolVersion } = options;
  if (mode !== undefined) return mode;
  if (protocolVersion === undefined) return "auto";
  return isModernVersion(protocolVersion) ? { pin: protocolVersion } : "legacy";
}

/** Throws a McpTestkitError for a negotiation mode that cannot work (before anything is spawned). */
export function checkNegotiation(options: Pick<DriverOptions, "protocolVersion" | "versionNegotiation">): void {
  const mode = options.versionNegotiation;
  const known = KNOWN_PROTOCOL_VERSIONS.join(", ");
  if (mode !== undefined && mode !== "legacy" && mode !== "auto") {
    if (!isObject(mode) || typeof mode.pin !== "string") {
      throw new McpTestkitError(`versionNegotiation must be "legacy", "auto" or { pin: ${JSON.stringify(LATEST_KNOWN_VERSION)} }, got ${JSON.stringify(mode)}.`);
    }
    if (!isModernVersion(mode.pin)) {
      throw new McpTestkitError(
        `versionNegotiation: { pin: ${JSON.stringify(mode.pin)} }: a pin names a revision spoken per request (${revisionsWith("perRequestMeta")}); ` +
          `for a legacy revision use { versionNegotiation: "legacy", protocolVersion: ${JSON.stringify(mode.pin)} }. mcp-testkit knows ${known}.`,
      );
    }
  }
  const version = options.protocolVersion;
  // A version nobody knows would be negotiated away in silence (the server answers with its own).
  if (version !== undefined && !isKnownVersion(version)) throw new McpTestkitError(`protocolVersion must be a revision mcp-testkit knows (${known}), got ${typeLabel(version)}.`);
  if (version !== undefined && mode === "legacy" && isModernVersion(version)) {
    throw new McpTestkitError(
      `protocolVersion ${JSON.stringify(version)} has no initialize handshake, so versionNegotiation "legacy" cannot ask for it: use "auto" or { pin: ${JSON.stringify(version)} }.`,
    );
  }
  // The opposite contradiction: a pin speaks its own revision, so another protocolVersion would be ignored in silence.
  if (version !== undefined && isObject(mode) && version !== mode.pin) {
    throw new McpTestkitError(
      `versionNegotiation { pin: ${JSON.stringify(mode.pin)} } speaks ${mode.pin} only, so protocolVersion ${JSON.stringify(version)} cannot be asked for: leave protocolVersion out, or use versionNegotiation "auto" (or "legacy") to ask for ${version}.`,
    );
  }
}

/**
 * `server/discover` first. `pin` fails on a server that is not modern; `auto` falls back to
 * `legacy` (an `InitializeNegotiation`, which then answers everything this class is asked).
 */
export class DiscoverNegotiation implements Negotiation {
  /** The discover answer as an `initialize`-shaped result (version, capabilities, serverInfo). */
  private modernResult: InitializeResult | undefined;
  /** The server's `server/discover` result itself (modern era). */
  discoverResult: DiscoverResult | undefined;
  /** Which era the probe found; undefined until it is done. */
  era: DriverEra | undefined;
  private declared: ClientCapabilities | undefined;
  private clientInfo: Implementation;
  private version: string;
  private meta: JsonObject | undefined;
  private pending: Promise<InitializeResult> | undefined;

  constructor(
    private readonly channel: RpcChannel,
    private readonly options: Pick<DriverOptions, "protocolVersion" | "versionNegotiation" | "clientInfo" | "requestTimeout">,
    private readonly mode: "auto" | { pin: string },
    private readonly implied: (version: string) => ClientCapabilities,
    private readonly processContext: () => ProcessContext | undefined,
    private readonly legacy: InitializeNegotiation,
  ) {
    this.clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.version = mode === "auto" ? (isModernVersion(options.protocolVersion) ? options.protocolVersion : LATEST_KNOWN_VERSION) : mode.pin;
  }

  /** The handshake's answer once done: `initialize`'s in the legacy era, discover's (as the same shape) in the modern one. */
  get result(): InitializeResult | undefined {
    return this.era === "legacy" ? this.legacy.result : this.modernResult;
  }

  get clientCapabilities(): ClientCapabilities {
    if (this.era === "legacy") return this.legacy.clientCapabilities;
    return this.declared ?? this.implied(this.version);
  }

  get started(): boolean {
    return this.era === "legacy" ? this.legacy.started : this.declared !== undefined;
  }

  /** The version requests go out in: the one negotiated, else (until a fallback to `initialize`) the one the probe asks for. */
  get speaking(): string | undefined {
    return this.result?.protocolVersion ?? (this.era === "legacy" ? undefined : this.version);
  }

  /** The version spoken: the modern one chosen, or the one `initialize` negotiated. */
  get protocolVersion(): string | undefined {
    return this.result?.protocolVersion;
  }

  negotiate(params: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    if (this.era === "legacy") return this.legacy.negotiate(params);
    this.pending ??= this.handshake(params).catch((error: unknown) => {
      this.pending = undefined;
      throw error;
    });
    return this.pending;
  }

  ready(): InitializeResult | Promise<InitializeResult> {
    if (this.era === "legacy") return this.legacy.ready();
    return this.modernResult ?? this.negotiate();
  }

  /** While probing and in the modern era: the version, capabilities and client of every request. */
  requestMeta(): JsonObject | undefined {
    if (this.era === "legacy") return this.legacy.requestMeta();
    return (this.meta ??= {
      [META.protocolVersion]: this.version,
      [META.clientInfo]: this.clientInfo,
      [META.clientCapabilities]: this.clientCapabilities,
    });
  }

  /** Sends `server/discover` once more (the modern era's own request), returning its result as is. */
  async discover(): Promise<DiscoverResult> {
    return (await this.channel.request("server/discover", undefined, { label: "server/discover" })) as DiscoverResult;
  }

  private async handshake(params: Partial<InitializeParams>): Promise<InitializeResult> {
    const { protocolVersion, capabilities, clientInfo } = params;
    if (protocolVersion !== undefined) {
      if (!isModernVersion(protocolVersion)) return await this.fallBack(params, `initialize() asked for ${protocolVersion}, a legacy revision`);
      this.version = protocolVersion;
    }
    this.declared = mergeCapabilities(this.implied(this.version), capabilities);
    if (clientInfo !== undefined) this.clientInfo = clientInfo;
    this.meta = undefined;
    // The probe's answer is judged by the modern schema, whatever the recorder assumed before.
    this.channel.recorder.setProtocolVersion(this.version);
    let answer: DiscoverResult | undefined;
    let refusal: { legacy: string[]; cause: RequestFailedError } | undefined;
    for (let attempt = 0; attempt < 2 && answer === undefined; attempt++) {
      const outcome = await this.probe();
      if (outcome.kind === "modern") answer = outcome.result;
      else if (outcome.kind === "retry") {
        this.useVersion(outcome.version);
        refusal = outcome;
      } else if (this.mode === "auto") return await this.fallBack(params, outcome.why);
      else throw this.notModern(outcome.why, outcome.cause);
    }
    if (answer === undefined) {
      const why = `it refused protocol version ${this.version} twice with -32022, though it lists it`;
      // Its list names legacy versions too: `auto` takes the other way in, as the spec's backward compatibility does.
      if (this.mode === "auto" && refusal !== undefined && refusal.legacy.length > 0) return await this.fallBack(params, `${why}; it serves ${refusal.legacy.join(", ")} through initialize`);
      throw this.notModern(why, refusal?.cause);
    }
    const chosen = this.chooseVersion(answer);
    if (chosen === undefined) {
      const why = `its server/discover lists ${JSON.stringify(answer.supportedVersions)}, none of which mcp-testkit speaks per request`;
      if (this.mode === "auto") return await this.fallBack(params, why);
      throw this.notModern(why, undefined);
    }
    this.useVersion(chosen);
    const transport = await this.channel.connectedTransport();
    transport?.setProtocolVersion(chosen);
    this.discoverResult = answer;
    this.era = "modern";
    const serverInfo = isObject(answer._meta) ? answer._meta[META.serverInfo] : undefined;
    this.modernResult = {
      protocolVersion: chosen,
      capabilities: answer.capabilities,
      serverInfo: serverInfo as Implementation,
      ...(typeof answer.instructions === "string" ? { instructions: answer.instructions } : {}),
    } as InitializeResult;
    return this.modernResult;
  }

  /** One `server/discover`: a modern answer, a version to retry with, or why the server looks legacy. */
  private async probe(): Promise<
    | { kind: "modern"; result: DiscoverResult }
    | { kind: "retry"; version: string; legacy: string[]; cause: RequestFailedError }
    | { kind: "legacy"; why: string | readonly MessagePart[]; cause?: unknown }
  > {
    let result: JsonObject;
    try {
      result = await this.channel.request("server/discover", undefined, { label: "server/discover", cancellable: false });
    } catch (error) {
      if (error instanceof RequestFailedError && error.code !== undefined && MODERN_ERRORS.has(error.code)) {
        if (error.code !== ErrorCode.UnsupportedProtocolVersion) throw this.refused(error);
        const supported = isObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : undefined;
        if (supported === undefined || supported.length === 0) throw this.noSupportedList(error);
        // Retried even when the list names the version just refused (a server may refuse a first
        // try on purpose); the handshake bounds the attempts.
        const version = supported.includes(this.version) ? this.version : newestModern(supported);
        const legacy = supported.filter(isSupportedVersion);
        if (version !== undefined) return { kind: "retry", version, legacy, cause: error };
        // Only legacy versions listed: a legacy server that knows the new error, not a modern one refusing us.
        if (legacy.length > 0) return { kind: "legacy", why: `it refused ${this.version} and serves ${legacy.join(", ")} through initialize`, cause: error };
        throw this.unsupported(error, supported);
      }
      this.channel.throwIfBroken();
      // A DiscoverResult that breaks the schema still says "modern": falling back would send
      // initialize to a server that has none, and hide the real fault (spec, backward compatibility).
      if (error instanceof ProtocolError && isObject(error.response) && looksLikeDiscoverResult(error.response.result)) {
        throw this.brokenDiscover(error.response.result, error.problems, error);
      }
      // So does a modern error that breaks the schema (a -32022 whose data.requested is no string).
      if (error instanceof ProtocolError && isObject(error.response) && isObject(error.response.error) && MODERN_ERRORS.has(error.response.error.code as number)) {
        throw this.brokenModernError(error.response.error, error);
      }
      if (!saysLegacy(error)) throw error;
      if (error instanceof RequestTimeoutError) this.probeTimedOutMs = error.timeoutMs;
      return { kind: "legacy", why: ["server/discover failed: ", ...partsOf(error, errorText(error))], cause: error };
    }
    if (isDiscoverResult(result)) return { kind: "modern", result };
    // Without strict validation a malformed answer arrives as a result: judged the same way.
    if (looksLikeDiscoverResult(result)) throw this.brokenDiscover(result, discoverShapeProblems(result), undefined);
    return { kind: "legacy", why: `it answered server/discover with ${clip(JSON.stringify(result), 200)}, not a DiscoverResult (supportedVersions and capabilities)` };
  }

  private useVersion(version: string): void {
    this.version = version;
    this.meta = undefined;
    this.channel.recorder.setProtocolVersion(version);
  }

  /** The version to speak: ours if listed, else the newest modern one both know. */
  private chooseVersion(answer: DiscoverResult): string | undefined {
    if (answer.supportedVersions.includes(this.version)) return this.version;
    return newestModern(answer.supportedVersions);
  }

  /** The legacy era for the rest of the connection: `initialize`, with the version the options ask for. */
  private async fallBack(params: Partial<InitializeParams>, why: string | readonly MessagePart[]): Promise<InitializeResult> {
    this.era = "legacy";
    this.fallbackReason = typeof why === "string" ? why : renderParts(why, "library");
    const requested = params.protocolVersion ?? (isSupportedVersion(this.options.protocolVersion) ? this.options.protocolVersion : LATEST_PROTOCOL_VERSION);
    this.channel.recorder.setProtocolVersion(requested);
    const { protocolVersion: _ignored, ...rest } = params;
    // A probe that went unanswered makes the whole wait twice the timeout: a timeout then says so.
    const note = this.probeTimedOutMs === undefined ? undefined : `, after server/discover got none within ${this.probeTimedOutMs} ms either (versionNegotiation "auto" asks it first)`;
    try {
      return await this.legacy.negotiate({ ...rest, protocolVersion: requested }, note);
    } catch (error) {
      // The fallback was a guess made on a timeout, and initialize's -32022 lists 2026-07-28: the
      // server is modern, only slow to start. Ask server/discover once more.
      if (this.probeTimedOutMs === undefined || !refusesForModern(error)) throw error;
      const timedOutMs = this.probeTimedOutMs;
      if (this.reprobed) throw withSlowModernNote(error, timedOutMs);
      this.reprobed = true;
      this.era = undefined;
      this.fallbackReason = undefined;
      this.probeTimedOutMs = undefined;
      return await this.handshake(params);
    }
  }

  /** Whether `server/discover` was asked again after initialize's refusal showed a modern server. */
  private reprobed = false;

  /** Why `auto` fell back to `initialize` (for messages and tests), if it did. */
  fallbackReason: string | undefined;
  /** The timeout of a server/discover that got no answer, if one did not. */
  private probeTimedOutMs: number | undefined;

  /** The mode as the options asked for it, for messages. */
  private get modeAsked(): DriverHint {
    return this.mode === "auto" ? { kind: "negotiationMode", asked: "auto" } : { kind: "negotiationMode", asked: "pin", version: this.mode.pin };
  }

  private notModern(why: string | readonly MessagePart[], cause: unknown): ProtocolError {
    // A pin implied by protocolVersion alone: the way out is to change that option, not to add "legacy" beside it (refused).
    const pinnedByVersion = this.options.versionNegotiation === undefined && this.options.protocolVersion !== undefined;
    const asked: NegotiationModeAsked =
      this.mode === "auto" ? { asked: "auto" } : pinnedByVersion ? { asked: "protocolVersion", version: this.options.protocolVersion! } : { asked: "pin", version: this.mode.pin };
    const whyParts = typeof why === "string" ? [why] : why;
    return new ProtocolError([`The server does not speak MCP ${this.version}`, { kind: "negotiationMode", ...asked }, ": ", ...whyParts, FULL_STOP, { kind: "reachOtherRevision", ...asked }], {
      method: "server/discover",
      process: this.processContext(),
      ...(cause === undefined ? {} : { cause }),
    });
  }

  /** -32022 listing only versions mcp-testkit does not speak: no way in. */
  private unsupported(error: RequestFailedError, supported: readonly unknown[]): ProtocolError {
    return new ProtocolError(
      [
        `The server refused protocol version ${this.version}`,
        this.modeAsked,
        ` with -32022 ${JSON.stringify(error.serverMessage)} and lists ${clip(JSON.stringify(supported), 200)}, none of which mcp-testkit speaks (it knows ${KNOWN_PROTOCOL_VERSIONS.join(", ")}). A newer mcp-testkit may know them.`,
      ],
      { method: "server/discover", process: this.processContext(), cause: error },
    );
  }

  /** A server that answered server/discover with a DiscoverResult, but a malformed one: modern, and at fault. */
  private brokenDiscover(result: JsonObject, problems: readonly MessageProblem[], cause: ProtocolError | undefined): ProtocolError {
    const versions = Array.isArray(result.supportedVersions) ? ` (supportedVersions ${clip(JSON.stringify(result.supportedVersions), 200)})` : "";
    const first = problems[0];
    const more = problems.length > 1 ? ` and ${problems.length - 1} more` : "";
    // The first line stands alone (a report that keeps one line still says what is wrong); the details follow.
    return new ProtocolError(
      `The server speaks MCP ${revisionsWith("serverDiscover")} (its server/discover answer is a DiscoverResult${versions}), but that answer breaks the MCP ${this.version} schema` +
        `${first === undefined ? "" : ` at ${first.path} (${first.message})${more}`}, so the driver did not fall back to initialize.\n` +
        `${formatProblems(problems)}\n  result: ${clipCounted(JSON.stringify(result), 300)}\n` +
        `Fix the server's DiscoverResult (resultType, supportedVersions, capabilities, ttlMs and cacheScope are required)` +
        // Only strict validation refuses what the driver could still use; a result it cannot use fails either way.
        `${cause === undefined ? "." : ", or pass strict: false to record schema problems instead of failing on them."}`,
      { method: "server/discover", problems, process: this.processContext(), ...(cause === undefined ? {} : { cause, id: cause.id, response: cause.response }) },
    );
  }

  /** A -32022 without the list a client retries with: the server is at fault, and there is no way on. */
  private noSupportedList(error: RequestFailedError): ProtocolError {
    return new ProtocolError(
      [
        `The server refused protocol version ${this.version}`,
        this.modeAsked,
        ` with -32022 ${JSON.stringify(error.serverMessage)} but its error lists no versions in data.supported (got data ${clip(JSON.stringify(error.data) ?? "none", 200)}): a -32022 must list the versions the server speaks, so a client can retry with one. Fix the server's error data.`,
      ],
      { method: "server/discover", process: this.processContext(), cause: error },
    );
  }

  /** A modern error (-32020, -32021, -32022) that breaks the schema: a modern server, at fault; no fallback to initialize. */
  private brokenModernError(rpcError: JsonObject, cause: ProtocolError): ProtocolError {
    const first = cause.problems[0];
    const more = cause.problems.length > 1 ? ` and ${cause.problems.length - 1} more` : "";
    return new ProtocolError(
      `The server speaks MCP ${revisionsWith("serverDiscover")} (it answered server/discover with error ${String(rpcError.code)}, which only that revision has), but the error breaks the MCP ${this.version} schema` +
        `${first === undefined ? "" : ` at ${first.path} (${first.message})${more}`}, so the driver did not fall back to initialize.\n` +
        `${formatProblems(cause.problems)}\n  error: ${clipCounted(JSON.stringify(rpcError), 300)}\n` +
        `Fix the server's error, or pass strict: false to record schema problems instead of failing on them.`,
      { method: "server/discover", problems: cause.problems, process: this.processContext(), cause, id: cause.id, response: cause.response },
    );
  }

  private refused(error: RequestFailedError): ProtocolError {
    return new ProtocolError(
      [
        `The server speaks the modern era (${revisionsWith("serverDiscover")}) but refused this client's server/discover with ${error.code} ${JSON.stringify(error.serverMessage)}` +
          `${error.data === undefined ? "" : ` (data: ${JSON.stringify(error.data).slice(0, 300)})`}; it asked for ${this.version}.`,
        { kind: "checkVersionAndCapabilities" },
      ],
      { method: "server/discover", process: this.processContext(), cause: error },
    );
  }
}

/**
 * Whether a failed probe means "a legacy server" (fall back) rather than "no server" (fail): a
 * JSON-RPC error, a result of another shape, no answer in time, or an HTTP 4xx (the SDK transport's error carries the
 * status as `code`). A process that did not start or a URL where nothing listens fails as is.
 */
function saysLegacy(error: unknown): boolean {
  // A result that is no DiscoverResult fails the modern schema (a ProtocolError of its own request).
  if (error instanceof RequestFailedError || error instanceof RequestTimeoutError || error instanceof ProtocolError) return true;
  if (!(error instanceof ConnectionClosedError)) return false;
  const status = isObject(error.cause) ? error.cause.code : undefined;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * Whether a result is recognisably a DiscoverResult, well formed or not: it has the field only a
 * DiscoverResult has (`supportedVersions`), or the `resultType` only 2026-07-28 results carry.
 * A legacy server has no server/discover, so it cannot answer this way.
 */
function looksLikeDiscoverResult(value: unknown): value is JsonObject {
  return isObject(value) && ("supportedVersions" in value || "resultType" in value);
}

/** Why a recognisable result is not a usable DiscoverResult (when no validator said it). */
function discoverShapeProblems(result: JsonObject): MessageProblem[] {
  const problems: MessageProblem[] = [];
  const { supportedVersions, capabilities } = result;
  if (!Array.isArray(supportedVersions) || !supportedVersions.every((version) => typeof version === "string")) {
    problems.push({ path: "$.result.supportedVersions", message: `expected an array of version strings; got ${clip(JSON.stringify(supportedVersions) ?? "nothing", 100)}`, rule: "result.shape" });
  }
  if (!isObject(capabilities)) {
    problems.push({ path: "$.result.capabilities", message: `expected an object; got ${clip(JSON.stringify(capabilities) ?? "nothing", 100)}`, rule: "result.shape" });
  }
  return problems;
}

function isDiscoverResult(value: unknown): value is DiscoverResult {
  return isObject(value) && Array.isArray(value.supportedVersions) && value.supportedVersions.every((v) => typeof v === "string") && isObject(value.capabilities);
}

function newestModern(versions: readonly unknown[]): string | undefined {
  return versions.filter(isModernVersion).sort(compareVersions).at(-1);
}

/**
 * initialize refused with -32022 whose list names a revision spoken per request (2026-07-28): a
 * modern server. Over stdio the refusal is the JSON-RPC error; over HTTP it is a 400 with the
 * error in its body.
 */
function refusesForModern(error: unknown): boolean {
  const refusal = refusalOf(error) ?? (error instanceof Error ? refusalOf(error.cause) : undefined);
  if (refusal === undefined || refusal.code !== ErrorCode.UnsupportedProtocolVersion) return false;
  const supported = isObject(refusal.data) && Array.isArray(refusal.data.supported) ? refusal.data.supported : [];
  return supported.some(isModernVersion);
}

/** The same error, saying why auto ended up asking initialize of a modern server. */
function withSlowModernNote(error: unknown, timedOutMs: number): unknown {
  if (!(error instanceof McpDriverError)) return error;
  return error.extend(
    FULL_STOP,
    ` server/discover got no answer within ${timedOutMs} ms, twice, so versionNegotiation "auto" fell back to initialize, which this ${revisionsWith("serverDiscover")} server refuses: it is likely slow to start. Raise requestTimeout.`,
  );
}
