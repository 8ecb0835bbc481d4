/**
 * `mcp-testkit check`'s authorization audit as a user runs it (the built CLI), against a server
 * protected with the SDK v1's own auth router and bearer middleware, and against an unprotected
 * mock: the challenge, an invalid token, the metadata, too little scope and another audience,
 * each linked to the authorization chapter; no token in the report.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { startProtectedServer, type ProtectedServer } from "../support/protected-server.js";
import { runCli, useCli } from "./support.js";

useCli();

const AUDIT = "auth-challenge,auth-invalid-token,auth-metadata,auth-insufficient-scope,auth-audience";
type Check = { id: string; status: string; detail: string; spec: string };

describe("check audits a protected server's authorization", () => {
  let server: ProtectedServer;
  beforeAll(async () => {
    server = await startProtectedServer({ requiredScopes: ["mcp:tools"], scopesSupported: ["mcp:tools"] });
    process.env.MCP_TESTKIT_NARROW = server.tokenWithScopes([]);
    process.env.MCP_TESTKIT_FOREIGN = server.tokenForAnotherAudience();
  });
  afterAll(async () => {
    delete process.env.MCP_TESTKIT_NARROW;
    delete process.env.MCP_TESTKIT_FOREIGN;
    await server.close();
  });

  it("passes each audit check, linking the authorization chapter, with no token in the report", async () => {
    const result = await runCli(["check", server.url, "--sign-in", "--narrow-token-env", "MCP_TESTKIT_NARROW", "--foreign-token-env", "MCP_TESTKIT_FOREIGN", "--only", AUDIT, "--json"], {
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(0);
    const checks = JSON.parse(result.stdout).checks as Check[];
    expect(checks.map((check) => [check.id, check.status])).toEqual(AUDIT.split(",").map((id) => [id, "PASS"]));
    expect(checks.find((check) => check.id === "auth-challenge")!.detail).toMatch(/got 401 with WWW-Authenticate: Bearer .*resource_metadata=/);
    expect(checks.find((check) => check.id === "auth-insufficient-scope")!.detail).toMatch(/403 .*error="insufficient_scope".*scope="mcp:tools"/);
    expect(checks.find((check) => check.id === "auth-audience")!.spec).toBe("https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling");
    expect(result.stdout).not.toContain(process.env.MCP_TESTKIT_NARROW!);
    expect(result.stdout).not.toContain(process.env.MCP_TESTKIT_FOREIGN!);
  });

  it("skips the scope and audience checks without their tokens, saying which flag gives one", async () => {
    const result = await runCli(["check", server.url, "--sign-in", "--only", "auth-insufficient-scope,auth-audience", "--json", "--timeout", "20000"], { timeoutMs: 60_000 });
    const checks = JSON.parse(result.stdout).checks as Check[];
    expect(checks.map((check) => check.status)).toEqual(["SKIP", "SKIP"]);
    expect(checks[0]!.detail).toContain("--narrow-token-env");
    expect(checks[1]!.detail).toContain("--foreign-token-env");
  });

  it("the other checks get through with the token the check signed in with", async () => {
    const result = await runCli(["check", server.url, "--sign-in", "--only", "ping,http-accept", "--json", "--timeout", "20000"], { timeoutMs: 60_000 });
    expect((JSON.parse(result.stdout).checks as Check[]).map((check) => [check.id, check.status])).toEqual([
      ["ping", "PASS"],
      ["http-accept", "PASS"],
    ]);
  });

  it("a token variable that is not set is a usage error", async () => {
    const result = await runCli(["check", server.url, "--foreign-token-env", "MCP_TESTKIT_NOT_SET"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain("--foreign-token-env MCP_TESTKIT_NOT_SET: the environment variable MCP_TESTKIT_NOT_SET is not set (or empty)");
  });
});

describe("check on a server that asks for no token", () => {
  let mock: MockMcpServer;
  beforeAll(async () => {
    mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("leaves the audit out of the report", async () => {
    const result = await runCli(["check", mock.url!, "--json", "--timeout", "20000"], { timeoutMs: 60_000 });
    expect((JSON.parse(result.stdout).checks as Check[]).filter((check) => check.id.startsWith("auth-"))).toEqual([]);
  });

  it("fails an audit check named by --only, saying why", async () => {
    const result = await runCli(["check", mock.url!, "--only", "auth-challenge", "--json", "--timeout", "20000"], { timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout).checks as Check[])[0]).toMatchObject({
      id: "auth-challenge",
      status: "FAIL",
      detail: expect.stringMatching(/^named by --only, but the server asks for no token: initialize without one got HTTP 200/),
    });
  });
});
