/**
 * The official SDK v1 client, with its OAuth client provider, signs in to a protected mock
 * headlessly (it follows the authorization redirect with `redirect: "manual"` and reads the code
 * from `Location`), calls a tool, and refreshes when its token goes stale.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";

/** An OAuth client provider that signs in with no browser: it fetches the authorization URL and keeps the code. */
class HeadlessProvider implements OAuthClientProvider {
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = "";
  code?: string;
  readonly redirectUrl = "http://127.0.0.1:8976/callback";

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "sdk-v1 test", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const response = await fetch(url, { redirect: "manual" });
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect: ${await response.text()}`);
    this.code = new URL(location).searchParams.get("code") ?? undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Connects an SDK v1 client, signing in first when the mock asks for it. */
async function connectSignedIn(url: string, provider: HeadlessProvider): Promise<Client> {
  const first = new Client({ name: "agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  try {
    await first.connect(transport);
    return first;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    await first.close();
  }
  if (provider.code === undefined) throw new Error("no code came back from the authorization endpoint");
  await transport.finishAuth(provider.code);
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

describe("SDK v1 client signs in to a protected mock", () => {
  it("registers, authorizes with PKCE S256, calls a tool as the signed-in user, and refreshes a stale token", async () => {
    await using server = await mockMcp({ auth: {}, tools: { whoami: (call) => ({ returns: { client: call.auth?.clientId, subject: call.auth?.subject } }) } });
    const provider = new HeadlessProvider();
    const client = await connectSignedIn(server.url, provider);
    try {
      const result = await client.callTool({ name: "whoami", arguments: {} });
      const client_id = provider.clientInformation()?.client_id;
      expect(JSON.parse((result.content as Array<{ text: string }>)[0].text)).toEqual({ client: client_id, subject: "user-1" });
      expect(server.calls[0].auth).toEqual({ clientId: client_id, subject: "user-1", scopes: ["mcp:tools"], issuer: server.auth.issuer });

      server.auth.expireTokens();
      await client.callTool({ name: "whoami", arguments: {} });
      server.auth.assertSignIns({ registrations: 1, authorizations: 1, codeExchanges: 1, refreshes: 1 });
      server.auth.assertPkceS256();
      server.auth.assertRequestedScopes(["mcp:tools"]);
      server.auth.assertResourceSent();
    } finally {
      await client.close();
    }
  });

  it("answers a request without a token with 401 and a challenge that points to the resource metadata", async () => {
    await using server = await mockMcp({ auth: { requiredScopes: ["mcp:tools"] } });
    const response = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${server.auth.resourceMetadataUrl}", scope="mcp:tools"`);
    const metadata = await (await fetch(server.auth.resourceMetadataUrl)).json();
    expect(metadata).toMatchObject({ resource: server.url, authorization_servers: [server.auth.issuer], scopes_supported: ["mcp:tools"] });
    const root = await (await fetch(new URL("/.well-known/oauth-protected-resource", server.url))).json();
    expect(root).toEqual(metadata);
  });
});
