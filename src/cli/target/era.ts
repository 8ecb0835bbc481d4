/**
 * The era flags of `inspect` and `call`: `--version-negotiation legacy|auto|pin` and
 * `--protocol-version <v>`, read into the driver's own `versionNegotiation` / `protocolVersion`
 * (so the CLI negotiates exactly as `mcpShell` / `mcpConnect` do), and the line that says which
 * era was spoken. `check` takes neither: it asks both eras itself.
 */
import { httpStatusOf } from "../../driver/http-refusal.js";
import { ConnectionClosedError, ProtocolError, RequestFailedError, type McpDriver } from "../../driver/index.js";
import type { VersionNegotiation } from "../../driver/options.js";
import { isKnownVersion, KNOWN_PROTOCOL_VERSIONS, LATEST_KNOWN_VERSION, versionHas } from "../../protocol/versions.js";
import type { RenderOptions } from "../../driver/error-rendering.js";
import { CommandError, UsageError } from "../command.js";

export const ERA_OPTIONS = {
  "version-negotiation": { type: "string" },
  "protocol-version": { type: "string" },
} as const;

export const ERA_HELP = `  --version-negotiation <mode>
                       The protocol era: legacy (initialize, a session; the default),
                       auto (ask server/discover for 2026-07-28, fall back to initialize
                       when the server does not know it) or pin (2026-07-28 only)
  --protocol-version <v>
                       The revision to speak: a legacy one (${KNOWN_PROTOCOL_VERSIONS.filter((v) => versionHas(v, "initialize")).at(-1)} and older) is asked
                       for in initialize, ${LATEST_KNOWN_VERSION} is named in every request; given
                       alone, ${LATEST_KNOWN_VERSION} means pin`;

/** What the flags ask of the driver; `asked` is false when neither flag was given. */
export interface EraChoice {
  readonly asked: boolean;
  readonly versionNegotiation?: VersionNegotiation;
  readonly protocolVersion?: string;
}

/**
 * Without either flag nothing is asked, and `openDriver`'s default era applies (legacy, as before
 * the flags existed: a script's output stays the same and a legacy server pays no probe).
 * `--protocol-version` alone lets the driver imply the mode (pin for 2026-07-28, legacy for the
 * others).
 */
export function parseEra(flags: { "version-negotiation"?: string | undefined; "protocol-version"?: string | undefined }): EraChoice {
  const mode = flags["version-negotiation"];
  const version = flags["protocol-version"];
  if (mode === undefined && version === undefined) return { asked: false };
  if (version !== undefined && !isKnownVersion(version)) {
    throw new UsageError(`--protocol-version ${JSON.stringify(version)} is not a revision mcp-testkit knows (${KNOWN_PROTOCOL_VERSIONS.join(", ")})`);
  }
  const perRequest = version !== undefined && versionHas(version, "perRequestMeta");
  switch (mode) {
    case undefined:
      return { asked: true, protocolVersion: version };
    case "legacy":
      if (perRequest) throw new UsageError(`--protocol-version ${version} has no initialize handshake, so --version-negotiation legacy cannot ask for it: use auto or pin`);
      return { asked: true, versionNegotiation: "legacy", ...(version !== undefined && { protocolVersion: version }) };
    case "auto":
      return { asked: true, versionNegotiation: "auto", ...(version !== undefined && { protocolVersion: version }) };
    case "pin":
      if (version !== undefined && !perRequest) throw new UsageError(`--version-negotiation pin speaks a revision per request (${LATEST_KNOWN_VERSION}); ${version} is spoken through initialize: use --version-negotiation legacy (or auto)`);
      return { asked: true, versionNegotiation: { pin: version ?? LATEST_KNOWN_VERSION } };
    default:
      throw new UsageError(`--version-negotiation must be legacy, auto or pin, got ${JSON.stringify(mode)}`);
  }
}

/** `2026-07-28 (modern era: server/discover, no session)`, or the legacy era and why auto fell back to it. */
export function describeEra(driver: McpDriver): string {
  const version = driver.protocolVersion ?? "unknown";
  if (driver.era === "modern") return `${version} (modern era: server/discover, no session)`;
  // The reason can carry a driver error's details on more lines: its first line says it.
  const fallback = driver.fallbackReason?.split("\n")[0];
  return `${version} (legacy era: initialize${fallback === undefined ? "" : `, since ${fallback}`})`;
}

/**
 * A handshake failure the era explains, as a `CommandError` in the CLI's words, or undefined:
 * a pinned era against a server that does not speak it (the driver's message names its own
 * options, here the flags), and the legacy default refused by a server that may speak only
 * 2026-07-28 (a hint at the flag).
 */
export function eraFailure(error: unknown, era: EraChoice, plain: (error: unknown, options?: RenderOptions) => string): CommandError | undefined {
  // The driver's error carries its advice as data; `plain` says it with the flags.
  if (error instanceof ProtocolError && error.method === "server/discover") return new CommandError(plain(error));
  if (!era.asked && refusedInitialize(error)) {
    // The driver's own advice (when it saw -32022) is said by the line below, for every refusal.
    const message = plain(error, { omit: ["speaksOnlyModern"] });
    return new CommandError(`${message}\nIf the server speaks only ${LATEST_KNOWN_VERSION}, add --version-negotiation auto (or pin).`);
  }
  return undefined;
}

/** Whether the server answered `initialize` with a refusal (a JSON-RPC error, a bad answer, an HTTP 4xx), not silence or a crash. */
function refusedInitialize(error: unknown): boolean {
  if (!(error instanceof RequestFailedError || error instanceof ProtocolError || error instanceof ConnectionClosedError) || error.method !== "initialize") return false;
  if (!(error instanceof ConnectionClosedError)) return true;
  const status = httpStatusOf(error);
  return status !== undefined && status < 500;
}

export { httpStatusOf };
