/**
 * The record of every sign-in step the protected mock saw: metadata fetches, registrations,
 * authorization requests (with their PKCE and `resource` facts), token requests, revocations and
 * the challenges (401, 403) its MCP endpoint answered. No secret is kept: a code, a token, a
 * client secret or a verifier is never stored, only facts about it, and where one would be shown
 * the marker `REDACTED` stands in. The newest `limit` events are kept.
 */
import { RingBuffer } from "../util/ring-buffer.js";

/** What stands where a secret would be shown. */
export const REDACTED = "[redacted]";

export type AuthEventKind = "metadata" | "registration" | "authorization" | "token" | "revocation" | "challenge";

interface EventBase {
  /** Increasing number of the event since the mock started. */
  seq: number;
  time: string;
  kind: AuthEventKind;
  /** The test id the request carried (`X-Test-Id` or `?testId=`), if any. */
  testId: string | null;
  /** The HTTP status answered. */
  status: number;
  /** The OAuth error answered, if any. */
  error?: string;
  /** The faults that hit this request, by name. */
  faults?: string[];
}

export interface MetadataEvent extends EventBase {
  kind: "metadata";
  document: "protected-resource" | "authorization-server" | "openid-configuration" | "jwks";
  path: string;
}

export interface RegistrationEvent extends EventBase {
  kind: "registration";
  clientId?: string;
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod?: string;
  /** RFC 7591 `application_type` as sent (2026-07-28 asks clients to send it). */
  applicationType?: string;
  scope?: string;
}

export interface AuthorizationEvent extends EventBase {
  kind: "authorization";
  clientId?: string;
  /** How the client is known: pre-registered, dynamically registered, or a Client ID Metadata Document. */
  clientKind?: "pre-registered" | "registered" | "metadata-document";
  redirectUri?: string;
  scopes: string[];
  resource?: string;
  pkce: { challengeSent: boolean; method?: string };
  stateSent: boolean;
  /** "code": a code went back; "error": an OAuth error went back to the redirect URI; "refused": answered here (no redirect). */
  outcome: "code" | "error" | "refused";
  iss?: string;
}

export interface TokenEvent extends EventBase {
  kind: "token";
  grantType?: string;
  clientId?: string;
  clientAuth?: "client_secret_basic" | "client_secret_post" | "none";
  scopes: string[];
  resource?: string;
  /** authorization_code: whether a verifier came and matched the challenge. */
  pkce?: { verifierSent: boolean; matched: boolean };
  issued: boolean;
  refreshTokenIssued?: boolean;
}

export interface RevocationEvent extends EventBase {
  kind: "revocation";
  clientId?: string;
  tokenTypeHint?: string;
  revoked: boolean;
}

export interface ChallengeEvent extends EventBase {
  kind: "challenge";
  /** What the MCP endpoint said in WWW-Authenticate (it holds no secret). */
  wwwAuthenticate: string;
  reason: "missing" | "unknown" | "expired" | "revoked" | "audience" | "scope";
  clientId?: string;
}

export type AuthEvent = MetadataEvent | RegistrationEvent | AuthorizationEvent | TokenEvent | RevocationEvent | ChallengeEvent;

type Unnumbered<E> = E extends AuthEvent ? Omit<E, "seq" | "time"> : never;
export type NewAuthEvent = Unnumbered<AuthEvent>;

export interface AuthJournalQuery {
  kind?: AuthEventKind;
  testId?: string;
  limit?: number;
}

export class SignInRecord {
  private readonly events: RingBuffer<AuthEvent>;
  private seq = 0;
  private readonly listeners = new Set<(event: AuthEvent) => void>();

  constructor(limit = 1_000) {
    this.events = new RingBuffer(limit);
  }

  add(event: NewAuthEvent): AuthEvent {
    const full = { seq: ++this.seq, time: new Date().toISOString(), ...event } as AuthEvent;
    this.events.push(full);
    for (const listener of this.listeners) {
      try {
        listener(full);
      } catch {
        // A listener's exception is its own; the sign-in goes on.
      }
    }
    return full;
  }

  /** Listens to each event as it is recorded; returns a function that stops listening. */
  on(listener: (event: AuthEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  all(): AuthEvent[] {
    return this.events.toArray();
  }

  query(query: AuthJournalQuery): AuthEvent[] {
    const kept = this.all().filter((event) => (query.kind === undefined || event.kind === query.kind) && (query.testId === undefined || event.testId === query.testId));
    return query.limit === undefined ? kept : kept.slice(-query.limit);
  }

  clear(): void {
    this.events.clear();
  }
}
