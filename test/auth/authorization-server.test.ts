/**
 * The protected mock's authorization server as a client meets it: consent policies, clients
 * (pre-registered, registered, Client ID Metadata Documents), grants, JWTs checked against its
 * JWKS, audience, revocation, a port of its own; and the record of the sign-in, with no secret in it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { authorize, mcpPost, metadataOf, pkce, REDIRECT, register, signIn, tokenRequest } from "./sign-in.js";

const tools = { echo: { returns: "hi" } };
const codeRequest = (client_id: string, extra: Record<string, string> = {}) => ({
  response_type: "code",
  client_id,
  redirect_uri: REDIRECT,
  code_challenge: pkce().challenge,
  code_challenge_method: "S256",
  state: "xyz",
  ...extra,
});

describe("the authorization endpoint's consent", () => {
  it("approves by itself by default, and can deny, answer an OAuth error, or hand the decision to the test", async () => {
    await using server = await mockMcp({ auth: { consent: "deny" } });
    const metadata = await metadataOf(server.auth.issuer);
    const { client_id } = await register(metadata);
    const denied = await authorize(metadata, codeRequest(client_id));
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: "access_denied", error_description: "the user denied the request", state: "xyz", iss: server.auth.issuer });
    server.auth.setConsent({ error: "temporarily_unavailable", description: "try later" });
    expect((await authorize(metadata, codeRequest(client_id))).searchParams.get("error")).toBe("temporarily_unavailable");
    const asked: string[][] = [];
    server.auth.setConsent((request) => {
      asked.push([...request.scopes]);
      return { approve: { subject: "alice" } };
    });
    const { accessToken } = await signIn(server.auth.issuer, server.url, { scope: "mcp:tools" });
    expect(asked).toEqual([["mcp:tools"]]);
    const { payload } = await jwtVerify(accessToken, createRemoteJWKSet(new URL(metadata.jwks_uri)), { issuer: server.auth.issuer, audience: server.url });
    expect(payload).toMatchObject({ sub: "alice", scope: "mcp:tools", client_id: expect.any(String) });
  });

  it("never redirects to a redirect_uri the client did not register (no open redirect)", async () => {
    await using server = await mockMcp({ auth: {} });
    const metadata = await metadataOf(server.auth.issuer);
    const { client_id } = await register(metadata);
    const response = await fetch(`${metadata.authorization_endpoint}?${new URLSearchParams(codeRequest(client_id, { redirect_uri: "https://evil.example/cb" }))}`, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("no open redirect") });
  });
});

describe("clients", () => {
  it("a pre-registered confidential client gets a token by client credentials, with Basic or with the secret in the body", async () => {
    await using server = await mockMcp({ auth: { clients: [{ clientId: "ci-bot", clientSecret: "s3cret" }] }, tools: { whoami: (call) => ({ returns: call.auth?.subject ?? "nobody" }) } });
    const metadata = await metadataOf(server.auth.issuer);
    const basic = await tokenRequest(metadata, { grant_type: "client_credentials", resource: server.url }, { authorization: `Basic ${Buffer.from("ci-bot:s3cret").toString("base64")}` });
    expect(basic).toMatchObject({ status: 200, body: { token_type: "Bearer" } });
    const post = await tokenRequest(metadata, { grant_type: "client_credentials", client_id: "ci-bot", client_secret: "s3cret" });
    expect(post.status).toBe(200);
    const wrong = await tokenRequest(metadata, { grant_type: "client_credentials", client_id: "ci-bot", client_secret: "nope" });
    expect(wrong).toMatchObject({ status: 401, body: { error: "invalid_client", error_description: "the client secret is wrong" } });
    expect(JSON.stringify(wrong.body)).not.toContain("s3cret");
    expect((await mcpPost(server.url, basic.body.access_token as string)).status).toBe(200);
    server.auth.assertSignIns({ clientCredentials: 2, registrations: 0 });
  });

  it("a Client ID Metadata Document is fetched from a loopback URL, accepted as configured, and refused elsewhere", async () => {
    const documents = createServer((request, response) => {
      const url = `http://127.0.0.1:${(documents.address() as AddressInfo).port}${request.url}`;
      response.setHeader("content-type", "application/json").end(JSON.stringify({ client_id: url, client_name: "cimd", redirect_uris: [REDIRECT] }));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    try {
      const fixed = "https://conformance-test.local/client-metadata.json";
      await using server = await mockMcp({ auth: { clientMetadataDocuments: { [fixed]: true } } });
      const metadata = await metadataOf(server.auth.issuer);
      expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
      const fetched = `http://127.0.0.1:${(documents.address() as AddressInfo).port}/client.json`;
      expect((await authorize(metadata, codeRequest(fetched))).searchParams.get("code")).toEqual(expect.any(String));
      expect((await authorize(metadata, codeRequest(fixed))).searchParams.get("code")).toEqual(expect.any(String));
      const elsewhere = await authorize(metadata, codeRequest("https://app.example/client.json")).catch((error) => error);
      expect(elsewhere.message).toContain("fetches Client ID Metadata Documents only from loopback URLs");
      expect(server.auth.journal({ kind: "authorization" }).map((event) => event.kind === "authorization" && event.clientKind)).toEqual(["metadata-document", "metadata-document", undefined]);
    } finally {
      await new Promise((resolve) => documents.close(resolve));
    }
  });

  it("registration checks the metadata and records application_type", async () => {
    await using server = await mockMcp({ auth: {} });
    const metadata = await metadataOf(server.auth.issuer);
    await expect(register(metadata, { redirect_uris: ["http://evil.example/cb"] })).rejects.toThrow(/invalid_redirect_uri/);
    await expect(register(metadata, { application_type: "toaster" })).rejects.toThrow(/application_type must be/);
    const confidential = await register(metadata, { token_endpoint_auth_method: "client_secret_post" });
    expect(confidential.client_secret).toEqual(expect.any(String));
    const events = server.auth.journal({ kind: "registration" });
    expect(events.map((event) => event.kind === "registration" && event.applicationType)).toEqual(["native", "toaster", "native"]);
    expect(JSON.stringify(server.auth.record)).not.toContain(confidential.client_secret);
  });
});

describe("tokens", () => {
  it("refuses a token issued for another resource, a revoked one, and a reused code (revoking what it gave)", async () => {
    await using server = await mockMcp({ auth: { audiences: ["https://other.example/mcp"] }, tools });
    const foreign = await server.auth.issueToken({ audience: "https://other.example/mcp" });
    expect((await mcpPost(server.url, foreign)).challenge).toContain("the token was issued for https://other.example/mcp, not this resource");
    const signedIn = await signIn(server.auth.issuer, server.url);
    const reused = await tokenRequest(signedIn.metadata, {
      grant_type: "authorization_code",
      code: signedIn.code,
      redirect_uri: REDIRECT,
      code_verifier: signedIn.verifier,
      client_id: signedIn.clientId,
    });
    expect(reused.body).toEqual({ error: "invalid_grant", error_description: "the code was used before; the tokens it gave are revoked" });
    expect((await mcpPost(server.url, signedIn.accessToken)).challenge).toContain("the token was revoked");
    const again = await signIn(server.auth.issuer, server.url);
    const revoke = await fetch(again.metadata.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: again.accessToken, client_id: again.clientId }),
    });
    expect(revoke.status).toBe(200);
    expect((await mcpPost(server.url, again.accessToken)).status).toBe(401);
  });

  it("issues opaque tokens when asked, and serves its authorization server on a port of its own", async () => {
    await using server = await mockMcp({ auth: { tokenFormat: "opaque", authorizationServer: { port: 0 } }, tools });
    expect(new URL(server.auth.issuer).port).not.toBe(new URL(server.url).port);
    const prm = (await (await fetch(server.auth.resourceMetadataUrl)).json()) as { authorization_servers: string[] };
    expect(prm.authorization_servers).toEqual([server.auth.issuer]);
    const { accessToken } = await signIn(server.auth.issuer, server.url);
    expect(accessToken.split(".")).toHaveLength(1);
    expect((await mcpPost(server.url, accessToken)).status).toBe(200);
    const foreignHost = await fetch(`${server.auth.issuer}/.well-known/oauth-authorization-server`, { headers: { origin: "https://evil.example" } });
    expect(foreignHost.status).toBe(403);
  });
});

describe("the record of the sign-in", () => {
  it("holds every step with its PKCE and resource facts, and no secret", async () => {
    await using server = await mockMcp({ auth: {}, tools });
    const signedIn = await signIn(server.auth.issuer, server.url, { scope: "mcp:tools" });
    await tokenRequest(signedIn.metadata, { grant_type: "refresh_token", refresh_token: signedIn.refreshToken!, client_id: signedIn.clientId });
    await mcpPost(server.url, "not-a-token");
    expect(server.auth.record.map((event) => event.kind)).toEqual(["metadata", "registration", "authorization", "token", "token", "challenge"]);
    const authorization = server.auth.journal({ kind: "authorization" })[0];
    expect(authorization).toMatchObject({ clientId: signedIn.clientId, scopes: ["mcp:tools"], resource: server.url, pkce: { challengeSent: true, method: "S256" }, stateSent: true, outcome: "code" });
    expect(server.auth.journal({ kind: "token" })[0]).toMatchObject({ grantType: "authorization_code", pkce: { verifierSent: true, matched: true }, resource: server.url, refreshTokenIssued: true });
    const text = JSON.stringify(server.auth.record);
    for (const secret of [signedIn.code, signedIn.verifier, signedIn.accessToken, signedIn.refreshToken!, "not-a-token"]) expect(text).not.toContain(secret);
    server.auth.assertSignIns({ registrations: 1, authorizations: 1, codeExchanges: 1, refreshes: 1, challenges: 1 });
    expect(() => server.auth.assertSignIns({ refreshes: 0 })).toThrow(/refreshes: expected 0, the record shows 1/);
    expect(() => server.auth.assertRequestedScopes(["mcp:tools", "admin"])).toThrow(/missing: admin/);
  });

  it("assertPkceS256 says which request failed, and what it sent", async () => {
    await using server = await mockMcp({ auth: {} });
    const metadata = await metadataOf(server.auth.issuer);
    const { client_id } = await register(metadata);
    const plain = await authorize(metadata, { response_type: "code", client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "plain" });
    expect(plain.searchParams.get("error")).toBe("invalid_request");
    expect(() => server.auth.assertPkceS256()).toThrow(/code_challenge_method=plain/);
  });

  it("server.auth on a mock that is not protected, and auth options that are wrong, say what to do", async () => {
    await using open = await mockMcp({ tools });
    expect(() => open.auth).toThrow(/create it with mockMcp\(\{ auth: \{\} \}\)/);
    await expect(mockMcp({ auth: { tokenFormat: "paseto" as "jwt" } })).rejects.toThrow(/"tokenFormat" must be "jwt" or "opaque", got "paseto"/);
    await expect(mockMcp({ transport: "memory", auth: {} })).rejects.toThrow(/"auth" needs the mock served over HTTP/);
  });
});
