/**
 * Codes, access tokens and refresh tokens of a protected mock: issued by its authorization
 * server(s), checked by its MCP endpoint. Access tokens are JWTs signed with the key the JWKS
 * endpoint publishes (`jose`, ES256), or opaque strings. The MCP endpoint looks a token up here
 * instead of verifying its signature: the mock issued every token it accepts, so a look-up says
 * as much, and costs a hash instead of an ECDSA verification on every request.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { JWK } from "jose";
import type { CallerAuth } from "../engine/request-context.js";

export interface AccessGrant {
  readonly clientId: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  /** The resource the token was issued for (RFC 8707). */
  readonly audience: string;
  readonly issuer: string;
  expiresAt: number;
  revoked: boolean;
  /** What a call made with it sees as `call.auth` (made once per token). */
  readonly caller: CallerAuth;
}

export interface CodeGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly scopes: readonly string[];
  readonly resource?: string;
  readonly subject: string;
  readonly issuer: string;
  readonly expiresAt: number;
  used: boolean;
  /** Tokens issued with this code: revoked if the code comes again (OAuth 2.1 §4.1.3). */
  readonly issued: string[];
}

export interface RefreshGrant {
  readonly clientId: string;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly audience: string;
  readonly issuer: string;
  retired: boolean;
}

/** Entries kept per kind at most: a flood of requests cannot grow the mock without end. */
const MAX_ENTRIES = 20_000;
const CODE_TTL_MS = 60_000;

type SigningKey = Awaited<ReturnType<typeof import("jose").generateKeyPair>>["privateKey"];

/** jose, loaded when the first JWT is made: an open mock, or one with opaque tokens, never loads it. */
const jose = () => import("jose");

const opaque = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

/** The S256 challenge of a verifier (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** Whether two strings are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function bounded<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

export interface AccessRequest {
  clientId: string;
  subject: string;
  scopes: readonly string[];
  audience: string;
  issuer: string;
}

export class TokenStore {
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  private keys?: Promise<{ privateKey: SigningKey; publicJwk: JWK }>;
  private readonly kid = randomBytes(8).toString("hex");

  constructor(
    private readonly format: "jwt" | "opaque",
    private readonly ttlSeconds: number,
  ) {}

  /** The signing key, made on first use (a mock whose tokens are opaque never makes one). */
  private signingKey(): Promise<{ privateKey: SigningKey; publicJwk: JWK }> {
    this.keys ??= jose().then(async ({ generateKeyPair, exportJWK }) => {
      const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
      return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid: this.kid, alg: "ES256", use: "sig" } };
    });
    return this.keys;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.signingKey()).publicJwk] };
  }

  issueCode(grant: Omit<CodeGrant, "used" | "issued" | "expiresAt">): string {
    const code = opaque("code_");
    bounded(this.codes, code, { ...grant, expiresAt: Date.now() + CODE_TTL_MS, used: false, issued: [] });
    return code;
  }

  /** The code's grant; `reused` when it was exchanged before (its tokens are revoked now), `expired` past its minute. */
  redeemCode(code: string): CodeGrant | "unknown" | "reused" | "expired" {
    const grant = this.codes.get(code);
    if (grant === undefined) return "unknown";
    if (grant.used) {
      for (const token of grant.issued) this.revoke(token);
      return "reused";
    }
    grant.used = true;
    if (grant.expiresAt < Date.now()) return "expired";
    return grant;
  }

  async issueAccess(request: AccessRequest): Promise<{ token: string; expiresIn: number }> {
    const now = Date.now();
    const token =
      this.format === "opaque"
        ? opaque("at_")
        : await new (await jose()).SignJWT({ scope: request.scopes.join(" "), client_id: request.clientId })
            .setProtectedHeader({ alg: "ES256", kid: this.kid, typ: "at+jwt" })
            .setIssuer(request.issuer)
            .setSubject(request.subject)
            .setAudience(request.audience)
            .setIssuedAt(Math.floor(now / 1000))
            .setExpirationTime(Math.floor(now / 1000) + this.ttlSeconds)
            .setJti(randomBytes(12).toString("base64url"))
            .sign((await this.signingKey()).privateKey);
    const caller: CallerAuth = Object.freeze({ clientId: request.clientId, subject: request.subject, scopes: Object.freeze([...request.scopes]), issuer: request.issuer });
    bounded(this.access, token, { ...request, scopes: caller.scopes, expiresAt: now + this.ttlSeconds * 1000, revoked: false, caller });
    return { token, expiresIn: this.ttlSeconds };
  }

  issueRefresh(grant: Omit<RefreshGrant, "retired">): string {
    const token = opaque("rt_");
    bounded(this.refresh, token, { ...grant, retired: false });
    return token;
  }

  accessGrant(token: string): AccessGrant | undefined {
    return this.access.get(token);
  }

  refreshGrant(token: string): RefreshGrant | undefined {
    return this.refresh.get(token);
  }

  /** Revokes an access or a refresh token (RFC 7009); false when it is not one of ours. */
  revoke(token: string): boolean {
    const access = this.access.get(token);
    if (access !== undefined) access.revoked = true;
    const refresh = this.refresh.get(token);
    if (refresh !== undefined) refresh.retired = true;
    return access !== undefined || refresh !== undefined;
  }

  /** Makes every access token expired now (or those of one client). Returns how many. */
  expireAll(clientId?: string): number {
    let count = 0;
    for (const grant of this.access.values()) {
      if (clientId !== undefined && grant.clientId !== clientId) continue;
      grant.expiresAt = Math.min(grant.expiresAt, Date.now() - 1);
      count++;
    }
    return count;
  }

  /** Revokes every access and refresh token (or those of one client). Returns how many. */
  revokeAll(clientId?: string): number {
    let count = 0;
    for (const grant of [...this.access.values(), ...this.refresh.values()]) {
      if (clientId !== undefined && grant.clientId !== clientId) continue;
      if ("revoked" in grant) grant.revoked = true;
      else grant.retired = true;
      count++;
    }
    return count;
  }

  clear(): void {
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
  }
}
