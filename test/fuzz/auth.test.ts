/**
 * The protected mock's authorization server under hostile input: malformed and random forms,
 * wrong content types and methods, foreign redirect URIs, random registration bodies, huge
 * bodies, and random PKCE verifiers for a real code. Whatever comes in, the answer is an OAuth
 * error (never a 5xx), no token is given, and no redirect leaves for a URI the client did not register.
 */
import { fc, test } from "@fast-check/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { budget } from "./budget.js";
import { metadataOf, pkce, REDIRECT, register, type Metadata } from "../auth/sign-in.js";

let server: MockMcpServer<string>;
let metadata: Metadata;
let clientId: string;

beforeAll(async () => {
  server = await mockMcp({ auth: { clients: [{ clientId: "bot", clientSecret: "bot-secret", redirectUris: [REDIRECT] }] }, tools: { echo: { returns: "hi" } } });
  metadata = await metadataOf(server.auth.issuer);
  clientId = (await register(metadata)).client_id;
});
afterAll(async () => {
  await server.close();
});

const FORM_KEYS = ["grant_type", "code", "code_verifier", "redirect_uri", "client_id", "client_secret", "refresh_token", "scope", "resource", "token", "token_type_hint"];
const GRANTS = ["authorization_code", "refresh_token", "client_credentials", "password", "", "urn:ietf:params:oauth:grant-type:jwt-bearer"];
const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(...GRANTS, "bot", "__proto__", "https://evil.example/cb", REDIRECT, "%", "%zz", "\u0000", "a".repeat(300)),
  fc.constant(() => clientId).map((get) => get()),
);
const form = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FORM_KEYS), fc.string({ maxLength: 8 })), hostileValue), { maxLength: 8 });
const contentType = fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data; boundary=x", "", "application/x-www-form-urlencoded; charset=utf-8");
const method = fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH");
const authorization = fc.option(
  fc.oneof(
    fc.string({ maxLength: 30 }).map((text) => `Basic ${Buffer.from(text).toString("base64")}`),
    fc.constantFrom("Basic !!!", "Basic Ym90OmJvdC1zZWNyZXQ=x", "Bearer x", "Basic"),
  ),
  { nil: undefined },
);

async function send(url: string, verb: string, type: string, body: string | undefined, auth?: string): Promise<{ status: number; text: string; location: string | null }> {
  const headers: Record<string, string> = {};
  if (type !== "") headers["content-type"] = type;
  if (auth !== undefined) headers.authorization = auth;
  const response = await server.fetch(url, { method: verb, headers, body: verb === "GET" ? undefined : body, redirect: "manual" });
  return { status: response.status, text: await response.text(), location: response.headers.get("location") };
}

describe("the authorization server under hostile input", () => {
  test.prop([method, contentType, form, authorization], budget(150, 60))("the token and revocation endpoints answer an OAuth error, never a 5xx or a token", async (verb, type, pairs, auth) => {
    const body = new URLSearchParams(pairs.map(([key, value]): [string, string] => [key, value])).toString();
    for (const endpoint of [metadata.token_endpoint, metadata.revocation_endpoint]) {
      const answer = await send(endpoint, verb, type, body, auth);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toContain("access_token");
      if (answer.status >= 400) expect(JSON.parse(answer.text)).toMatchObject({ error: expect.any(String) });
    }
  });

  test.prop(
    [fc.array(fc.tuple(fc.constantFrom("response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "scope", "resource", "state"), hostileValue), { maxLength: 9 })],
    budget(150, 60),
  )("the authorization endpoint never redirects to a URI the client did not register, and never answers 5xx", async (pairs) => {
    const url = new URL(metadata.authorization_endpoint);
    for (const [key, value] of pairs) url.searchParams.append(key, value);
    const answer = await send(url.toString(), "GET", "", undefined);
    expect(answer.status).toBeLessThan(500);
    if (answer.location !== null) expect(answer.location.startsWith(`${REDIRECT}?`)).toBe(true);
    else expect(answer.status).toBe(400);
  });

  test.prop(
    [
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          {
            redirect_uris: fc.array(fc.oneof(fc.webUrl(), fc.string(), fc.constantFrom("javascript:alert(1)", "http://evil.example/cb", "https://ok.example/cb#frag"))),
            grant_types: fc.array(fc.constantFrom(...GRANTS)),
            token_endpoint_auth_method: fc.constantFrom("none", "client_secret_basic", "private_key_jwt", ""),
          },
          { requiredKeys: [] },
        ),
      ),
    ],
    budget(150, 60),
  )("registration answers 201 with safe redirect URIs, or an OAuth error, never a 5xx", async (value) => {
    const answer = await send(metadata.registration_endpoint, "POST", "application/json", JSON.stringify(value));
    expect([201, 400]).toContain(answer.status);
    if (answer.status === 201) {
      const uris = JSON.parse(answer.text).redirect_uris as string[];
      for (const uri of uris) expect(uri.startsWith("https://") || /^http:\/\/(127\.|localhost|\[::1\])/.test(uri) || !/^(https?|javascript|data|file):/.test(uri)).toBe(true);
    } else expect(JSON.parse(answer.text)).toMatchObject({ error: expect.stringMatching(/^invalid_/) });
  });

  test.prop([fc.string({ minLength: 43, maxLength: 128, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~") })], budget(40, 60))(
    "a real code with a verifier that is not its own gets invalid_grant and no token",
    async (verifier) => {
      const { challenge } = pkce();
      const url = new URL(metadata.authorization_endpoint);
      for (const [key, value] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" }))
        url.searchParams.set(key, value);
      const code = new URL((await send(url.toString(), "GET", "", undefined)).location!).searchParams.get("code")!;
      const answer = await send(
        metadata.token_endpoint,
        "POST",
        "application/x-www-form-urlencoded",
        new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId }).toString(),
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: "invalid_grant" });
    },
  );

  it("a huge body is refused with an OAuth error before it is read", async () => {
    for (const endpoint of [metadata.token_endpoint, metadata.registration_endpoint]) {
      const type = endpoint === metadata.token_endpoint ? "application/x-www-form-urlencoded" : "application/json";
      const answer = await send(endpoint, "POST", type, "a".repeat(200 * 1024));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: "invalid_request" });
    }
  });

  it("the MCP endpoint refuses made-up, malformed and foreign-audience tokens with 401, never a 5xx", async () => {
    const foreign = await server.auth.issueToken({ audience: "https://other.example/mcp" });
    for (const header of ["Bearer", "Bearer ", "Bearer x.y.z", `Bearer ${"a".repeat(8000)}`, "Basic Ym90OmJvdC1zZWNyZXQ=", `Bearer ${foreign}`]) {
      const response = await server.fetch(server.url, { method: "POST", headers: { authorization: header, "content-type": "application/json" }, body: "{}" });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });
});
