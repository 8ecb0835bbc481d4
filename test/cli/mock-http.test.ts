/**
 * `mcp-testkit mock <scenario>` over Streamable HTTP: it prints its URL, an SDK client with
 * `StreamableHTTPClientTransport` uses it, one line is printed per call, and Ctrl-C (SIGINT) or
 * SIGTERM stops it cleanly, writing the record.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { collect, delay, EXAMPLES, exited, scratchFile, startCli, until, useCli, waitForLine } from "./support.js";
import { freePort } from "../support/ports.js";

useCli();

type Json = Record<string, any>;

const ISSUE_TRACKER = join(EXAMPLES, "issue-tracker.json");
const URL_LINE = /^mcp-testkit mock: serving (.+) at (http:\/\/\S+)$/;

const clients = new Set<Client>();
const blockers = new Set<Server>();
afterEach(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const blocker of blockers) await new Promise((resolve) => blocker.close(resolve));
  clients.clear();
  blockers.clear();
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "cli-http-test", version: "1.0.0" });
  clients.add(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A port that something else is listening on, until the test ends. */
async function occupiedPort(): Promise<number> {
  const blocker = createServer();
  blockers.add(blocker);
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  return (blocker.address() as { port: number }).port;
}

describe("mcp-testkit mock over Streamable HTTP", () => {
  it("prints its URL, serves an SDK client, prints one line per call and stops on SIGINT with the record written", async () => {
    const record = scratchFile("http-record.json");
    const child = startCli(["mock", ISSUE_TRACKER, "--record", record]);
    const [, name, url] = await waitForLine(child, "stdout", URL_LINE);
    const output = collect(child);
    expect(name).toBe(ISSUE_TRACKER);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const client = await connect(url!);
    expect(client.getServerVersion()?.name).toBe("issue-tracker-mock");
    const found = await client.callTool({ name: "search_issues", arguments: { query: "crash" } });
    expect(JSON.parse((found.content as Json[])[0]!.text)).toHaveLength(2);
    await expect(client.callTool({ name: "search_issues", arguments: { query: "crash" } })).rejects.toThrow(McpError);
    expect((await client.callTool({ name: "get_issue", arguments: { id: 1 } })).isError).toBeFalsy();
    expect((await client.callTool({ name: "get_issue", arguments: { id: 2 } })).isError).toBe(true);

    await until(() => output.stdout.split("\n").filter((line) => / #\d /.test(line)).length === 4, "four call lines");
    expect(output.stdout.split("\n").filter((line) => / #\d /.test(line))).toEqual([
      expect.stringMatching(/^search_issues #0 \{"query":"crash"\} → result \(\d+ ms\)$/),
      expect.stringMatching(/^search_issues #1 \{"query":"crash"\} → protocol-error -32000 rate_limited \(\d+ ms\)$/),
      expect.stringMatching(/^get_issue #0 \{"id":1\} → result \(\d+ ms\)$/),
      expect.stringMatching(/^get_issue #1 \{"id":2\} → tool-error "issue 2 is locked: you need triage rights to read it" \(\d+ ms\)$/),
    ]);
    // Reads and prompts get a line too, their duration in whole milliseconds as a call's is.
    await client.readResource({ uri: "tracker://labels" });
    await client.getPrompt({ name: "triage", arguments: { label: "bug" } });
    await until(() => output.stdout.includes("prompt triage"), "the read and prompt lines");
    expect(output.stdout).toMatch(/^read tracker:\/\/labels → result \(\d+ ms\)$/m);
    expect(output.stdout).toMatch(/^prompt triage \{"label":"bug"\} → result \(\d+ ms\)$/m);

    child.kill("SIGINT");
    const result = await exited(child, output, 5000);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("mcp-testkit mock: stopped (SIGINT)\n");
    const saved = JSON.parse(readFileSync(record, "utf8")) as { calls: Json[]; messages: Json[] };
    expect(saved.calls.map((call) => [call.tool, call.index, call.outcome])).toEqual([
      ["search_issues", 0, "result"],
      ["search_issues", 1, "protocol-error"],
      ["get_issue", 0, "result"],
      ["get_issue", 1, "tool-error"],
    ]);
    expect(new Set(saved.calls.map((call) => call.sessionId)).size).toBe(1);
    expect(saved.messages[0]).toMatchObject({ method: "initialize" });
  });

  it("a hung call ends as cancelled when the server stops on SIGTERM", async () => {
    const record = scratchFile("http-hang-record.json");
    const child = startCli(["mock", ISSUE_TRACKER, "--record", record]);
    const [, , url] = await waitForLine(child, "stdout", URL_LINE);
    const output = collect(child);
    const client = await connect(url!);
    await client.callTool({ name: "get_issue", arguments: { id: 1 } });
    await client.callTool({ name: "get_issue", arguments: { id: 2 } });
    const hanging = client.callTool({ name: "get_issue", arguments: { id: 3 } }).catch((error: unknown) => error);
    // No line shows that a call started; give the request time to reach the mock.
    await delay(200);
    child.kill("SIGTERM");
    const result = await exited(child, output, 5000);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^get_issue #2 \{"id":3\} → cancelled: the mock server closed \(\d+ ms\)$/m);
    expect((JSON.parse(readFileSync(record, "utf8")) as { calls: Json[] }).calls.at(-1)).toMatchObject({ tool: "get_issue", index: 2, outcome: "cancelled" });
    await client.close();
    await hanging;
  });

  it("prints a line when a session opens and when it closes, once each (the form --stdio prints too)", async () => {
    const child = startCli(["mock", ISSUE_TRACKER]);
    const [, , url] = await waitForLine(child, "stdout", URL_LINE);
    const output = collect(child);
    const client = new Client({ name: "cli-http-test", version: "1.0.0" });
    clients.add(client);
    const transport = new StreamableHTTPClientTransport(new URL(url!));
    await client.connect(transport);
    await client.callTool({ name: "get_issue", arguments: { id: 1 } });
    // The client ends its session with a DELETE; the closed line follows it.
    await transport.terminateSession();
    await until(() => output.stdout.includes(" closed: "), "the session's closed line");
    const sessions = output.stdout.split("\n").filter((line) => line.startsWith("session "));
    expect(sessions).toEqual([expect.stringMatching(/^session [0-9a-f]{8}… opened \(http\)$/), expect.stringMatching(/^session [0-9a-f]{8}… closed: the client ended the session \(DELETE\)$/)]);
    // Both lines name the one session.
    const idOf = (line: string) => line.split(" ")[1];
    expect(idOf(sessions[0]!)).toBe(idOf(sessions[1]!));
  });

  it("listens where --host, --port and --path say", async () => {
    const port = await freePort();
    const child = startCli(["mock", "--host", "127.0.0.1", "--port", String(port), "--path", "/tracker/mcp", ISSUE_TRACKER]);
    const [, , url] = await waitForLine(child, "stdout", URL_LINE);
    expect(url).toBe(`http://127.0.0.1:${port}/tracker/mcp`);
    const client = await connect(url!);
    expect((await client.listTools()).tools).toHaveLength(3);
  });

  it("fails with exit code 1 and a clear message when the port is taken", async () => {
    const port = await occupiedPort();
    const child = startCli(["mock", "--port", String(port), ISSUE_TRACKER]);
    const result = await exited(child, collect(child), 5000);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`mcp-testkit mock: Cannot serve "${ISSUE_TRACKER}" on 127.0.0.1:${port}: port ${port} is in use; choose another --port or leave it out for a free one.\n`);
  });
});
