/**
 * The sign-in flags of `call`, `inspect` and `check` as a user runs them (the built CLI), against
 * a server protected with the SDK v1's own auth router and bearer middleware: a headless sign-in,
 * a token read from the environment or a file (never from a flag's value), and a clear usage
 * error for each flag that cannot work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtectedServer, type ProtectedServer } from "../support/protected-server.js";
import { runCli, scratchFile, useCli } from "./support.js";

useCli();

const usage = (command: string, message: string) => `mcp-testkit ${command}: ${message}\nRun "mcp-testkit ${command} --help" for usage.\n`;

describe("signing in from the command line", () => {
  let server: ProtectedServer;
  beforeAll(async () => {
    server = await startProtectedServer({ requiredScopes: ["mcp:tools"] });
  });
  afterAll(async () => {
    delete process.env.MCP_TESTKIT_TEST_TOKEN;
    await server.close();
  });

  it("call --sign-in signs in headlessly and calls the tool", async () => {
    const result = await runCli(["call", server.url, "whoami", "--sign-in"], { timeoutMs: 20_000 });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^client [0-9a-f-]{36}\n$/);
  });

  it("call --auth-token-env reads the token from the environment (children inherit it)", async () => {
    process.env.MCP_TESTKIT_TEST_TOKEN = server.tokenWithScopes(["mcp:tools"]);
    expect(await runCli(["call", server.url, "whoami", "--auth-token-env", "MCP_TESTKIT_TEST_TOKEN"], { timeoutMs: 20_000 })).toMatchObject({ code: 0, stdout: "client test\n" });
  });

  it("inspect --auth-token-file reads the token from a file", async () => {
    const file = scratchFile("token.txt", `${server.tokenWithScopes(["mcp:tools"])}\n`);
    const result = await runCli(["inspect", server.url, "--auth-token-file", file, "--json"], { timeoutMs: 20_000 });
    expect(result.code).toBe(0);
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain("whoami");
  });

  it("a refused token exits 1 naming the flag to change, and never prints the token", async () => {
    const token = server.tokenForAnotherAudience();
    process.env.MCP_TESTKIT_TEST_TOKEN = token;
    const result = await runCli(["call", server.url, "whoami", "--auth-token-env", "MCP_TESTKIT_TEST_TOKEN"], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the bearer token .* with HTTP 401 \(error=invalid_token/);
    expect(result.stderr).toContain("Check --auth-token-env / --auth-token-file.");
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it.each([
    [
      ["--auth-token-env", "MCP_TESTKIT_NOT_SET"],
      "--auth-token-env MCP_TESTKIT_NOT_SET: the environment variable MCP_TESTKIT_NOT_SET is not set (or empty); it holds the secret, the flag only names it",
    ],
    [["--client-secret-file", "/nonexistent/secret"], "--client-secret-file /nonexistent/secret: cannot read the file (ENOENT)"],
    [["--auth-grant", "password"], '--auth-grant must be authorization_code or client_credentials, got "password"'],
    [["--auth-attempts", "0"], '--auth-attempts must be a whole number from 1 to 10, got "0"'],
    [
      ["--auth-grant", "client_credentials"],
      '--auth-grant "client_credentials" needs --client-id (and --client-secret-env / --client-secret-file or --private-key-file): a machine client is registered beforehand.',
    ],
    [
      ["--client-metadata-url", "http://app.example/c.json"],
      '--client-metadata-url must be an https URL with a path (it is the client id), such as "https://app.example.com/client.json", got "http://app.example/c.json".',
    ],
    [["--sign-in", "--header", "Authorization: Bearer x"], '--header "Authorization: …" and the sign-in flags both set the credentials: keep one'],
  ])("call %j is a usage error", async (flags, message) => {
    expect(await runCli(["call", server.url, "whoami", ...flags])).toMatchObject({ code: 2, stdout: "", stderr: usage("call", message) });
  });

  it("the sign-in flags are for URL targets", async () => {
    expect(await runCli(["call", "node server.js", "whoami", "--sign-in"])).toMatchObject({
      code: 2,
      stderr: usage("call", "the sign-in flags are for URL targets; a stdio server is not behind OAuth"),
    });
  });

  it("each command's help lists the sign-in flags within 100 columns", async () => {
    for (const command of ["call", "inspect", "check", "record"]) {
      const help = await runCli([command, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("--auth-token-env <NAME>");
      expect(help.stdout.split("\n").filter((line) => line.length > 100)).toEqual([]);
    }
  });
});
