/**
 * The clients an authorization server knows: pre-registered ones (options), dynamically
 * registered ones (RFC 7591), and Client ID Metadata Documents, a `client_id` that is a URL.
 * A document is fetched only from a loopback URL (a mock never reaches out to the internet), or
 * accepted as configured without a fetch, as the conformance suite does with its fixed URL.
 */
import { randomBytes } from "node:crypto";
import { isLoopbackUrl } from "./oauth-http.js";
import type { ClientMetadataDocument, ResolvedAuthOptions } from "./options.js";

export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

export interface KnownClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Where codes may go; undefined: any loopback URI. */
  readonly redirectUris?: readonly string[];
  readonly grantTypes: readonly string[];
  readonly authMethod: ClientAuthMethod;
  readonly kind: "pre-registered" | "registered" | "metadata-document";
}

export type RegistrationResult = { client: KnownClient; document: Record<string, unknown> } | { error: string; description: string };

const GRANTS = ["authorization_code", "refresh_token", "client_credentials"];
const AUTH_METHODS: readonly ClientAuthMethod[] = ["none", "client_secret_basic", "client_secret_post"];
/** Registered clients kept at most: a flood of registrations cannot grow the mock without end. */
const MAX_REGISTERED = 10_000;
const DOCUMENT_MAX_BYTES = 64 * 1024;
const DOCUMENT_TIMEOUT_MS = 2_000;

const secret = () => randomBytes(24).toString("base64url");

/** A redirect URI a client may register: absolute, no fragment, https or loopback http or a private-use scheme (native apps). */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || !URL.canParse(uri)) return `${JSON.stringify(uri)} is not an absolute URI`;
  const url = new URL(uri);
  if (url.hash !== "" || uri.includes("#")) return `${uri} has a fragment, which a redirect URI may not (RFC 6749 §3.1.2)`;
  if (url.protocol === "http:" && !isLoopbackUrl(uri)) return `${uri} is plain http on a host that is not loopback; use https or a loopback address`;
  if (["javascript:", "data:", "file:", "blob:", "vbscript:"].includes(url.protocol)) return `${uri} uses the ${url.protocol} scheme, which no redirect may use`;
  return undefined;
}

export class ClientRegistry {
  private readonly clients = new Map<string, KnownClient>();
  private readonly documents = new Map<string, KnownClient>();

  constructor(private readonly options: ResolvedAuthOptions) {
    for (const client of options.clients) {
      const grantTypes = client.grantTypes ?? (client.clientSecret === undefined ? ["authorization_code", "refresh_token"] : GRANTS);
      this.clients.set(client.clientId, {
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        redirectUris: client.redirectUris,
        grantTypes,
        authMethod: client.clientSecret === undefined ? "none" : "client_secret_basic",
        kind: "pre-registered",
      });
    }
  }

  /** RFC 7591: the metadata checked, a client made (with a secret unless it asked for `none`). */
  register(body: unknown): RegistrationResult {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: "invalid_client_metadata", description: "the body must be a JSON object of client metadata" };
    const metadata = body as Record<string, unknown>;
    const grantTypes = metadata.grant_types ?? ["authorization_code"];
    if (!Array.isArray(grantTypes) || grantTypes.length === 0 || grantTypes.some((grant) => !GRANTS.includes(grant as string))) {
      return { error: "invalid_client_metadata", description: `grant_types must be a non-empty list of ${GRANTS.join(", ")}` };
    }
    const redirectUris = metadata.redirect_uris;
    if (grantTypes.includes("authorization_code") && (!Array.isArray(redirectUris) || redirectUris.length === 0)) {
      return { error: "invalid_redirect_uri", description: "redirect_uris must be a non-empty array for the authorization_code grant" };
    }
    // Checked whatever the grants: a stored URI must be one the server could safely redirect to.
    if (redirectUris !== undefined && !Array.isArray(redirectUris)) return { error: "invalid_redirect_uri", description: "redirect_uris must be an array of URIs" };
    for (const uri of redirectUris ?? []) {
      const problem = redirectUriProblem(uri);
      if (problem !== undefined) return { error: "invalid_redirect_uri", description: problem };
    }
    const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
    if (!AUTH_METHODS.includes(method as ClientAuthMethod)) return { error: "invalid_client_metadata", description: `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}` };
    const applicationType = metadata.application_type;
    if (applicationType !== undefined && applicationType !== "native" && applicationType !== "web")
      return { error: "invalid_client_metadata", description: 'application_type must be "native" or "web"' };
    if (metadata.scope !== undefined && typeof metadata.scope !== "string") return { error: "invalid_client_metadata", description: "scope must be a space-separated string" };
    const client: KnownClient = {
      clientId: `client-${randomBytes(9).toString("base64url")}`,
      clientSecret: method === "none" ? undefined : secret(),
      redirectUris: Array.isArray(redirectUris) ? (redirectUris as string[]) : [],
      grantTypes: grantTypes as string[],
      authMethod: method as ClientAuthMethod,
      kind: "registered",
    };
    if (this.clients.size >= MAX_REGISTERED) this.clients.delete(this.clients.keys().next().value as string);
    this.clients.set(client.clientId, client);
    const document: Record<string, unknown> = {
      ...pick(metadata, ["client_name", "client_uri", "logo_uri", "scope", "contacts", "software_id", "software_version", "application_type", "response_types"]),
      client_id: client.clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      redirect_uris: client.redirectUris,
      grant_types: client.grantTypes,
      token_endpoint_auth_method: client.authMethod,
    };
    if (client.clientSecret !== undefined) Object.assign(document, { client_secret: client.clientSecret, client_secret_expires_at: 0 });
    return { client, document };
  }

  /** The client with this id, fetching its metadata document if it is a loopback URL; an OAuth error description otherwise. */
  async find(clientId: string): Promise<KnownClient | { error: string; description: string }> {
    const known = this.clients.get(clientId) ?? this.documents.get(clientId);
    if (known !== undefined) return known;
    if (!/^https?:\/\//i.test(clientId) || !URL.canParse(clientId))
      return { error: "invalid_client", description: `no client has the id ${JSON.stringify(clientId)}; register first, or use a pre-registered client` };
    if (!this.options.clientMetadataDocuments) return { error: "invalid_client", description: "this authorization server does not take Client ID Metadata Documents" };
    const fixed = this.options.fixedClientDocuments[clientId];
    if (fixed !== undefined) return this.remember(clientId, fixed === true ? {} : fixed);
    if (!isLoopbackUrl(clientId))
      return {
        error: "invalid_client",
        description: `the mock fetches Client ID Metadata Documents only from loopback URLs; ${clientId} is not one (list it in auth.clientMetadataDocuments to accept it as it is)`,
      };
    const fetched = await fetchDocument(clientId);
    if ("error" in fetched) return fetched;
    return this.remember(clientId, fetched);
  }

  private remember(clientId: string, document: ClientMetadataDocument): KnownClient {
    const client: KnownClient = {
      clientId,
      redirectUris: document.redirect_uris,
      grantTypes: document.grant_types ?? ["authorization_code", "refresh_token"],
      authMethod: "none",
      kind: "metadata-document",
    };
    if (this.documents.size >= MAX_REGISTERED) this.documents.delete(this.documents.keys().next().value as string);
    this.documents.set(clientId, client);
    return client;
  }

  /** Whether the authorization endpoint may send a code to `uri` for this client (exact match, or any loopback URI when none is registered). */
  redirectAllowed(client: KnownClient, uri: string): boolean {
    if (client.redirectUris === undefined) return isLoopbackUrl(uri) && redirectUriProblem(uri) === undefined;
    return client.redirectUris.includes(uri);
  }
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

async function fetchDocument(url: string): Promise<ClientMetadataDocument | { error: string; description: string }> {
  const refused = (why: string) => ({ error: "invalid_client", description: `the Client ID Metadata Document at ${url} ${why}` });
  let text: string;
  try {
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS), headers: { accept: "application/json" } });
    if (!response.ok) return refused(`answered HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    return refused(`could not be fetched (${(error as Error).message})`);
  }
  if (text.length > DOCUMENT_MAX_BYTES) return refused(`is over ${DOCUMENT_MAX_BYTES} bytes`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return refused("is not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) return refused("is not a JSON object");
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) return refused(`names client_id ${JSON.stringify(fields.client_id)}, not its own URL`);
  if (!Array.isArray(fields.redirect_uris) || fields.redirect_uris.some((uri) => redirectUriProblem(uri) !== undefined)) return refused("has no valid redirect_uris");
  return fields as ClientMetadataDocument;
}
