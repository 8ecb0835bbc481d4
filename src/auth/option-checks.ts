/**
 * `auth` options checked and filled in. Each wrong value is refused at `mockMcp()` with what was
 * given, what was expected and, for an unknown key, the closest known one.
 */
import { McpTestkitError } from "../errors.js";
import { closest } from "../util/closest.js";
import { describeValue } from "../util/text.js";
import { checkFault } from "./faults.js";
import { DEFAULT_SCOPES, type MockAuthOptions, type ResolvedAuthOptions } from "./options.js";

const KNOWN_KEYS = [
  "scopes",
  "requiredScopes",
  "toolScopes",
  "authorizationServer",
  "issuerPath",
  "tokenFormat",
  "accessTokenTtlSeconds",
  "refreshTokens",
  "rotateRefreshTokens",
  "offlineAccess",
  "consent",
  "subject",
  "clients",
  "registration",
  "clientMetadataDocuments",
  "issParameter",
  "audiences",
  "faults",
] as const satisfies ReadonlyArray<keyof MockAuthOptions>;

function fail(detail: string): never {
  throw new McpTestkitError(`"auth": ${detail}`, { code: "MCP_AUTH_BAD_OPTION" });
}

function strings(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "" || /\s/.test(item))) {
    fail(`"${name}" must be an array of scope-like strings (no spaces), such as ["files:read"], got ${describeValue(value)}.`);
  }
  return value as string[];
}

function flag(value: unknown, name: string, otherwise: boolean): boolean {
  if (value === undefined) return otherwise;
  if (typeof value !== "boolean") fail(`"${name}" must be true or false, got ${describeValue(value)}.`);
  return value;
}

function ownPortOf(value: unknown): number | undefined {
  if (value === undefined || value === "same-port") return undefined;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const port = (value as { port?: unknown }).port ?? 0;
    if (typeof port === "number" && Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  }
  return fail(`"authorizationServer" must be "same-port" or { port } (0 or leave it out for a free port), got ${describeValue(value)}.`);
}

function consentOf(value: unknown): MockAuthOptions["consent"] & object {
  if (value === undefined || value === "approve") return "approve" as never;
  if (value === "deny" || typeof value === "function") return value as never;
  if (typeof value === "object" && value !== null) {
    const answer = value as { error?: unknown; approve?: unknown };
    if (typeof answer.error === "string" && answer.error !== "") return value as never;
    if (typeof answer.approve === "object" && answer.approve !== null) return value as never;
  }
  return fail(`"consent" must be "approve", "deny", { error: "temporarily_unavailable" }, { approve: { subject, scopes } } or a function of the request, got ${describeValue(value)}.`);
}

/** The `auth` option checked, every default filled in; throws on the first problem, naming it. */
export function resolveAuthOptions(options: unknown): ResolvedAuthOptions {
  if (options === true) return resolveAuthOptions({});
  if (typeof options !== "object" || options === null || Array.isArray(options)) fail(`expected an object of options ({} for the defaults), got ${describeValue(options)}.`);
  const given = options as MockAuthOptions & Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key)) {
      const near = closest(key, KNOWN_KEYS);
      fail(`unknown key "${key}"${near === undefined ? "" : `; did you mean "${near}"?`} Known keys: ${KNOWN_KEYS.join(", ")}.`);
    }
  }
  const toolScopes = given.toolScopes ?? {};
  if (typeof toolScopes !== "object" || toolScopes === null || Array.isArray(toolScopes)) fail(`"toolScopes" must map tool names to scope arrays, got ${describeValue(toolScopes)}.`);
  for (const [tool, scopes] of Object.entries(toolScopes)) strings(scopes, `toolScopes.${tool}`);
  const issuerPath = given.issuerPath ?? "";
  if (typeof issuerPath !== "string" || (issuerPath !== "" && (!/^\/[A-Za-z0-9._~\-/]*[^/]$/.test(issuerPath) || issuerPath.startsWith("/.well-known")))) {
    fail(`"issuerPath" must be a path such as "/tenant-1" (no query, no trailing "/"), got ${describeValue(issuerPath)}.`);
  }
  const tokenFormat = given.tokenFormat ?? "jwt";
  if (tokenFormat !== "jwt" && tokenFormat !== "opaque") fail(`"tokenFormat" must be "jwt" or "opaque", got ${describeValue(tokenFormat)}.`);
  const ttl = given.accessTokenTtlSeconds ?? 3600;
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1) fail(`"accessTokenTtlSeconds" must be a whole number of seconds, 1 or more, got ${describeValue(ttl)}.`);
  const subject = given.subject ?? "user-1";
  if (typeof subject !== "string" || subject === "") fail(`"subject" must be a non-empty string, got ${describeValue(subject)}.`);
  const clients = given.clients ?? [];
  if (!Array.isArray(clients)) fail(`"clients" must be an array of { clientId, clientSecret?, redirectUris? }, got ${describeValue(clients)}.`);
  clients.forEach((client, index) => {
    if (typeof client !== "object" || client === null || typeof client.clientId !== "string" || client.clientId === "")
      fail(`"clients[${index}]" needs a "clientId" string, got ${describeValue(client)}.`);
    if (client.clientSecret !== undefined && (typeof client.clientSecret !== "string" || client.clientSecret === "")) fail(`"clients[${index}].clientSecret" must be a non-empty string.`);
    if (client.redirectUris !== undefined) redirectUris(client.redirectUris, `clients[${index}].redirectUris`);
  });
  const documents = given.clientMetadataDocuments ?? true;
  if (typeof documents !== "boolean" && (typeof documents !== "object" || documents === null || Array.isArray(documents))) {
    fail(`"clientMetadataDocuments" must be true, false, or an object mapping client id URLs to true or their document, got ${describeValue(documents)}.`);
  }
  const faults = given.faults ?? [];
  if (!Array.isArray(faults)) fail(`"faults" must be an array of faults such as [{ "fault": "token-error" }], got ${describeValue(faults)}.`);
  faults.forEach((fault, index) => checkFault(fault, `auth.faults[${index}]`));
  const audiences = strings(given.audiences, "audiences") ?? [];
  for (const audience of audiences) if (!URL.canParse(audience)) fail(`"audiences" must hold absolute URLs, got ${JSON.stringify(audience)}.`);
  return {
    scopes: strings(given.scopes, "scopes") ?? DEFAULT_SCOPES,
    requiredScopes: strings(given.requiredScopes, "requiredScopes") ?? [],
    toolScopes,
    ownPort: ownPortOf(given.authorizationServer),
    issuerPath,
    tokenFormat,
    accessTokenTtlSeconds: ttl,
    refreshTokens: flag(given.refreshTokens, "refreshTokens", true),
    rotateRefreshTokens: flag(given.rotateRefreshTokens, "rotateRefreshTokens", true),
    offlineAccess: flag(given.offlineAccess, "offlineAccess", true),
    consent: consentOf(given.consent),
    subject,
    clients,
    registration: flag(given.registration, "registration", true),
    fixedClientDocuments: typeof documents === "object" ? documents : {},
    clientMetadataDocuments: documents !== false,
    issParameter: flag(given.issParameter, "issParameter", true),
    audiences,
    faults,
  };
}

function redirectUris(value: unknown, name: string): void {
  if (!Array.isArray(value) || value.some((uri) => typeof uri !== "string" || !URL.canParse(uri))) fail(`"${name}" must be an array of absolute URIs, got ${describeValue(value)}.`);
}
