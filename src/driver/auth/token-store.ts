/**
 * Where a driver keeps what it got at sign-in, keyed by authorization server (its issuer), so a
 * client registered with one server is never presented to another, and a server that moves to a
 * new authorization server gets a fresh registration. Share one store between drivers to sign in
 * once for all of them.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export interface StoredCredentials {
  /** The client as registered (dynamic registration, or a Client ID Metadata Document URL). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

export interface TokenStore {
  get(issuer: string): StoredCredentials | undefined | Promise<StoredCredentials | undefined>;
  set(issuer: string, credentials: StoredCredentials): void | Promise<void>;
}

/** A store in memory: what a driver uses when given none. */
export function memoryTokenStore(): TokenStore {
  const entries = new Map<string, StoredCredentials>();
  return {
    get: (issuer) => entries.get(issuer),
    set: (issuer, credentials) => {
      entries.set(issuer, credentials);
    },
  };
}
