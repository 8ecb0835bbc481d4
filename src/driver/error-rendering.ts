/**
 * What a driver error says, as data, and the one place it is put into words. An error is a list
 * of parts: plain text, and typed hints (advice, and the names of options) that each audience
 * says in its own words: the library names its options (`requestTimeout`, `versionNegotiation`),
 * the command line its flags (`--timeout`, `--version-negotiation`), and a one-line summary (a
 * report's cell) leaves advice out. No module reads advice back out of a message.
 */
import { LATEST_KNOWN_VERSION } from "../protocol/versions.js";

/** How the mode was asked for, as the negotiation knew it: `auto`, a pin, or a pin implied by `protocolVersion` alone. */
export type NegotiationModeAsked = { asked: "auto" } | { asked: "pin"; version: string } | { asked: "protocolVersion"; version: string };

/** A client capability a server may require, as the driver can declare it. */
export type DeclarableCapability = "elicitation" | "elicitationUrlMode" | "sampling" | "roots";

export type DriverHint =
  /** The server refused `initialize` with -32022: it speaks only a revision spoken per request. */
  | { kind: "speaksOnlyModern"; version: string }
  /** -32021: the capabilities the server requires, which the driver declares when it can answer for them. */
  | { kind: "declareCapabilities"; capabilities: DeclarableCapability[] }
  /** No answer in time: give it longer (`slowAt`: what the driver was doing, when it was not waiting for an answer). */
  | { kind: "raiseTimeout"; timeoutMs: number; slowAt?: "listing its tools" }
  /** A spawned server that did not exit at close() in time. */
  | { kind: "longerCloseTimeout" }
  /** Which negotiation mode was asked for (a term in the sentence, not advice). */
  | ({ kind: "negotiationMode" } & NegotiationModeAsked)
  /** A server that does not speak the revision asked for: how to reach it anyway. */
  | ({ kind: "reachOtherRevision" } & NegotiationModeAsked)
  /** A modern server refused server/discover with a modern error: what to check. */
  | { kind: "checkVersionAndCapabilities" }
  /** Signing in failed: the settings that would change it (`auth.*` in code, their flags on the command line). */
  | { kind: "authSettings"; settings: AuthSetting[] };

/** The sign-in settings an error can point to. */
export type AuthSetting = "token" | "grant" | "clientId" | "clientSecret" | "privateKey" | "clientMetadataUrl" | "redirectUrl" | "scope" | "maxAttempts" | "authorize";

/** Each sign-in setting's flag on the command line (secrets come from the environment or a file, never the flag's value). */
const AUTH_FLAGS: Readonly<Record<AuthSetting, string>> = {
  token: "--auth-token-env / --auth-token-file",
  grant: "--auth-grant",
  clientId: "--client-id",
  clientSecret: "--client-secret-env / --client-secret-file",
  privateKey: "--private-key-file",
  clientMetadataUrl: "--client-metadata-url",
  redirectUrl: "--redirect-url",
  scope: "--scope",
  maxAttempts: "--auth-attempts",
  authorize: "a test's auth.authorize (the CLI signs in headlessly)",
};

/** Ends a sentence whose last words are not known until rendered (a cause's words): a full stop unless there is one. */
export const FULL_STOP = { kind: "fullStop" } as const;

export type MessagePart = string | DriverHint | typeof FULL_STOP;

/** `library`: the API's option names; `cli`: the command's flags; `summary`: no advice at all. */
export type Audience = "library" | "cli" | "summary";

export interface RenderOptions {
  /** Hints left out (the caller says the same in its own way). */
  omit?: readonly DriverHint["kind"][];
  /** Hints said after the error's own (advice the audience always gets). */
  add?: readonly DriverHint[];
}

/** The parts, in the audience's words. */
export function renderParts(parts: readonly MessagePart[], audience: Audience, options: RenderOptions = {}): string {
  let text = "";
  for (const part of options.add === undefined ? parts : [...parts, ...options.add]) {
    if (typeof part === "string") text += part;
    else if (part.kind === "fullStop") text = sentence(text);
    else if (!options.omit?.includes(part.kind)) text = renderHint(text, part, audience);
  }
  return text;
}

export function isHint(part: MessagePart): part is DriverHint {
  return typeof part !== "string" && part.kind !== "fullStop";
}

/** What `error` says, as parts: a driver error's own, or any other error's message as text. */
export function partsOf(error: unknown, message: string): readonly MessagePart[] {
  const parts = (error as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) ? (parts as MessagePart[]) : [message];
}

/** `text` with `hint` said after it (a hint that starts a sentence ends the one before first). */
function renderHint(text: string, hint: DriverHint, audience: Audience): string {
  const cli = audience === "cli";
  if (hint.kind === "negotiationMode") return audience === "summary" ? text : `${text} (${modeText(hint, cli)})`;
  if (hint.kind === "longerCloseTimeout") return audience === "library" ? `${text}; or pass a longer timeout to close()` : text;
  if (audience === "summary") return text;
  switch (hint.kind) {
    case "speaksOnlyModern":
      return `${sentence(text)} It speaks only ${hint.version}, per request with no initialize: ${cli ? "use --version-negotiation auto (the default) or pin." : `connect with versionNegotiation "auto" or { pin: "${hint.version}" }.`}`;
    case "declareCapabilities":
      if (cli)
        return `${text}. The CLI declares no client capabilities (roots, sampling, elicitation), so it cannot answer what the server asks; test such a tool from code, with mcpShell or mcpConnect and onElicitation, onSampling or roots`;
      return `${text}. The driver declares a capability when it can answer for it: pass ${hint.capabilities.map((name) => CAPABILITY_OPTIONS[name]).join(" and ")} to mcpShell / mcpConnect / mcpAttach`;
    case "raiseTimeout":
      if (cli) return `${text.trimEnd()} If the server is just slow, raise --timeout (it was ${hint.timeoutMs} ms).`;
      if (hint.slowAt !== undefined)
        return `${text} Pass { timeoutMs } to this call or raise requestTimeout if the server is slow ${hint.slowAt === "listing its tools" ? "to list its tools" : hint.slowAt}.`;
      return `${text} If the server is just slow, raise requestTimeout (or pass { timeoutMs } to this call).`;
    case "reachOtherRevision":
      return `${text} ${reachText(hint, cli)}`;
    case "authSettings": {
      const names = hint.settings.map((setting) => (cli ? AUTH_FLAGS[setting] : `auth.${setting}`));
      return `${sentence(text)} Check ${names.join(", ")}.`;
    }
    case "checkVersionAndCapabilities":
      return cli
        ? `${text} Check --protocol-version (the version asked for). The CLI declares no client capabilities (roots, sampling, elicitation): a server that requires one is reached from a test, with mcpShell or mcpConnect declaring it.`
        : `${text} Check versionNegotiation / protocolVersion and the capabilities the driver declares (roots, onSampling, onElicitation, capabilities).`;
  }
}

/** The option that makes the driver declare each client capability (2026-07-28 asks for them in every request's `_meta`). */
const CAPABILITY_OPTIONS: Readonly<Record<DeclarableCapability, string>> = {
  elicitation: `onElicitation: (params) => ({ action: "accept", content: { ... } })`,
  // URL-mode elicitation is declared by name: onElicitation alone declares elicitation: {}, which means forms only.
  elicitationUrlMode: `capabilities: { elicitation: { form: {}, url: {} } } beside onElicitation (which alone declares elicitation: {}, forms only; it answers URL-mode asks too)`,
  sampling: "onSampling: (params) => ({ role, content, model })",
  roots: 'roots: [{ uri: "file:///…" }]',
};

function modeText(mode: NegotiationModeAsked, cli: boolean): string {
  switch (mode.asked) {
    case "auto":
      return cli ? "--version-negotiation auto" : 'versionNegotiation "auto"';
    case "pin":
      return cli ? "--version-negotiation pin" : `versionNegotiation { pin: ${JSON.stringify(mode.version)} }`;
    case "protocolVersion":
      return cli ? `--protocol-version ${mode.version}, which pins it` : `protocolVersion ${JSON.stringify(mode.version)}, which pins it`;
  }
}

function reachText(mode: NegotiationModeAsked, cli: boolean): string {
  switch (mode.asked) {
    case "auto":
      return cli
        ? "Ask for another revision with --protocol-version, or use --version-negotiation legacy if the server also serves initialize."
        : `Ask for another revision with protocolVersion, or use versionNegotiation "legacy" if the server also serves initialize.`;
    case "protocolVersion":
      return cli
        ? `--protocol-version ${mode.version} alone pins that revision; for a legacy server give a legacy --protocol-version (or leave it out), or use --version-negotiation auto.`
        : `protocolVersion ${JSON.stringify(mode.version)} alone pins that revision; for a legacy server set a legacy protocolVersion (or leave it out), or use versionNegotiation "auto".`;
    case "pin":
      return cli
        ? "A legacy server needs --version-negotiation auto (the default: probe, then initialize) or legacy."
        : `A legacy server needs versionNegotiation "auto" (probe, then initialize) or "legacy".`;
  }
}

/** `text` ending a sentence, so that the next one can start. */
function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

/** The revision a server that refuses `initialize` with -32022 speaks only. */
export const MODERN_ONLY: DriverHint = { kind: "speaksOnlyModern", version: LATEST_KNOWN_VERSION };
