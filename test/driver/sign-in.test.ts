/**
 * The driver signs in to an OAuth-protected server built from the SDK v1's own server parts
 * (its authorization server router and bearer middleware): headlessly through the authorization
 * code flow with PKCE and dynamic registration, with a static token, through a test's own
 * `authorize`, refreshing a stale token, reusing a shared store, and failing with words that
 * say what to set. Tokens never reach the driver's traffic.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpTestkitError } from "../../src/errors.js";
import { mcpConnect, memoryTokenStore, SignInError, type TokenStore } from "../../src/driver/index.js";
import { renderDriverError } from "../../src/driver/errors.js";
import { startProtectedServer, type ProtectedServer } from "../support/protected-server.js";
import { useDrivers } from "./support.js";

const track = useDrivers();

describe("mcpConnect(url, { auth })", () => {
  let server: ProtectedServer;
  beforeEach(async () => {
    server = await startProtectedServer({ requiredScopes: ["mcp:tools"], scopesSupported: ["mcp:tools", "mcp:admin"] });
  });
  afterEach(async () => {
    await server.close();
  });

  it("signs in headlessly (registration, PKCE, resource, the challenge's scope) and calls a tool", async () => {
    const app = track(mcpConnect(server.url, { auth: {} }));
    const result = await app.callTool("whoami");
    expect(result.getTextContent()).toMatch(/^client [0-9a-f-]{36}$/);
    expect(server.log).toEqual(["register", `authorize scope=mcp:tools resource=${server.url}`, "token authorization_code"]);
  });

  it("refreshes a stale token, and never registers again", async () => {
    const app = track(mcpConnect(server.url, { auth: {} }));
    await app.callTool("whoami");
    server.expireTokens();
    await app.callTool("whoami");
    expect(server.log.filter((line) => line === "register")).toHaveLength(1);
    expect(server.log.at(-1)).toBe("token refresh_token");
  });

  it("keeps credentials by issuer in a store that other drivers can share", async () => {
    const store = memoryTokenStore();
    await track(mcpConnect(server.url, { auth: { store } })).callTool("whoami");
    const issuer = `${new URL(server.url).origin}/`;
    expect((await store.get(issuer))?.tokens?.access_token).toBeTypeOf("string");
    server.expireTokens();
    // A second driver finds the first one's refresh token under the same issuer: no new registration or consent.
    await track(mcpConnect(server.url, { auth: { store } })).callTool("whoami");
    expect(server.log).toEqual(["register", expect.stringMatching(/^authorize /), "token authorization_code", "token refresh_token"]);
  });

  it("sends a static token as it is", async () => {
    const app = track(mcpConnect(server.url, { auth: { token: server.tokenWithScopes(["mcp:tools"]) } }));
    expect((await app.callTool("whoami")).getTextContent()).toBe("client test");
    expect(server.log).toEqual([]);
  });

  it("says so when the server refuses a static token, and which setting to change", async () => {
    const app = track(mcpConnect(server.url, { auth: { token: server.tokenForAnotherAudience() } }));
    const error = await app.callTool("whoami").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).code).toBe("token_refused");
    expect((error as SignInError).oauthError).toBe("invalid_token");
    expect((error as SignInError).message).toMatch(/refused the bearer token given in auth\.token with HTTP 401 \(error=invalid_token.*Check auth\.token\./);
    // The command line names its flag instead.
    expect(renderDriverError(error as SignInError, "cli")).toMatch(/Check --auth-token-env \/ --auth-token-file\./);
  });

  it("lets a test drive the consent with authorize(url), as a browser would", async () => {
    const seen: URL[] = [];
    const authorize = async (url: URL) => {
      seen.push(url);
      const response = await fetch(url, { redirect: "manual" });
      return response.headers.get("location")!;
    };
    await track(mcpConnect(server.url, { auth: { authorize } })).callTool("whoami");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(seen[0]!.searchParams.get("resource")).toBe(server.url);
  });

  it("refuses a consent that comes back denied, with the authorization server's words", async () => {
    const authorize = async (url: URL) => `http://127.0.0.1/callback?error=access_denied&error_description=the+user+said+no&state=${url.searchParams.get("state")}`;
    const error = await track(mcpConnect(server.url, { auth: { authorize } }))
      .callTool("whoami")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).code).toBe("authorization_denied");
    expect((error as SignInError).message).toContain("answered the authorization request with error=access_denied (the user said no)");
  });

  it("refuses a callback whose state is not the one sent", async () => {
    const authorize = async () => "http://127.0.0.1/callback?code=stolen&state=forged";
    const error = await track(mcpConnect(server.url, { auth: { authorize } }))
      .callTool("whoami")
      .catch((caught: unknown) => caught);
    expect((error as SignInError).code).toBe("state_mismatch");
    expect((error as SignInError).message).not.toContain("stolen");
  });

  it("never lets a token reach the driver's traffic", async () => {
    const store: TokenStore = memoryTokenStore();
    const app = track(mcpConnect(server.url, { auth: { store } }));
    const heard: string[] = [];
    app.traffic.on("message", (event) => heard.push(JSON.stringify(event)));
    await app.callTool("whoami");
    const token = (await store.get(`${new URL(server.url).origin}/`))?.tokens?.access_token;
    expect(token).toBeTypeOf("string");
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.join("\n")).not.toContain(token);
    // The credentials are added below the tap: what it hears carries no Authorization header at all.
    expect(heard.join("\n").toLowerCase()).not.toContain('"authorization"');
  });
});

describe("auth options that cannot work", () => {
  const url = "http://127.0.0.1:9/mcp";
  it.each([
    [{ auth: "secret" }, /auth must be an object such as \{ token: "…" \}/],
    [{ auth: { token: "" } }, /auth\.token must be a non-empty string, got ""|auth\.token must be a non-empty string/],
    [{ auth: { tokn: "t" } }, /tokn.*token/s],
    [{ auth: { token: "t", clientId: "c" } }, /auth\.token is a static bearer token.*auth\.clientId would be ignored/],
    [{ auth: { grant: "client_credentials", clientId: "c" } }, /needs exactly one of auth\.clientSecret .* and auth\.privateKey/],
    [{ auth: { grant: "client_credentials" } }, /needs auth\.clientId/],
    [{ auth: { grant: "password" } }, /auth\.grant must be "authorization_code" or "client_credentials", got "password"/],
    [{ auth: { clientSecret: "s" } }, /auth\.clientSecret belongs to a pre-registered client: give auth\.clientId too/],
    [{ auth: { clientMetadataUrl: "http://app.example/client.json" } }, /auth\.clientMetadataUrl must be an https URL with a path/],
    [{ auth: { redirectUrl: "http://example.com/cb" } }, /auth\.redirectUrl must be a loopback http URL or an https URL/],
    [{ auth: { maxAttempts: 0 } }, /auth\.maxAttempts must be a whole number from 1 to 10, got number 0/],
    [{ auth: { store: {} } }, /auth\.store must have get\(issuer\) and set\(issuer, credentials\)/],
    [{ auth: { token: "t" }, headers: { Authorization: "Bearer x" } }, /auth and an Authorization header in headers both set the credentials/],
  ])("%j is refused", (options, expected) => {
    expect(() => mcpConnect(url, options as never)).toThrow(McpTestkitError);
    expect(() => mcpConnect(url, options as never)).toThrow(expected);
  });

  it("never shows a secret's value in its complaint", () => {
    expect(() => mcpConnect(url, { auth: { clientSecret: "hunter2" } })).toThrow(/^(?!.*hunter2)/s);
  });
});
