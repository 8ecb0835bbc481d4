/**
 * `mcp-testkit mock --auth`: the served mock wants a bearer token and names its authorization
 * server in the banner; a scenario's "auth" options refine it; the control API hands out a token
 * and takes faults, for a test in another process.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { collect, runCli, scenarioFile, startCli, until, useCli } from "./support.js";

useCli();

async function serve(args: string[], scenario: unknown = { tools: { echo: { returns: "hi" } } }) {
  const child = startCli(["mock", scenarioFile("protected.json", scenario), ...args]);
  const output = collect(child);
  await until(() => /^ {2}protected: .*$/m.test(output.stdout), "the banner");
  const url = /^mcp-testkit mock: serving .+ at (http:\/\/\S+)$/m.exec(output.stdout)![1]!;
  const [, issuer, metadata] = /^ {2}protected: authorization server (\S+), resource metadata (\S+)$/m.exec(output.stdout)!;
  return { url, issuer: issuer!, metadata: metadata! };
}

describe("mcp-testkit mock --auth", () => {
  it("protects the endpoint, prints the issuer, and serves a token from the control API to a client that sends it", async () => {
    const { url, issuer, metadata } = await serve(["--auth"]);
    expect(issuer).toBe(new URL(url).origin);
    const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}"`);
    const issued = (await (await fetch(new URL("/__mcp-testkit/auth/token", url), { method: "POST" })).json()) as { access_token: string };
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${issued.access_token}` } } }));
    try {
      expect(await client.callTool({ name: "echo", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    } finally {
      await client.close();
    }
  });

  it("takes a scenario's auth options: required scopes in the challenge, faults listed by the control API", async () => {
    const { url, metadata } = await serve([], { tools: { echo: { returns: "hi" } }, auth: { requiredScopes: ["files:read"], faults: [{ fault: "issuer-mismatch" }] } });
    const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}", scope="files:read"`);
    const faults = await (await fetch(new URL("/__mcp-testkit/auth/faults", url))).json();
    expect(faults).toEqual([{ fault: "issuer-mismatch", left: "unlimited" }]);
  });

  it("refuses a scenario whose auth options are wrong, saying which key", async () => {
    const result = await runCli(["mock", scenarioFile("bad-auth.json", { tools: {}, auth: { requiredScope: ["x"] } })]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('unknown key "requiredScope"; did you mean "requiredScopes"?');
  });

  it("cannot be combined with --stdio, which has no HTTP header to carry a token", async () => {
    const result = await runCli(["mock", "--stdio", "--auth", scenarioFile("echo.json", { tools: { echo: { returns: "hi" } } })]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--auth protects an HTTP endpoint");
  });
});
