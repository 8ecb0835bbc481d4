/**
 * What the protected resource and its authorization server(s) share: the options, the tokens,
 * the faults, the record, and where the mock is (its MCP URL is known once it listens).
 */
import type { AuthFaults } from "./faults.js";
import type { ResolvedAuthOptions } from "./options.js";
import type { SignInRecord } from "./sign-in-record.js";
import type { TokenStore } from "./tokens.js";
import type { ConsentPolicy } from "./options.js";

export interface AuthState {
  readonly options: ResolvedAuthOptions;
  readonly tokens: TokenStore;
  readonly faults: AuthFaults;
  readonly record: SignInRecord;
  /** The consent policy now (the test may change it: `server.auth.setConsent()`). */
  consent: ConsentPolicy;
  /** The MCP endpoint's URL: the resource, the audience of its tokens. */
  resource(): string;
}

export const OFFLINE_ACCESS = "offline_access";

/** Every scope the authorization server grants: the resource's, the ones steps up ask for, and offline_access unless it is off. */
export function grantableScopes(state: AuthState, testId: string | undefined): Set<string> {
  const { options, faults } = state;
  const scopes = new Set([...options.scopes, ...options.requiredScopes, ...Object.values(options.toolScopes).flat()]);
  for (const fault of faults.peekAll("step-up", testId)) for (const scope of [fault.scope ?? []].flat()) scopes.add(scope);
  if (offlineAccessOn(state, testId)) scopes.add(OFFLINE_ACCESS);
  return scopes;
}

export function offlineAccessOn(state: AuthState, testId: string | undefined): boolean {
  return state.options.offlineAccess && state.faults.peekAll("offline-access-unsupported", testId).length === 0;
}

/** The resources a token may be issued for: the MCP endpoint, and the configured audiences. */
export function allowedResource(state: AuthState, resource: string): boolean {
  return resource === state.resource() || state.options.audiences.includes(resource);
}
