/**
 * The handshake, as one replaceable part. Today's eras open with `initialize` (and
 * `notifications/initialized`); 2026-07-28 asks `server/discover` instead and sends its version
 * in every request's `_meta`. The driver only asks a `Negotiation` for the server's answer
 * (`ready`, which starts the handshake the first time) and for the `_meta` a request carries, so
 * another handshake is another class, not a change in thirteen places.
 */
import type { ClientCapabilities, InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../protocol/jsonrpc.js";
import { isSupportedVersion, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/versions.js";
import { ErrorCode } from "../protocol/errors.js";
import { McpDriverError, ProtocolError, type ProcessContext } from "./errors.js";
import { MODERN_ONLY } from "./error-rendering.js";
import { refusalOf } from "./http-refusal.js";
import { DEFAULT_CLIENT_INFO, type DriverOptions, type InitializeParams } from "./options.js";
import type { JsonObject, RpcChannel } from "./rpc-channel.js";

export interface Negotiation {
  /** The server's answer, once the handshake is done. */
  readonly result: InitializeResult | undefined;
  /** The capabilities declared in the handshake (once started), else those the options imply. */
  readonly clientCapabilities: ClientCapabilities;
  /** Whether the handshake has started (capabilities declared). */
  readonly started: boolean;
  /** Runs the handshake (once; again after a failure) with `params` over the defaults. */
  negotiate(params?: Partial<InitializeParams>): Promise<InitializeResult>;
  /** The answer if there is one (no promise, so a call goes out at once), else the handshake. */
  ready(): InitializeResult | Promise<InitializeResult>;
  /** What every request adds to its `_meta` in this era (none for `initialize` eras). */
  requestMeta(): JsonObject | undefined;
  /**
   * The version requests go out in now: the negotiated one, else the revision spoken per request
   * that the handshake is asking for (undefined while `initialize` is pending).
   */
  readonly speaking: string | undefined;
}

/** The legacy-era handshake: `initialize`, a version check, `notifications/initialized`. */
export class InitializeNegotiation implements Negotiation {
  result: InitializeResult | undefined;
  private declared: ClientCapabilities | undefined;
  private pending: Promise<InitializeResult> | undefined;

  constructor(
    private readonly channel: RpcChannel,
    private readonly options: Pick<DriverOptions, "protocolVersion" | "clientInfo">,
    /** The capabilities the driver's options imply in a version (they may change until the handshake). */
    private readonly implied: (version: string) => ClientCapabilities,
    private readonly processContext: () => ProcessContext | undefined,
    /** Whether `initialize` is the era asked for (legacy), not auto's fallback: only then does a -32022 refusal advise auto or a pin. */
    private readonly chosen: boolean,
  ) {}

  get clientCapabilities(): ClientCapabilities {
    return this.declared ?? this.implied(this.offeredVersion());
  }

  get started(): boolean {
    return this.declared !== undefined;
  }

  get speaking(): string | undefined {
    return this.result?.protocolVersion;
  }

  /** `timeoutNote`: what went unanswered before (auto's server/discover), for a timeout's message. */
  negotiate(params: Partial<InitializeParams> = {}, timeoutNote?: string): Promise<InitializeResult> {
    this.pending ??= this.handshake(params, timeoutNote).catch((error: unknown) => {
      this.pending = undefined;
      throw error;
    });
    return this.pending;
  }

  ready(): InitializeResult | Promise<InitializeResult> {
    return this.result ?? this.negotiate();
  }

  requestMeta(): undefined {
    return undefined;
  }

  /** The version `initialize` asks for: the call's, else the options', else the latest legacy one. */
  private offeredVersion(asked?: string): string {
    return asked ?? this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  }

  private async handshake(params: Partial<InitializeParams>, timeoutNote: string | undefined): Promise<InitializeResult> {
    const { protocolVersion, capabilities, clientInfo, ...rest } = params;
    const offered = this.offeredVersion(protocolVersion);
    const declared = mergeCapabilities(this.implied(offered), capabilities);
    const request: JsonObject = {
      ...rest,
      protocolVersion: offered,
      capabilities: declared,
      clientInfo: clientInfo ?? this.options.clientInfo ?? DEFAULT_CLIENT_INFO,
    };
    this.declared = declared;
    const result = (await this.channel.request("initialize", request, { cancellable: false, ...(timeoutNote === undefined ? {} : { timeoutNote }) }).catch((error: unknown) => {
      throw this.chosen ? withModernOnlyHint(error) : error;
    })) as InitializeResult;
    const version = result.protocolVersion;
    if (!isSupportedVersion(version)) {
      throw new ProtocolError(
        `The server answered initialize with protocolVersion ${JSON.stringify(version)}, which mcp-testkit does not speak ` +
          `(it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}; it asked for ${String(request.protocolVersion)}). ` +
          `The spec says the client should then disconnect: close() the driver.`,
        { method: "initialize", process: this.processContext() },
      );
    }
    const transport = await this.channel.connectedTransport();
    transport?.setProtocolVersion(version);
    this.result = result;
    await this.channel.notify("notifications/initialized");
    return result;
  }
}

/**
 * A session begun elsewhere (`mcpConnect(url, { sessionId })`): its `initialize` is done, so none
 * is sent; requests go on it at once in `version` (the options' `protocolVersion`, else the
 * latest). What the server said at `initialize` is not known here: its capabilities read as `{}`
 * and its `serverInfo` as undefined.
 */
export class ResumedNegotiation implements Negotiation {
  readonly result: InitializeResult;
  readonly started = true;
  readonly speaking: string;
  private transportReady: Promise<void> | undefined;

  constructor(
    private readonly channel: RpcChannel,
    version: string,
    readonly clientCapabilities: ClientCapabilities,
  ) {
    this.result = { protocolVersion: version, capabilities: {} } as unknown as InitializeResult;
    this.speaking = version;
    this.channel.recorder.setProtocolVersion(version);
  }

  negotiate(): Promise<InitializeResult> {
    // The version header goes on every request of the session, as after an initialize.
    this.transportReady ??= this.channel.connectedTransport().then((transport) => transport?.setProtocolVersion(this.result.protocolVersion));
    return this.transportReady.then(() => this.result);
  }

  ready(): Promise<InitializeResult> {
    return this.negotiate();
  }

  requestMeta(): undefined {
    return undefined;
  }
}

/** `base` with `extra` over it, one level deep (`{ roots: { listChanged } }` merges with `{ roots: {...} }`). */
export function mergeCapabilities(base: ClientCapabilities, extra: ClientCapabilities | undefined): ClientCapabilities {
  if (extra === undefined) return base;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value;
  }
  return merged as ClientCapabilities;
}

/** The same error (its class is how callers tell refusals apart), saying the server speaks only 2026-07-28 when the refusal was -32022 (over HTTP inside a 400). */
function withModernOnlyHint(error: unknown): unknown {
  if (!(error instanceof McpDriverError)) return error;
  if (refusalOf(error)?.code === ErrorCode.UnsupportedProtocolVersion) error.extend(MODERN_ONLY);
  return error;
}
