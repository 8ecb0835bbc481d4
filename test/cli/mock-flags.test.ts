/**
 * `mcp-testkit mock` flags for a long-running mock: `--journal-max` (how many journal entries
 * it keeps; 0 keeps every one, as aimock's flag does) and `--metrics` (Prometheus text on the
 * mock's port, its URL in the banner). Each is used the way a user would: the CLI serves, an
 * SDK client calls, and the journal and metrics are read over HTTP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { collect, runCli, scenarioFile, startCli, until, useCli } from "./support.js";

useCli();

const clients = new Set<Client>();
afterEach(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  clients.clear();
});

/** Serves a tool `echo` beside a fixture file (the journal is the fakes' record of every request), with `args`. */
async function serve(args: string[]): Promise<{ url: string; output: { stdout: string; stderr: string } }> {
  const scenario = scenarioFile("echo.json", { tools: { echo: { returns: "hi" } } });
  const fixtures = scenarioFile("other-fakes.json", { mcpFakes: { scope: "shared", tools: [{ name: "other", calls: [{ anyArgs: true, result: "no" }] }] } });
  const child = startCli(["mock", scenario, fixtures, ...args]);
  // Collected from the start: the banner's lines may come in one chunk.
  const output = collect(child);
  await until(() => /^ {2}.*fake block.*$/m.test(output.stdout), "the banner");
  const url = /^mcp-testkit mock: serving .+ at (http:\/\/\S+)$/m.exec(output.stdout)![1]!;
  return { url, output };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "cli-flags", version: "1.0.0" });
  clients.add(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function journalCalls(url: string): Promise<number[]> {
  const entries = (await (await fetch(new URL("/__mcp-testkit/journal?method=tools/call", url))).json()) as Array<{ request: { params: { arguments: { n: number } } } }>;
  return entries.map((entry) => entry.request.params.arguments.n);
}

describe("mcp-testkit mock --journal-max", () => {
  it("keeps only the newest N journal entries", async () => {
    const { url } = await serve(["--journal-max", "2"]);
    const client = await connect(url);
    for (let n = 1; n <= 4; n++) await client.callTool({ name: "echo", arguments: { n } });
    expect(await journalCalls(url)).toEqual([3, 4]);
  });

  it("0 keeps every entry, beyond the default of 1000", async () => {
    const { url } = await serve(["--journal-max", "0"]);
    const client = await connect(url);
    const calls = 1010;
    // In rounds of 50 at once: quicker than one at a time, gentle on a shared machine.
    for (let start = 1; start <= calls; start += 50) {
      await Promise.all(Array.from({ length: Math.min(50, calls - start + 1) }, (_, i) => client.callTool({ name: "echo", arguments: { n: start + i } })));
    }
    const kept = await journalCalls(url);
    expect(kept).toHaveLength(calls);
    expect(new Set(kept).size).toBe(calls);
  }, 60_000);

  it("refuses a count that is not a whole number", async () => {
    const scenario = scenarioFile("echo.json", { tools: { echo: { returns: "hi" } } });
    const result = await runCli(["mock", scenario, "--journal-max", "lots"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--journal-max must be a whole number, 0 or more, got "lots"');
  });
});

describe("mcp-testkit mock --metrics", () => {
  it("serves the metrics on the mock's port and prints their URL in the banner", async () => {
    const { url, output } = await serve(["--metrics"]);
    const metricsUrl = /^ {2}metrics: (http:\/\/\S+)$/m.exec(output.stdout)?.[1];
    expect(metricsUrl).toBe(new URL("/__mcp-testkit/metrics", url).href);
    const client = await connect(url);
    await client.callTool({ name: "echo", arguments: {} });
    const response = await fetch(metricsUrl!);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('mcp_testkit_requests_total{endpoint="/mcp",method="tools/call",outcome="complete"} 1');
  });

  it("without the flag the banner names no metrics and the route says they are off", async () => {
    const { url, output } = await serve([]);
    expect(output.stdout).not.toContain("metrics");
    expect((await fetch(new URL("/__mcp-testkit/metrics", url))).status).toBe(404);
  });

  it("cannot be combined with --stdio, which has no port to serve them on", async () => {
    const scenario = scenarioFile("echo.json", { tools: { echo: { returns: "hi" } } });
    const result = await runCli(["mock", "--stdio", "--metrics", scenario]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--metrics serves them over HTTP on the mock's port, and --stdio has none");
  });
});
