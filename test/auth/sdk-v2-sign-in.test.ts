/**
 * The official SDK v2 client signs in to a protected mock headlessly, calls a tool as the
 * signed-in user, refreshes a stale token, and refuses an authorization response whose `iss`
 * is wrong (RFC 9207), the mock's fault for that.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";

type Provider = OAuthClientProvider & { callback?: URLSearchParams };

/** An in-memory provider with no browser: it fetches the authorization URL and keeps the callback's parameters. */
function headlessProvider(): Provider {
  const stored: Record<string, unknown> = {};
  const provider: Provider = {
    redirectUrl: "http://127.0.0.1:8977/callback",
    clientMetadata: {
      client_name: "sdk-v2 test",
      redirect_uris: ["http://127.0.0.1:8977/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    clientInformation: () => stored.client as never,
    saveClientInformation: (client) => void (stored.client = client),
    tokens: () => stored.tokens as never,
    saveTokens: (tokens) => void (stored.tokens = tokens),
    saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier as string,
    discoveryState: () => stored.discovery as never,
    saveDiscoveryState: (state) => void (stored.discovery = state),
    async redirectToAuthorization(url) {
      const response = await fetch(url, { redirect: "manual" });
      const location = response.headers.get("location");
      if (location === null) throw new Error(`no redirect from the authorization endpoint: ${response.status}`);
      provider.callback = new URL(location).searchParams;
    },
  };
  return provider;
}

async function connectSignedIn(url: string, provider: Provider): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const first = new Client({ name: "agent", version: "1.0.0" });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  await first.close();
  await transport.finishAuth(provider.callback!);
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

describe("SDK v2 client signs in to a protected mock", () => {
  it("signs in, calls a tool as the signed-in user, and refreshes once its token is stale", async () => {
    await using server = await mockMcp({ auth: {}, tools: { whoami: (call) => ({ returns: `${call.auth?.subject} via ${call.auth?.clientId}` }) } });
    const provider = headlessProvider();
    const client = await connectSignedIn(server.url, provider);
    try {
      const clientId = (await provider.clientInformation())?.client_id;
      expect(await client.callTool({ name: "whoami", arguments: {} })).toMatchObject({ content: [{ type: "text", text: `user-1 via ${clientId}` }] });
      server.auth.expireTokens();
      expect(await client.callTool({ name: "whoami", arguments: {} })).toMatchObject({ content: [{ type: "text", text: `user-1 via ${clientId}` }] });
      server.auth.assertSignIns({ registrations: 1, authorizations: 1, codeExchanges: 1, refreshes: 1 });
      server.auth.assertPkceS256();
      server.auth.assertResourceSent();
      const registration = server.auth.journal({ kind: "registration" })[0];
      expect(registration).toMatchObject({ grantTypes: ["authorization_code", "refresh_token"] });
    } finally {
      await client.close();
    }
  });

  it("refuses to finish a sign-in whose authorization response carries a wrong iss", async () => {
    await using server = await mockMcp({ auth: { faults: [{ fault: "iss-wrong" }] } });
    const provider = headlessProvider();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const client = new Client({ name: "agent", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await client.close();
    expect(provider.callback?.get("iss")).toBe("https://wrong-issuer.example");
    await expect(transport.finishAuth(provider.callback!)).rejects.toThrow(/iss/i);
    server.auth.assertSignIns({ codeExchanges: 0 });
  });
});
