/**
 * The official SDK `Client` with `StreamableHTTPClientTransport` against a mock on its own
 * port: sessions, every step kind, JSON and SSE answers, progress and log messages during a
 * call, server requests answered by the client's own handlers, the GET stream, and the faults
 * enacted on the real wire (disconnect, hang, expiry, early stream close with resumption, raw bytes).
 */
import { describe, expect, it } from "vitest";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type LoggingMessageNotification,
  type Progress,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolCallContext } from "../../src/index.js";
import { post, rawSession, sdkClient, serve, text, trackClient, until, useCleanup } from "./support/http.js";

useCleanup();

type Seen = Array<{ method: string; status: number; contentType: string | null }>;

/** The content type the mock answered the n-th tools/call POST with. */
const postTypes = (seen: Seen) => seen.filter((entry) => entry.method === "POST" && entry.status === 200).map((entry) => entry.contentType);

describe("sessions", () => {
  it("initialize gets a session id; each call records it", async () => {
    const server = await serve({ tools: { hello: { returns: "hi" } } });
    const { client, transport } = await sdkClient(server.url);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(client.getServerVersion()).toEqual({ name: "mcp-testkit", version: "0.1.0" });
    expect(text(await client.callTool({ name: "hello" }))).toBe("hi");
    expect(server.calls).toMatchObject([{ tool: "hello", outcome: "result", sessionId: transport.sessionId }]);
  });

  it("two clients get distinct sessions but share the scripts and the record", async () => {
    const server = await serve({ tools: { next: [{ returns: "first" }, { returns: "second" }, { returns: "third" }] } });
    const a = await sdkClient(server.url);
    const b = await sdkClient(server.url);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);

    expect(text(await a.client.callTool({ name: "next" }))).toBe("first");
    expect(text(await b.client.callTool({ name: "next" }))).toBe("second");
    expect(text(await a.client.callTool({ name: "next" }))).toBe("third");
    expect(server.calls.map((call) => [call.index, call.sessionId])).toEqual([
      [0, a.transport.sessionId],
      [1, b.transport.sessionId],
      [2, a.transport.sessionId],
    ]);
  });
});

describe("every step kind over HTTP", () => {
  it("returns, content with structuredContent, toolError, throws, result, an empty step, delayMs", async () => {
    const server = await serve({
      tools: {
        returns: { returns: { n: 1 } },
        structured: {
          outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
          responses: { content: [{ type: "text", text: "21 degrees" }], structuredContent: { temp: 21 } },
        },
        toolError: { toolError: "the disk is full" },
        throws: { throws: { code: 4242, message: "custom failure", data: { why: "scripted" } } },
        result: { result: { content: [{ type: "text", text: "as written" }], extra: true } },
        empty: {},
        slow: { returns: "late", delayMs: 120 },
      },
    });
    const { client } = await sdkClient(server.url);

    expect(await client.callTool({ name: "returns" })).toEqual({ content: [{ type: "text", text: '{"n":1}' }] });
    await client.listTools(); // the SDK checks structuredContent against the cached outputSchema
    expect(await client.callTool({ name: "structured" })).toEqual({ content: [{ type: "text", text: "21 degrees" }], structuredContent: { temp: 21 } });
    expect(await client.callTool({ name: "toolError" })).toEqual({ content: [{ type: "text", text: "the disk is full" }], isError: true });
    const thrown = await client.callTool({ name: "throws" }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(McpError);
    expect(thrown).toMatchObject({ code: 4242, data: { why: "scripted" } });
    expect((thrown as Error).message).toContain("custom failure");
    expect(await client.callTool({ name: "result" })).toEqual({ content: [{ type: "text", text: "as written" }], extra: true });
    expect(await client.callTool({ name: "empty" })).toEqual({ content: [] });
    const started = Date.now();
    expect(text(await client.callTool({ name: "slow" }))).toBe("late");
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);

    expect(server.calls.map((call) => [call.tool, call.outcome])).toEqual([
      ["returns", "result"],
      ["structured", "result"],
      ["toolError", "tool-error"],
      ["throws", "protocol-error"],
      ["result", "result"],
      ["empty", "result"],
      ["slow", "result"],
    ]);
  });

  it("responseMode json answers with application/json, sse with text/event-stream; both reach the client", async () => {
    for (const [responseMode, type] of [
      ["json", "application/json"],
      ["sse", "text/event-stream"],
    ] as const) {
      const server = await serve({ responseMode, tools: { t: { returns: responseMode } } });
      const seen: Seen = [];
      const { client } = await sdkClient(server.url, { seen });
      expect(text(await client.callTool({ name: "t" }))).toBe(responseMode);
      // initialize and tools/call
      expect(postTypes(seen)).toEqual([type, type]);
      await client.close();
      await server.close();
    }
  });

  it("a step's stream.mode overrides the server's responseMode, both ways", async () => {
    const tools = { asSse: { returns: "s", stream: { mode: "sse" as const } }, asJson: { returns: "j", stream: { mode: "json" as const } } };
    const jsonServer = await serve({ responseMode: "json", tools });
    const sseServer = await serve({ responseMode: "sse", tools });
    for (const server of [jsonServer, sseServer]) {
      const seen: Seen = [];
      const { client } = await sdkClient(server.url, { seen });
      seen.length = 0;
      expect(text(await client.callTool({ name: "asSse" }))).toBe("s");
      expect(text(await client.callTool({ name: "asJson" }))).toBe("j");
      expect(postTypes(seen)).toEqual(["text/event-stream", "application/json"]);
    }
  });
});

describe("talking back during a call", () => {
  it("progress (onprogress) and log messages reach the client before the result, on the call's stream", async () => {
    const server = await serve({
      tools: {
        work: async (call) => {
          call.progress(1, 3, "reading");
          call.log("info", { step: "reading" }, "worker");
          call.progress(2, 3, "writing");
          call.log("debug", "filtered out by logging/setLevel");
          return { returns: "done" };
        },
      },
    });
    const seen: Seen = [];
    const { client } = await sdkClient(server.url, { seen });
    await client.setLoggingLevel("info");
    const order: string[] = [];
    const logs: LoggingMessageNotification["params"][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
      order.push(`log ${JSON.stringify(notification.params.data)}`);
    });
    const progress: Progress[] = [];
    seen.length = 0;
    const result = await client.callTool({ name: "work" }, undefined, {
      onprogress: (update) => {
        progress.push(update);
        order.push(`progress ${update.progress}`);
      },
    });
    order.push(`result ${text(result)}`);

    expect(progress).toEqual([
      { progress: 1, total: 3, message: "reading" },
      { progress: 2, total: 3, message: "writing" },
    ]);
    expect(logs).toEqual([{ level: "info", data: { step: "reading" }, logger: "worker" }]);
    expect(order).toEqual(["progress 1", 'log {"step":"reading"}', "progress 2", "result done"]);
    // The server had something to say before the reply, so the JSON answer became an SSE stream.
    expect(postTypes(seen)).toEqual(["text/event-stream"]);
    expect(server.calls[0]!.meta).toEqual({ progressToken: expect.anything() });
  });

  it("progress goes out only when the request carried a progressToken (without one the answer stays plain JSON)", async () => {
    const server = await serve({
      tools: {
        work: (call) => {
          call.progress(1, 2);
          return { returns: "done" };
        },
      },
    });
    const seen: Seen = [];
    const { client } = await sdkClient(server.url, { seen });
    seen.length = 0;
    expect(text(await client.callTool({ name: "work" }))).toBe("done");
    expect(postTypes(seen)).toEqual(["application/json"]);
    expect(server.calls[0]!.meta).toBeUndefined();
    const updates: Progress[] = [];
    expect(text(await client.callTool({ name: "work" }, undefined, { onprogress: (update) => updates.push(update) }))).toBe("done");
    expect(updates).toEqual([{ progress: 1, total: 2 }]);
    expect(postTypes(seen)).toEqual(["application/json", "text/event-stream"]);
  });

  it("sampling, elicitation (form and URL mode), roots/list and ping are answered by the client's handlers, recorded, and shape the result", async () => {
    const server = await serve({
      tools: {
        agentic: async (call: ToolCallContext) => {
          const sampled = await call.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 10 });
          const form = await call.elicit({
            message: "Confirm the deploy",
            requestedSchema: { type: "object", properties: { confirmed: { type: "boolean" } }, required: ["confirmed"] },
          });
          const url = await call.elicit({ mode: "url", message: "Sign in", url: "https://auth.example/login", elicitationId: "e-1" });
          const roots = await call.listRoots();
          await call.ping();
          return {
            returns: [
              `model said ${(sampled.content as { text: string }).text}`,
              `form ${form.action} ${JSON.stringify(form.content)}`,
              `url ${url.action}`,
              `roots ${roots.map((root) => String(root.uri)).join(",")}`,
            ].join("; "),
          };
        },
      },
    });
    const { client } = await sdkClient(server.url, {
      clientOptions: { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: `4 (asked ${(request.params.messages[0]!.content as { text: string }).text})` },
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request) => (request.params.mode === "url" ? { action: "accept" } : { action: "accept", content: { confirmed: true } }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///repo", name: "repo" }] }));

    const result = await client.callTool({ name: "agentic" });
    expect(text(result)).toBe('model said 4 (asked 2+2?); form accept {"confirmed":true}; url accept; roots file:///repo');

    const exchanges = server.calls[0]!.exchanges;
    expect(exchanges.map((exchange) => exchange.method)).toEqual(["sampling/createMessage", "elicitation/create", "elicitation/create", "roots/list", "ping"]);
    expect(exchanges[0]).toMatchObject({ result: { role: "assistant", model: "test-model", content: { type: "text", text: "4 (asked 2+2?)" } } });
    expect(exchanges[1]).toMatchObject({ params: { message: "Confirm the deploy" }, result: { action: "accept", content: { confirmed: true } } });
    expect(exchanges[2]).toMatchObject({ params: { mode: "url", url: "https://auth.example/login", elicitationId: "e-1" }, result: { action: "accept" } });
    expect(exchanges[3]).toMatchObject({ result: { roots: [{ uri: "file:///repo", name: "repo" }] } });
    expect(exchanges[4]).toMatchObject({ method: "ping", result: {} });
    for (const exchange of exchanges) expect(exchange.answeredAt).toBeGreaterThanOrEqual(exchange.sentAt);
  });

  it("a client that refuses a server request: the error is recorded and the step can handle it", async () => {
    const server = await serve({
      tools: {
        ask: async (call) => {
          try {
            await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
            return { returns: "answered" };
          } catch (error) {
            return { toolError: `no elicitation: ${(error as Error).message}` };
          }
        },
      },
    });
    // No elicitation capability and no handler: the SDK answers "Method not found".
    const { client } = await sdkClient(server.url);
    const result = await client.callTool({ name: "ask" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^no elicitation: The client answered elicitation\/create with error -32601: /);
    expect(server.calls[0]!.exchanges).toEqual([expect.objectContaining({ method: "elicitation/create", error: expect.objectContaining({ code: ErrorCode.MethodNotFound }) })]);
  });

  it("list_changed arrives on the GET stream (the client refreshes its tool list)", async () => {
    const server = await serve({ tools: { first: { returns: "1" } } });
    const seen: Seen = [];
    const refreshed: string[][] = [];
    const { client } = await sdkClient(server.url, {
      seen,
      clientOptions: {
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (error: Error | null, tools: Tool[] | null) => {
              if (!error && tools) refreshed.push(tools.map((tool) => tool.name));
            },
          },
        },
      },
    });
    await until(() => seen.some((entry) => entry.method === "GET" && entry.status === 200), 2000, "the GET stream");
    expect(seen.find((entry) => entry.method === "GET")).toEqual({ method: "GET", status: 200, contentType: "text/event-stream" });

    await server.setTool("second", { returns: "2" });
    await until(() => refreshed.length === 1, 2000, "the refreshed tool list");
    expect(refreshed).toEqual([["first", "second"]]);
    await server.removeTool("first");
    await until(() => refreshed.length === 2, 2000, "the second refresh");
    expect(refreshed[1]).toEqual(["second"]);
    expect(text(await client.callTool({ name: "second" }))).toBe("2");
  });
});

describe("faults on the wire", () => {
  it("disconnect drops the connection and the session: the call fails, the next request gets 404, a new initialize works", async () => {
    const server = await serve({ tools: { crash: { disconnect: true }, ok: { returns: "fine" } } });
    const { client, transport } = await sdkClient(server.url);
    const oldSession = transport.sessionId!;

    const failed = await client.callTool({ name: "crash" }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TypeError); // fetch failed: the socket was destroyed mid-response
    expect(server.calls[0]).toMatchObject({ tool: "crash", outcome: "disconnected", reason: "the mock dropped the connection (disconnect step)", sessionId: oldSession });

    const next = await client.callTool({ name: "ok" }).catch((error: unknown) => error);
    expect(next).toBeInstanceOf(StreamableHTTPError);
    expect((next as StreamableHTTPError).code).toBe(404);
    expect(server.expireSession(oldSession)).toBe(0);

    const fresh = await sdkClient(server.url);
    expect(fresh.transport.sessionId).not.toBe(oldSession);
    expect(text(await fresh.client.callTool({ name: "ok" }))).toBe("fine");
  });

  it("disconnect after a progress event cuts the SSE stream: the SDK client's resumption gets 404, the call ends disconnected", async () => {
    const server = await serve({
      tools: {
        crashLate: async (call) => {
          call.progress(1, 2, "started");
          return { disconnect: true };
        },
      },
    });
    const seen: Seen = [];
    const errors: Error[] = [];
    const { client, transport } = await sdkClient(server.url, { seen });
    transport.onerror = (error) => errors.push(error);
    const updates: Progress[] = [];
    const error = await client.callTool({ name: "crashLate" }, undefined, { timeout: 500, onprogress: (update) => updates.push(update) }).catch((thrown: unknown) => thrown);
    expect(updates).toEqual([{ progress: 1, total: 2, message: "started" }]);
    expect(server.calls[0]).toMatchObject({ outcome: "disconnected", reason: "the mock dropped the connection (disconnect step)" });
    // The SDK client tries to resume the cut stream (Last-Event-ID), gets 404 for the ended session,
    // and leaves the request pending until its own timeout.
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect(seen.filter((entry) => entry.method === "GET").map((entry) => entry.status)).toContain(404);
    expect(errors.some((entry) => entry instanceof StreamableHTTPError && entry.code === 404)).toBe(true);
  });

  it("hang keeps the call open until the client cancels it (AbortSignal → notifications/cancelled → cancelled)", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const { client } = await sdkClient(server.url);
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait" }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    await server.waitForCalls(1, { timeoutMs: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.calls[0]!.outcome).toBe("pending");
    controller.abort("the user pressed stop");

    const rejected = await pending;
    expect(rejected).toBeInstanceOf(McpError); // the SDK rejects with the abort reason
    expect((rejected as McpError).message).toBe("MCP error -32001: the user pressed stop");
    await until(() => server.calls[0]!.outcome !== "pending", 2000, "the call to end");
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled", reason: "cancelled by the client: the user pressed stop" });
    expect(server.messages).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: server.calls[0]!.requestId, reason: "the user pressed stop" },
    });
    // The session is fine afterwards.
    await client.ping();
  });

  it("a cancelled request's own POST gets an event stream that ends with no answer, never 202 (only notifications and responses get 202)", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const closes: string[] = [];
    server.on("stream:close", ({ kind, reason }) => closes.push(`${kind} ${reason}`));
    const { sessionId } = await rawSession(server.url);
    const request = post(server.url, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait", arguments: {} } }, { sessionId });
    await server.waitForCalls(1, { timeoutMs: 2000 });
    expect((await post(server.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }, { sessionId })).status).toBe(202);
    const response = await request;
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    expect(await response.text()).not.toContain('"jsonrpc"');
    expect(server.calls[0]!.outcome).toBe("cancelled");
    // Observers hear why it closed: the request was cancelled, not completed.
    expect(closes).toEqual(["request request_cancelled"]);
  });

  it("a step function cancelled mid-call: its stream ends at the cancel, not when the function returns (its late result is dropped)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await serve({
      tools: {
        slow: async (call) => {
          call.progress(1, 2);
          await gate;
          return { returns: "too late" };
        },
      },
    });
    const closes: string[] = [];
    server.on("stream:close", ({ kind, reason }) => closes.push(`${kind} ${reason}`));
    try {
      const { sessionId } = await rawSession(server.url);
      const request = post(server.url, { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "slow", arguments: {}, _meta: { progressToken: "p" } } }, { sessionId });
      await server.waitForCalls(1, { timeoutMs: 2000 });
      await post(server.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8 } }, { sessionId });
      // The function is still waiting on the gate: the answer ends anyway.
      const body = await (await request).text();
      expect(body).toContain('"method":"notifications/progress"');
      expect(body).not.toContain("too late");
      expect(server.calls[0]!.outcome).toBe("cancelled");
      expect(closes).toEqual(["request request_cancelled"]);
    } finally {
      release();
    }
  });

  it("hang ended by the client's timeout: McpError RequestTimeout, the call cancelled", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const { client } = await sdkClient(server.url);
    const error = await client.callTool({ name: "wait" }, undefined, { timeout: 100 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    await until(() => server.calls[0]!.outcome !== "pending", 2000, "the call to end");
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled", reason: expect.stringMatching(/^cancelled by the client/) });
  });

  it("hang ended by server.close(): the call ends cancelled; a JSON answer's connection drops, so the client's request fails at once", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const { client } = await sdkClient(server.url);
    const pending = client.callTool({ name: "wait" }, undefined, { timeout: 5000 }).catch((error: unknown) => error);
    await server.waitForCalls(1, { timeoutMs: 2000 });
    const calls = server.calls;
    await server.close();
    expect(calls[0]).toMatchObject({ outcome: "cancelled", reason: "the mock server closed" });
    expect(await pending).toBeInstanceOf(TypeError); // fetch failed, not the 5 s timeout
  });

  it("hang on an SSE answer ended by server.close(): the stream ends without a reply (the SDK client then waits for its timeout)", async () => {
    const server = await serve({ tools: { wait: { hang: true, stream: { mode: "sse" } } } });
    const { client } = await sdkClient(server.url);
    const pending = client.callTool({ name: "wait" }, undefined, { timeout: 300 }).catch((error: unknown) => error);
    await server.waitForCalls(1, { timeoutMs: 2000 });
    const calls = server.calls;
    await server.close();
    expect(calls[0]).toMatchObject({ outcome: "cancelled", reason: "the mock server closed" });
    const error = await pending;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
  });

  it("expireSession(): the client's next request gets 404 (StreamableHTTPError), other sessions live on", async () => {
    const server = await serve({ tools: { t: { returns: "ok" } } });
    const a = await sdkClient(server.url);
    const b = await sdkClient(server.url);
    expect(server.expireSession(a.transport.sessionId)).toBe(1);
    expect(server.expireSession("no-such-session")).toBe(0);

    const error = await a.client.callTool({ name: "t" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(404);
    expect((error as Error).message).toContain("Session not found");
    expect(text(await b.client.callTool({ name: "t" }))).toBe("ok");

    // The SDK client does not re-initialize by itself; a new client (a new session) must.
    const again = await sdkClient(server.url);
    expect(text(await again.client.callTool({ name: "t" }))).toBe("ok");
    expect(server.calls.map((call) => call.sessionId)).toEqual([b.transport.sessionId, again.transport.sessionId]);
  });

  it("stream { closeAfterEvents: 1, retryMs: 20 } after a progress event: the client resumes with Last-Event-ID and still gets the result", async () => {
    const server = await serve({
      tools: {
        polled: async (call) => {
          call.progress(1, 2, "half way");
          return { returns: "resumed result", delayMs: 30, stream: { closeAfterEvents: 1, retryMs: 20 } };
        },
      },
    });
    const resumptions: Array<string | null> = [];
    const { client } = await sdkClient(server.url, {
      transportOptions: {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          if (init?.method === "GET") resumptions.push(headers.get("last-event-id"));
          return fetch(input, init);
        },
      },
    });
    const progress: Progress[] = [];
    const result = await client.callTool({ name: "polled" }, undefined, { onprogress: (update) => progress.push(update), timeout: 3000 });
    expect(text(result)).toBe("resumed result");
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half way" }]);
    // The standalone GET (no id), then the resumption of the call's stream after its first event.
    expect(resumptions).toContain("p0_1");
    expect(server.calls[0]).toMatchObject({ outcome: "result" });
  });

  it("a raw step writes bytes that are not JSON-RPC: the SDK client fails the call", async () => {
    const server = await serve({ tools: { garbage: { raw: "this is not json {" } } });
    const { client } = await sdkClient(server.url);
    const error = await client.callTool({ name: "garbage" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SyntaxError);
    expect(server.calls[0]).toMatchObject({ outcome: "raw", reason: "raw bytes written instead of a JSON-RPC response (raw step)" });
    // The session survives a bad answer.
    await client.ping();
  });
});

describe("constructing the client by hand", () => {
  it("a Client with a plain StreamableHTTPClientTransport (as users write it) terminates its session with DELETE", async () => {
    const server = await serve({ tools: { t: { returns: "x" } } });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = trackClient(new Client({ name: "plain", version: "1.0.0" }));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(text(await client.callTool({ name: "t" }))).toBe("x");
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect(server.expireSession(sessionId)).toBe(0);
    await client.close();
  });
});
