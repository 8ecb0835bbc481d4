/**
 * Faults of a protected mock, each used the way a test would: from the options, from code
 * (`server.auth.addFaults`), per test id, and through the control API.
 */
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { authorize, mcpPost, metadataOf, pkce, REDIRECT, register, signIn, tokenRequest } from "./sign-in.js";

const tools = { echo: { returns: "hi" } };

describe("faults of the protected resource", () => {
  it("token-expired and token-revoked: the token of the next request stops working, with a 401 saying why", async () => {
    await using server = await mockMcp({ auth: {}, tools });
    const { accessToken } = await signIn(server.auth.issuer, server.url);
    expect((await mcpPost(server.url, accessToken)).status).toBe(200);
    server.auth.addFaults({ fault: "token-expired" });
    const expired = await mcpPost(server.url, accessToken);
    expect(expired.status).toBe(401);
    expect(expired.challenge).toBe(`Bearer error="invalid_token", error_description="the token expired", resource_metadata="${server.auth.resourceMetadataUrl}"`);
    expect((await mcpPost(server.url, accessToken)).status).toBe(401);

    const second = await signIn(server.auth.issuer, server.url);
    server.auth.addFaults({ fault: "token-revoked" });
    expect((await mcpPost(server.url, second.accessToken)).challenge).toContain('error_description="the token was revoked"');
    expect(server.auth.journal({ kind: "challenge" }).map((event) => event.kind === "challenge" && event.reason)).toEqual(["expired", "expired", "revoked"]);
  });

  it("no-resource-metadata: the 401 carries no resource_metadata, so the client must probe the well-known paths", async () => {
    await using server = await mockMcp({ auth: { faults: [{ fault: "no-resource-metadata" }] }, tools });
    expect((await mcpPost(server.url, undefined)).challenge).toBe("Bearer");
  });

  it("step-up: every request now needs another scope (403 insufficient_scope naming it) until a token has it", async () => {
    await using server = await mockMcp({ auth: { scopes: ["mcp:tools", "admin"] }, tools });
    const first = await signIn(server.auth.issuer, server.url, { scope: "mcp:tools" });
    server.auth.addFaults({ fault: "step-up", scope: "admin" });
    const refused = await mcpPost(server.url, first.accessToken);
    expect(refused).toEqual({ status: 403, challenge: `Bearer error="insufficient_scope", scope="admin", resource_metadata="${server.auth.resourceMetadataUrl}"` });
    const stepped = await signIn(server.auth.issuer, server.url, { scope: "mcp:tools admin" });
    expect((await mcpPost(server.url, stepped.accessToken)).status).toBe(200);
    server.auth.assertRequestedScopes(["admin", "mcp:tools"]);
  });

  it("toolScopes: a call to a tool that needs more gets 403 insufficient_scope, other calls pass", async () => {
    await using server = await mockMcp({ auth: { toolScopes: { delete_repo: ["repo:admin"] } }, tools: { ...tools, delete_repo: { returns: "gone" } } });
    const { accessToken } = await signIn(server.auth.issuer, server.url);
    const call = (tool: string) =>
      fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${accessToken}`, "mcp-protocol-version": "2026-07-28" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: tool, arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
        }),
      });
    const refused = await call("delete_repo");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="repo:admin", resource_metadata="${server.auth.resourceMetadataUrl}"`);
    expect(server.calls).toEqual([]);
  });
});

describe("faults of the authorization server", () => {
  it("token-error and token-slow hit the next token request only", async () => {
    await using server = await mockMcp({ auth: { faults: [{ fault: "token-error" }] }, tools });
    await expect(signIn(server.auth.issuer, server.url)).rejects.toThrow(/503.*temporarily_unavailable/);
    server.auth.addFaults({ fault: "token-slow", delayMs: 300 });
    const started = Date.now();
    await signIn(server.auth.issuer, server.url);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(server.auth.journal({ kind: "token" }).map((event) => event.faults)).toEqual([["token-error"], ["token-slow"]]);
  });

  it("registration-refused answers the OAuth error given", async () => {
    await using server = await mockMcp({ auth: { faults: [{ fault: "registration-refused", error: "invalid_software_statement", status: 400 }] } });
    const metadata = await metadataOf(server.auth.issuer);
    await expect(register(metadata)).rejects.toThrow(/400.*invalid_software_statement/);
    await expect(register(metadata)).resolves.toMatchObject({ client_id: expect.any(String) });
  });

  it("refresh-refused and refresh-token-rotated", async () => {
    await using server = await mockMcp({ auth: { rotateRefreshTokens: false }, tools });
    const { metadata, clientId, refreshToken } = await signIn(server.auth.issuer, server.url);
    server.auth.addFaults({ fault: "refresh-refused" });
    expect(await tokenRequest(metadata, { grant_type: "refresh_token", refresh_token: refreshToken!, client_id: clientId })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const kept = await tokenRequest(metadata, { grant_type: "refresh_token", refresh_token: refreshToken!, client_id: clientId });
    expect(kept.status).toBe(200);
    expect(kept.body.refresh_token).toBeUndefined(); // rotation off: the client keeps its refresh token
    server.auth.addFaults({ fault: "refresh-token-rotated" });
    const rotated = await tokenRequest(metadata, { grant_type: "refresh_token", refresh_token: refreshToken!, client_id: clientId });
    expect(rotated.body.refresh_token).toEqual(expect.any(String));
    expect((await tokenRequest(metadata, { grant_type: "refresh_token", refresh_token: refreshToken!, client_id: clientId })).body.error).toBe("invalid_grant");
    expect((await tokenRequest(metadata, { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token as string, client_id: clientId })).status).toBe(200);
  });

  it("iss-wrong, iss-missing, iss-unexpected and issuer-mismatch", async () => {
    await using server = await mockMcp({ auth: {} });
    const metadata = await metadataOf(server.auth.issuer);
    expect(metadata).toMatchObject({ issuer: server.auth.issuer, authorization_response_iss_parameter_supported: true });
    const { client_id } = await register(metadata);
    const issOf = async () =>
      (await authorize(metadata, { response_type: "code", client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "S256" })).searchParams.get("iss");
    expect(await issOf()).toBe(server.auth.issuer);
    server.auth.addFaults({ fault: "iss-wrong" });
    expect(await issOf()).toBe("https://wrong-issuer.example");
    server.auth.clearFaults();
    server.auth.addFaults({ fault: "iss-missing" });
    expect(await issOf()).toBeNull();
    server.auth.clearFaults();
    server.auth.addFaults({ fault: "iss-unexpected" });
    expect(await issOf()).toBe(server.auth.issuer);
    expect((await metadataOf(server.auth.issuer)).authorization_response_iss_parameter_supported).toBeUndefined();
    server.auth.addFaults({ fault: "issuer-mismatch" });
    expect((await metadataOf(server.auth.issuer)).issuer).toBe("https://wrong-issuer.example");
  });

  it("authorization-server-moved: the resource metadata names a second authorization server, which knows none of the first one's clients", async () => {
    await using server = await mockMcp({ auth: {}, tools });
    const old = await signIn(server.auth.issuer, server.url);
    server.auth.addFaults({ fault: "authorization-server-moved" });
    const prm = (await (await fetch(server.auth.resourceMetadataUrl)).json()) as { authorization_servers: string[] };
    expect(prm.authorization_servers).toEqual([`${server.auth.issuer}/moved`]);
    const moved = await metadataOf(prm.authorization_servers[0]!);
    const stale = await authorize(moved, { response_type: "code", client_id: old.clientId, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "S256" }).catch(
      (error) => error,
    );
    expect(stale).toMatchObject({ status: 400 });
    const again = await signIn(prm.authorization_servers[0]!, server.url);
    expect((await mcpPost(server.url, again.accessToken)).status).toBe(200);
    server.auth.assertSignIns({ registrations: 2, authorizations: 2 });
  });

  it("offline-access-unsupported: not advertised, and no refresh token", async () => {
    await using server = await mockMcp({ auth: { faults: [{ fault: "offline-access-unsupported" }] }, tools });
    expect((await metadataOf(server.auth.issuer)).issuer).toBe(server.auth.issuer);
    expect((await metadataOf(server.auth.issuer)).scopes_supported).not.toContain("offline_access");
    expect((await signIn(server.auth.issuer, server.url)).refreshToken).toBeUndefined();
  });
});

describe("faults per test id and through the control API", () => {
  it("a fault with a testId hits only requests that carry it", async () => {
    await using server = await mockMcp({ auth: {}, tools });
    const { accessToken } = await signIn(server.auth.issuer, server.url);
    server.auth.addFaults({ fault: "token-expired", testId: "suite > expiry" });
    expect((await mcpPost(server.url, accessToken, { "x-test-id": "suite > other" })).status).toBe(200);
    expect((await mcpPost(server.url, accessToken, { "x-test-id": "suite > expiry" })).status).toBe(401);
    expect(server.auth.journal({ testId: "suite > expiry" })).toHaveLength(1);
  });

  it("the control API adds, lists and clears faults, expires and revokes tokens, and serves the journal", async () => {
    await using server = await mockMcp({ auth: {}, tools });
    const control = (path: string, init?: RequestInit) => fetch(new URL(`/__mcp-testkit/auth${path}`, server.url), init);
    const added = await control("/faults", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ faults: [{ fault: "token-error", times: 2 }] }) });
    expect(await added.json()).toEqual({ added: 1, faults: [{ fault: "token-error", times: 2, left: 2 }] });
    expect(await (await control("/faults", { method: "DELETE" })).json()).toEqual({ removed: 1 });
    const { accessToken } = await signIn(server.auth.issuer, server.url);
    expect(await (await control("/expire", { method: "POST" })).json()).toEqual({ expired: 1 });
    expect((await mcpPost(server.url, accessToken)).status).toBe(401);
    const journal = (await (await control("/journal?kind=token")).json()) as Array<{ kind: string; grantType: string }>;
    expect(journal.map((event) => [event.kind, event.grantType])).toEqual([["token", "authorization_code"]]);
    const wrong = await control("/faults", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ fault: "token-eror" }) });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toContain('did you mean "token-error"?');
    expect((await control("/nothing")).status).toBe(404);
  });

  it("a malformed fault in code or options is refused at once, naming the closest fault", async () => {
    await using server = await mockMcp({ auth: {} });
    expect(() => server.auth.addFaults({ fault: "iss-wrng" as "iss-wrong" })).toThrow(/"fault" must name a fault \(did you mean "iss-wrong"\?\)/);
    expect(() => server.auth.addFaults({ fault: "step-up" })).toThrow(/a "step-up" fault needs "scope"/);
    await expect(mockMcp({ auth: { faults: [{ fault: "token-slow", delayMs: -1 }] } })).rejects.toThrow(/auth.faults\[0\]: "delayMs" must be/);
  });
});
