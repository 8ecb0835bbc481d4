/**
 * `mockMcp({ trace })`: every message in and out of a mock, as trace entries, in memory and in a
 * JSON Lines file written as they pass; grouped by call; served at `GET /__mcp-testkit/trace`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import type { TraceEntry } from "../../src/trace/entry.js";
import { parseTrace, readTrace } from "../../src/trace/read-trace.js";
import { closedAfterEach } from "../support/closed-after-each.js";
import { socketRequest } from "../fuzz/raw-http.js";

const { servers, clients } = closedAfterEach();
const folder = mkdtempSync(join(tmpdir(), "mcp-trace-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const TOKEN = "s3cret-trace-token-55e1";

/** Who sent what, in one short line: the method, or the id answered. */
function line(entry: TraceEntry): string {
  const message = entry.message as { method?: string; id?: unknown } | undefined;
  if (message === undefined) return `${entry.from} ${entry.raw !== undefined ? "raw" : `fault ${entry.fault}`}`;
  return `${entry.from} ${message.method ?? `answer to ${String(message.id)}`}`;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "traced-agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  clients.add(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe("a mock's trace file", () => {
  it("holds the header and every message both ways, with HTTP status, redacted headers and calls grouped", async () => {
    const file = join(folder, "nested", "run.jsonl");
    const server = await mockMcp({
      trace: file,
      tools: {
        book: {
          steps: undefined as never,
        } as never,
      },
    }).catch(() => undefined);
    expect(server).toBeUndefined(); // a malformed tool is refused before anything is written

    const mock = await mockMcp({
      trace: file,
      tools: {
        book: async (call) => {
          call.progress(1, 2);
          const answer = await call.elicit({ message: "Which day?", requestedSchema: { type: "object", properties: { day: { type: "string" } } } });
          return { returns: `booked ${JSON.stringify(answer.content)}` };
        },
      },
    });
    servers.add(mock);
    const client = await connect(mock.url, { Authorization: `Bearer ${TOKEN}`, "X-Test-Id": "trips > book" });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { day: "monday" } }));
    await client.callTool({ name: "book", arguments: {} }, undefined, { onprogress: () => undefined });
    await mock.close();

    const trace = await readTrace(file);
    expect(trace.header).toMatchObject({ type: "mcp-testkit-trace", version: 1, source: "mock", target: mock.url });
    const call = trace.entries.find((entry) => line(entry) === "client tools/call")!;
    const callId = (call.message as { id: number }).id;
    const underCall = trace.entries.filter((entry) => entry.callId === callId).map(line);
    expect(underCall).toEqual(["client tools/call", "server notifications/progress", "server elicitation/create", expect.stringMatching(/^client answer to /), `server answer to ${callId}`]);
    const answer = trace.entries.at(-1)!;
    expect(answer.http).toMatchObject({ method: "POST", path: "/mcp", status: 200, headers: { "content-type": expect.any(String) } });
    expect(call.http!.headers).toMatchObject({ authorization: "[redacted]", "x-test-id": "trips > book" });
    expect(call).toMatchObject({ from: "client", wire: "http", testId: "trips > book", protocolVersion: "2025-11-25", sessionId: expect.any(String) });
    expect(trace.entries.map((entry) => entry.seq)).toEqual(trace.entries.map((_, i) => i + 1));
    expect(readFileSync(file, "utf8")).not.toContain(TOKEN);
  });

  it("keeps the first `limit` entries in the file and ends with the last one, saying how many were dropped", async () => {
    const file = join(folder, "capped.jsonl");
    const mock = await mockMcp({ transport: "memory", trace: { file, limit: 3 }, tools: { ping_me: { returns: "pong" } } });
    servers.add(mock);
    for (let id = 1; id <= 5; id++) await mock.handle(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ping_me" } }));
    await mock.close();
    const { entries } = parseTrace(readFileSync(file, "utf8"));
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 10]);
    expect(entries.at(-1)!.dropped).toBe(6);
    // In memory the newest are kept, the first of them saying how many went before it.
    const kept = mock.trace!.entries();
    expect(kept.map((entry) => entry.seq)).toEqual([8, 9, 10]);
    expect(kept[0]!.dropped).toBe(7);
  });

  it("marks faults: a raw step's bytes, and a dropped connection where the answer should be", async () => {
    const mock = await mockMcp({ transport: "memory", trace: true, tools: { broken: { raw: "garbage" }, gone: { disconnect: true } } });
    servers.add(mock);
    await mock.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"broken"}}');
    const client = new Client({ name: "agent", version: "1.0.0" });
    clients.add(client);
    await client.connect(await mock.connectInMemory());
    await expect(client.callTool({ name: "gone", arguments: {} })).rejects.toThrow();
    const entries = mock.trace!.entries();
    expect(entries.find((entry) => entry.raw === "garbage")).toMatchObject({ from: "server", fault: "raw", callId: 1 });
    const gone = entries.find((entry) => (entry.message as { params?: { name?: string } } | undefined)?.params?.name === "gone")!;
    expect(entries.find((entry) => entry.fault === "disconnect")).toMatchObject({ from: "server", callId: (gone.message as { id: number }).id, wire: "memory" });
  });
});

describe("GET /__mcp-testkit/trace", () => {
  it("serves the trace as JSON Lines, filtered by test id, behind the Host guard", async () => {
    const mock = await mockMcp({ trace: true, tools: { echo: { returns: "hi" } } });
    servers.add(mock);
    for (const testId of ["suite > a", "suite > b"]) await (await connect(mock.url, { "X-Test-Id": testId })).callTool({ name: "echo", arguments: {} });
    const traceUrl = new URL("/__mcp-testkit/trace", mock.url);

    traceUrl.searchParams.set("testId", "suite > b");
    const response = await fetch(traceUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/jsonl");
    const trace = parseTrace(await response.text());
    expect(trace.entries.length).toBeGreaterThan(2);
    expect(new Set(trace.entries.map((entry) => entry.testId))).toEqual(new Set(["suite > b"]));

    // fetch cannot send another Host: a raw request does, as a DNS-rebinding page would.
    const foreign = await socketRequest(Number(new URL(mock.url).port), { method: "GET", target: "/__mcp-testkit/trace", headers: { host: "evil.example" } }, 5000);
    expect(foreign.status).toBe(403);
    const wrongQuery = await fetch(new URL("/__mcp-testkit/trace?test=a", mock.url));
    expect(wrongQuery.status).toBe(400);
    expect(await wrongQuery.json()).toMatchObject({ code: "MCP_TRACE_BAD_QUERY", error: expect.stringContaining("?testId=") });
  });

  it("says how to turn tracing on when the mock keeps none", async () => {
    const mock = await mockMcp({ tools: {} });
    servers.add(mock);
    const response = await fetch(new URL("/__mcp-testkit/trace", mock.url));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "MCP_TRACE_OFF", error: expect.stringContaining("trace: true") });
  });
});

describe("bad trace options", () => {
  it.each([
    [{ trace: 3 }, 'option "trace" must be true, a file name, or { file?, limit?, keep? }, got number 3'],
    [{ trace: "" }, "empty file name"],
    [{ trace: { limit: 0 } }, '"trace.limit" must be a whole number of entries, 1 or more'],
    [{ trace: { fil: "x.jsonl" } }, '"fil" is not one of them'],
  ])("%j is refused, saying what it takes", async (options, message) => {
    await expect(mockMcp({ transport: "memory", ...(options as object) })).rejects.toThrow(message);
  });

  it("a file that cannot be written is refused when the mock starts", async () => {
    const blocker = join(folder, "a-file");
    (await import("node:fs")).writeFileSync(blocker, "");
    await expect(mockMcp({ transport: "memory", trace: join(blocker, "under-a-file.jsonl") })).rejects.toThrow(/Cannot write the trace file .*under-a-file\.jsonl/);
  });
});
