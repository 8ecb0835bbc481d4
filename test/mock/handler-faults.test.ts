/**
 * Faults as values any handler returns, as msw's `delay()` is: a resource's read, a prompt's
 * messages and a `server.use()` handler answer late (`delay`), never (`hang`), by dropping the
 * connection (`disconnect`), with raw bytes (`rawBytes`) or on a cut stream (`cutStream`); and a
 * definition's JSON `fault` does the same for every request. The official SDK client meets them
 * over memory, Streamable HTTP and stdio.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { cutStream, delay, disconnect, hang, mockMcp, rawBytes, type MockMcpOptions, type MockMcpServer, type RequestEndEvent } from "../../src/index.js";
import { onCleanup, sdkClient, serve, useCleanup } from "../wire/support/http.js";

useCleanup();

const STDIO_SERVER = fileURLToPath(new URL("./servers/faulty-resource-stdio.ts", import.meta.url));

/** A connected SDK v1 client of `server` over `wire`. */
async function connect(server: MockMcpServer, wire: "memory" | "http"): Promise<Client> {
  if (wire === "http") return (await sdkClient(server.url!)).client;
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(await server.connectInMemory());
  onCleanup(() => client.close());
  return client;
}

/** The outcome of every request the mock ended, by method. */
function endings(server: MockMcpServer): Array<Pick<RequestEndEvent, "method" | "outcome">> {
  const ended: Array<Pick<RequestEndEvent, "method" | "outcome">> = [];
  server.on("request:end", (event) => ended.push({ method: event.method, outcome: event.outcome }));
  return ended;
}

describe.each(["memory", "http"] as const)("faults a handler returns, over %s", (wire) => {
  const options = (extra: MockMcpOptions): MockMcpOptions => ({ transport: wire, ...extra });

  it("a prompt that hangs answers nothing until the client cancels it; then its signal aborts", async () => {
    let started = false;
    let aborted = false;
    const server = await serve(
      options({
        prompts: {
          stuck: {
            messages: (_args, request) => {
              started = true;
              request.signal.addEventListener("abort", () => (aborted = true));
              return hang();
            },
          },
        },
      }),
    );
    const client = await connect(server, wire);
    const ended = endings(server);
    const cancel = new AbortController();
    const asked = client.getPrompt({ name: "stuck" }, { signal: cancel.signal });
    await expect.poll(() => started).toBe(true);
    expect(ended).toEqual([]);
    cancel.abort("the user gave up");
    await expect(asked).rejects.toThrow(/gave up|abort/i);
    await expect.poll(() => aborted).toBe(true);
    await expect.poll(() => ended).toEqual([expect.objectContaining({ method: "prompts/get", outcome: "none" })]);
    // The mock still answers on the same connection.
    expect(await client.listPrompts()).toMatchObject({ prompts: [{ name: "stuck" }] });
  });

  it("a resource read delayed answers its contents after the delay", async () => {
    const server = await serve(options({ resources: { "notes://slow": { read: () => delay(30, "late but here") } } }));
    const client = await connect(server, wire);
    const started = Date.now();
    const read = await client.readResource({ uri: "notes://slow" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(read.contents).toEqual([{ uri: "notes://slow", mimeType: "text/plain", text: "late but here" }]);
  });

  it("a resource read that disconnects drops the client's connection: the read fails", async () => {
    const server = await serve(options({ resources: { "notes://gone": { read: () => disconnect() } } }));
    const client = await connect(server, wire);
    const ended = endings(server);
    await expect(client.readResource({ uri: "notes://gone" }, { timeout: 2000 })).rejects.toThrow();
    await expect.poll(() => ended).toEqual([expect.objectContaining({ method: "resources/read", outcome: "drop" })]);
  });

  it("a definition's JSON fault delays every read, and a prompt's fault writes raw bytes", async () => {
    const server = await serve(
      options({
        resources: { "notes://json": { text: "slow text", fault: { delayMs: 20 } } },
        prompts: { garbled: { messages: [{ role: "user", content: "never sent" }], fault: { raw: "this is not JSON-RPC" } } },
      }),
    );
    const client = await connect(server, wire);
    const ended = endings(server);
    const started = Date.now();
    expect((await client.readResource({ uri: "notes://json" })).contents).toEqual([{ uri: "notes://json", mimeType: "text/plain", text: "slow text" }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    // The client cannot read the bytes as an answer: it gives up at its timeout.
    await expect(client.getPrompt({ name: "garbled" }, { timeout: 300 })).rejects.toThrow();
    await expect.poll(() => ended.map((event) => event.outcome)).toEqual(["result", "raw"]);
  });

  it("a server.use() handler returns a fault: delay(ms, result), then hang() until the client cancels", async () => {
    const server = await serve(options({ tools: { search: { returns: "built-in" } } }));
    const client = await connect(server, wire);
    const ended = endings(server);
    const stop = server.use("tools/call", () => delay(20, { content: [{ type: "text", text: "from use(), late" }] }));
    const started = Date.now();
    expect((await client.callTool({ name: "search" })).content).toEqual([{ type: "text", text: "from use(), late" }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    stop();
    server.use("x/wait", () => hang());
    const cancel = new AbortController();
    const waiting = client.request({ method: "x/wait", params: {} }, z.object({}), { signal: cancel.signal });
    await expect.poll(() => ended.length).toBe(1);
    cancel.abort();
    await expect(waiting).rejects.toThrow();
    await expect
      .poll(() => ended.map((event) => [event.method, event.outcome]))
      .toEqual([
        ["tools/call", "result"],
        ["x/wait", "none"],
      ]);
    // With the handlers gone, the built-in tool answers again.
    server.resetHandlers();
    expect((await client.callTool({ name: "search" })).content).toEqual([{ type: "text", text: "built-in" }]);
  });

  it("a tool's step function may return a fault too: delay(ms, step)", async () => {
    const server = await serve(options({ tools: { slow: { responses: () => delay(20, { returns: "slow result" }) } } }));
    const client = await connect(server, wire);
    expect((await client.callTool({ name: "slow" })).content).toEqual([{ type: "text", text: "slow result" }]);
    expect(server.calls[0]).toMatchObject({ tool: "slow", outcome: "result" });
  });
});

describe("cutStream over Streamable HTTP", () => {
  it("a resource read answered on an SSE stream cut before its answer: the SDK client resumes and gets it", async () => {
    const server = await serve({ resources: { "notes://cut": { read: async () => (await Promise.resolve(), cutStream(0, "resumed", { retryMs: 10 })) } } });
    const seen: Array<{ method: string; status: number; contentType: string | null }> = [];
    const { client } = await sdkClient(server.url, { seen });
    const read = await client.readResource({ uri: "notes://cut" });
    expect(read.contents).toEqual([{ uri: "notes://cut", mimeType: "text/plain", text: "resumed" }]);
    // The read's answer came on a stream the client had to reopen (a GET with Last-Event-ID).
    expect(seen.some((response) => response.method === "GET" && response.contentType?.startsWith("text/event-stream"))).toBe(true);
  });
});

describe("over stdio", () => {
  it("a resource read that disconnects ends the child's connection: the read fails and the transport closes", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", STDIO_SERVER], stderr: "pipe" });
    const client = new Client({ name: "agent", version: "1.0.0" });
    let closed = false;
    client.onclose = () => (closed = true);
    await client.connect(transport as Transport);
    onCleanup(() => client.close());
    expect((await client.readResource({ uri: "notes://here" })).contents).toEqual([{ uri: "notes://here", mimeType: "text/plain", text: "still here" }]);
    await expect(client.readResource({ uri: "notes://gone" }, { timeout: 5000 })).rejects.toThrow();
    await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
  });
});

describe("fault values are checked where they are made", () => {
  it("a negative delay, rawBytes of a non-string and a bad JSON fault are refused, saying what is expected", async () => {
    expect(() => delay(-1, "x")).toThrow(/delay/);
    expect(() => rawBytes(5 as unknown as string)).toThrow(/rawBytes\(text\) takes the bytes to write as a string/);
    expect(() => cutStream(-1, "x")).toThrow(/closeAfterEvents must be a whole number/);
    await expect(mockMcp({ transport: "memory", resources: { "notes://x": { text: "x", fault: { hang: true, disconnect: true } } } })).rejects.toThrow(
      /Resource "notes:\/\/x": fault gives "hang" and "disconnect"; each ends the request, so give one/,
    );
    await expect(mockMcp({ transport: "memory", prompts: { p: { messages: [], fault: { dlay: 5 } as never } } })).rejects.toThrow(/"fault" has "dlay"/);
  });
});
