/**
 * `check`'s audit of a server's authorization (HTTP targets that ask for a token): the 401 and
 * its challenge for a request without a token and for an invalid one, the protected resource
 * metadata and its authorization server's metadata, served and consistent, 403
 * `insufficient_scope` with a scope for a token with too little scope, and a token for another
 * audience refused. The last two need tokens only the tester's authorization server can issue:
 * `--narrow-token-env` and `--foreign-token-env` name them. A token never appears in a result.
 */
import { LATEST_PROTOCOL_VERSION } from "../../protocol/versions.js";
import type { CheckContext, Json } from "./context.js";
import { endRawSession, initialize } from "./check-probes.js";
import { BASE_HEADERS, describeAnswer, rawPost, rawRequest, type RawHttpAnswer } from "./raw-http.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";

/** The tokens the audit is given beside the sign-in: one with too little scope, one issued for another resource. */
export interface AuditTokens {
  narrow?: string;
  foreign?: string;
}

export interface AuthCheckDefinition {
  id: string;
  title: string;
  /** The section of the authorization chapter (the same anchor in 2025-11-25 and 2026-07-28). */
  anchor: string;
  run: (ctx: CheckContext) => Promise<CheckOutcome>;
}

const PROBE_ID = "mcp-testkit-auth";

/** A request without credentials (and, with `token`, with that bearer token): initialize, the probe any MCP server reads. */
export async function probeWithToken(ctx: CheckContext, token: string | undefined): Promise<RawHttpAnswer> {
  const headers: Record<string, string> = { ...BASE_HEADERS };
  for (const [name, value] of Object.entries(ctx.target.headers)) headers[name.toLowerCase()] = value;
  delete headers.authorization;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const answer = await rawPost(ctx.target.value, headers, initialize(PROBE_ID, LATEST_PROTOCOL_VERSION), { timeoutMs: ctx.timeoutMs, waitForId: PROBE_ID });
  await endRawSession(ctx, answer);
  return answer;
}

/** The parameters of a `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3), or undefined for none. */
export function bearerChallenge(answer: RawHttpAnswer): Record<string, string> | undefined {
  const header = answer.headers?.get("www-authenticate");
  if (header === null || header === undefined || !/^\s*bearer\b/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) params[match[1]!.toLowerCase()] = match[2] ?? match[3]!;
  return params;
}

function describeChallenge(answer: RawHttpAnswer): string {
  const header = answer.headers?.get("www-authenticate");
  return header ? `${describeAnswer(answer)} with WWW-Authenticate: ${header}` : `${describeAnswer(answer)} with no WWW-Authenticate`;
}

async function fetchJson(url: string, timeoutMs: number): Promise<{ status: number; json?: Json; failure?: string }> {
  const answer = await rawRequest(url, "GET", { accept: "application/json" }, undefined, { timeoutMs });
  if (answer.status !== 200) return { status: answer.status, ...(answer.failure === undefined ? {} : { failure: answer.failure }) };
  try {
    const json = JSON.parse(answer.text) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? { status: 200, json: json as Json } : { status: 200, failure: "not a JSON object" };
  } catch {
    return { status: 200, failure: "not JSON" };
  }
}

/** Where the protected resource metadata is: the challenge's `resource_metadata`, else the path-inserted well-known URL, then the root one (RFC 9728 §3.1). */
function metadataUrls(ctx: CheckContext): string[] {
  const advertised = ctx.unauthenticated === undefined ? undefined : bearerChallenge(ctx.unauthenticated)?.resource_metadata;
  const url = new URL(ctx.target.value);
  const path = url.pathname === "/" ? "" : url.pathname;
  const wellKnown = [`${url.origin}/.well-known/oauth-protected-resource${path}`, `${url.origin}/.well-known/oauth-protected-resource`];
  return advertised === undefined ? wellKnown : [advertised];
}

/** The authorization server's metadata URLs, in the order the spec has a client try them. */
function serverMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  if (path === "") return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}/.well-known/openid-configuration${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

async function checkMetadata(ctx: CheckContext): Promise<CheckOutcome> {
  let resource: Json | undefined;
  let from = "";
  const tried: string[] = [];
  for (const url of metadataUrls(ctx)) {
    const got = await fetchJson(url, ctx.timeoutMs);
    if (got.json !== undefined) {
      resource = got.json;
      from = url;
      break;
    }
    tried.push(`${url}: ${got.failure ?? `HTTP ${got.status}`}`);
  }
  if (resource === undefined) return fail(`no protected resource metadata (RFC 9728): ${tried.join("; ")}`);
  const servers = resource.authorization_servers;
  if (typeof resource.resource !== "string") return fail(`the metadata at ${from} has no resource`);
  if (resource.resource.replace(/\/$/, "") !== ctx.target.value.replace(/\/$/, "") && resource.resource.replace(/\/$/, "") !== new URL(ctx.target.value).origin)
    return fail(`the metadata at ${from} names the resource ${resource.resource}, not this server (${ctx.target.value}); a client must refuse it (RFC 9728 §3.3)`);
  if (!Array.isArray(servers) || servers.length === 0 || typeof servers[0] !== "string") return fail(`the metadata at ${from} lists no authorization_servers; MCP servers MUST list at least one`);
  const issuer = servers[0];
  let server: Json | undefined;
  const triedServer: string[] = [];
  for (const url of serverMetadataUrls(issuer)) {
    const got = await fetchJson(url, ctx.timeoutMs);
    if (got.json !== undefined) {
      server = got.json;
      break;
    }
    triedServer.push(`${url}: ${got.failure ?? `HTTP ${got.status}`}`);
  }
  if (server === undefined) return fail(`the authorization server ${issuer} serves no metadata (RFC 8414 or OpenID): ${triedServer.join("; ")}`);
  if (server.issuer !== issuer)
    return fail(`the authorization server's metadata names the issuer ${JSON.stringify(server.issuer)}, not ${JSON.stringify(issuer)}; they must be identical (RFC 8414 §3.3)`);
  const methods = server.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes("S256"))
    return fail(`the authorization server's metadata does not list S256 in code_challenge_methods_supported; MCP clients MUST refuse to go on without it`);
  const scopes = resource.scopes_supported;
  if (Array.isArray(scopes) && scopes.includes("offline_access"))
    return warn(`the resource metadata at ${from} lists offline_access in scopes_supported; servers SHOULD NOT (it is the authorization server's to offer)`);
  return pass(`${from} names ${issuer}, whose metadata agrees (issuer, S256)`);
}

export const AUTH_CHECKS: readonly AuthCheckDefinition[] = [
  {
    id: "auth-challenge",
    title: "A request without a token gets 401 with a Bearer challenge",
    anchor: "authorization-server-discovery",
    run: async (ctx) => {
      const answer = ctx.unauthenticated!;
      const challenge = bearerChallenge(answer);
      if (challenge === undefined) return fail(`initialize without a token got ${describeChallenge(answer)}; a 401 MUST carry WWW-Authenticate: Bearer (RFC 9728 §5.1)`);
      if (challenge.resource_metadata === undefined) return warn(`initialize without a token got ${describeChallenge(answer)}: no resource_metadata, so clients must probe the well-known URLs`);
      return pass(`initialize without a token got ${describeChallenge(answer)}`);
    },
  },
  {
    id: "auth-invalid-token",
    title: "An invalid token gets 401",
    anchor: "token-handling",
    run: async (ctx) => {
      const answer = await probeWithToken(ctx, "mcp-testkit-not-a-token");
      if (answer.status === 401) return pass(`initialize with an invalid token got ${describeChallenge(answer)}`);
      if (answer.status >= 200 && answer.status < 300) return fail(`initialize with an invalid token got ${describeAnswer(answer)}: the server accepts any token`);
      return fail(`initialize with an invalid token got ${describeChallenge(answer)}; an invalid or expired token MUST get 401`);
    },
  },
  { id: "auth-metadata", title: "Its protected resource and authorization server metadata agree", anchor: "authorization-server-discovery", run: checkMetadata },
  {
    id: "auth-insufficient-scope",
    title: "A token with too little scope gets 403 insufficient_scope with a scope",
    anchor: "runtime-insufficient-scope-errors",
    run: async (ctx) => {
      if (ctx.auditTokens.narrow === undefined) return skip("needs a valid token with too little scope: name the variable that holds one with --narrow-token-env");
      const answer = await probeWithToken(ctx, ctx.auditTokens.narrow);
      const challenge = bearerChallenge(answer);
      if (answer.status === 403 && challenge?.error === "insufficient_scope")
        return challenge.scope === undefined ? warn(`got ${describeChallenge(answer)}: no scope, so the client cannot tell what to ask for`) : pass(`got ${describeChallenge(answer)}`);
      if (answer.status >= 200 && answer.status < 300) return warn(`initialize with the --narrow-token-env token got ${describeAnswer(answer)}: the server asks no more scope of it`);
      return warn(`initialize with the --narrow-token-env token got ${describeChallenge(answer)}; servers SHOULD answer 403 with error="insufficient_scope" and the scope needed`);
    },
  },
  {
    id: "auth-audience",
    title: "A token issued for another resource is refused",
    anchor: "token-handling",
    run: async (ctx) => {
      if (ctx.auditTokens.foreign === undefined) return skip("needs a valid token issued for another resource: name the variable that holds one with --foreign-token-env");
      const answer = await probeWithToken(ctx, ctx.auditTokens.foreign);
      if (answer.status === 401 || answer.status === 403) return pass(`initialize with the --foreign-token-env token got ${describeChallenge(answer)}`);
      return fail(`initialize with the --foreign-token-env token got ${describeAnswer(answer)}; servers MUST refuse a token not issued for them (its audience)`);
    },
  },
];
