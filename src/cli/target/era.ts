/**
 * The era flags of `inspect`, `call` and `record`: `--version-negotiation auto|legacy|pin` and
 * `--protocol-version <v>`, read into the driver's own `versionNegotiation` / `protocolVersion`
 * (so the CLI negotiates exactly as `mcpShell` / `mcpConnect` do, with the same default), and the
 * line that says which era was spoken. `check` takes neither: it asks both eras itself.
 */
import { httpStatusOf } from "../../driver/http-refusal.js";
import { ProtocolError, type McpDriver } from "../../driver/index.js";
import type { VersionNegotiation } from "../../driver/options.js";
import { isKnownVersion, KNOWN_PROTOCOL_VERSIONS, LATEST_KNOWN_VERSION, versionHas } from "../../protocol/versions.js";
import { CommandError, UsageError } from "../command.js";

export const ERA_OPTIONS = {
  "version-negotiation": { type: "string" },
  "protocol-version": { type: "string" },
} as const;

export const ERA_HELP = `  --version-negotiation <mode>
                       The protocol era: auto (the default, as in the library: ask
                       server/discover for ${LATEST_KNOWN_VERSION}, fall back to initialize when the
                       server does not know it), legacy (initialize, a session; no probe)
                       or pin (${LATEST_KNOWN_VERSION} only)
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
 * Without either flag nothing is asked, and `openDriver`'s default era applies (auto, the
 * driver's default, so the CLI shows what a test's driver gets). `--protocol-version` alone lets
 * the driver imply the mode (pin for 2026-07-28, legacy for the others).
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
      if (version !== undefined && !perRequest)
        throw new UsageError(`--version-negotiation pin speaks a revision per request (${LATEST_KNOWN_VERSION}); ${version} is spoken through initialize: use --version-negotiation legacy (or auto)`);
      return { asked: true, versionNegotiation: { pin: version ?? LATEST_KNOWN_VERSION } };
    default:
      throw new UsageError(`--version-negotiation must be legacy, auto or pin, got ${JSON.stringify(mode)}`);
  }
}

/**
 * `2026-07-28 (modern era: server/discover, no session)`, or the legacy era, with why auto fell
 * back to it when an era flag was given. Without one the reason is left out: a legacy server
 * refusing `server/discover` (-32601) is how the default meets every legacy server, nothing gone
 * wrong, and `inspect --json` keeps it as `fallbackReason` for whoever wants it.
 */
export function describeEra(driver: McpDriver, era: EraChoice): string {
  const version = driver.protocolVersion ?? "unknown";
  if (driver.era === "modern") return `${version} (modern era: server/discover, no session)`;
  // Asked-for auto says why it fell back; the reason can carry a driver error's details on more lines: its first line says it.
  const fallback = era.asked ? driver.fallbackReason?.split("\n")[0] : undefined;
  return `${version} (legacy era: initialize${fallback === undefined ? "" : `, since ${fallback}`})`;
}

/**
 * A handshake failure the era explains, as a `CommandError` in the CLI's words, or undefined:
 * `server/discover` refused or unusable (the driver's message names its own options, here the
 * flags). An `initialize` refused for want of 2026-07-28 is told by `plainMessage`, which turns
 * the driver's advice into the flag's.
 */
export function eraFailure(error: unknown, plain: (error: unknown) => string): CommandError | undefined {
  // The driver's error carries its advice as data; `plain` says it with the flags.
  if (error instanceof ProtocolError && error.method === "server/discover") return new CommandError(plain(error));
  return undefined;
}

export { httpStatusOf };
