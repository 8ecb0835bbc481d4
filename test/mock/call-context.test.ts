/**
 * What a step function `(call) => step` can do while the call runs: report progress, send log
 * messages (honouring `logging/setLevel`), and ask the client for sampling, elicitation and roots.
 * The SDK client answers with its own request handlers; every request and its answer is
 * recorded on the call as `exchanges`.
 */
import { describe, expect, it } from "vitest";
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError, type Progress } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolCallContext } from "../../src/index.js";
import { connect, delay, mock, useCleanup } from "./support.js";
import { get, post, rawSession, readSse, rpcRequest, serve, sseReader, useCleanup as useHttpCleanup } from "../wire/support/http.js";

useCleanup();
useHttpCleanup();

const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;

/** An SDK client whose elicitation handler answers only once the server cancels the request, keeping the reason it was given. */
async function answersOnlyWhenCancelled(server: Awaited<ReturnType<typeof mock>>) {
  const cancelled = { client: await connect(server, { clientOptions: { capabilities: { elicitation: {} } } }), reason: "" };
  cancelled.client.setRequestHandler(
    ElicitRequestSchema,
    (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => ((cancelled.reason = String(extra.signal.reason)), resolve({ action: "cancel" })), { once: true })),
  );
  return cancelled;
}

/** An SDK client that can answer sampling, elicitation and roots requests. */
async function capableClient(server: Awaited<ReturnType<typeof mock>>, protocolVersion?: string): Promise<Client> {
  const client = await connect(server, {
    protocolVersion,
    clientOptions: { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    role: "assistant",
    model: "test-model",
    content: { type: "text", text: `echo: ${(request.params.messages[0]!.content as { text: string }).text}` },
  }));
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: "accept",
    content: { confirmed: true, asked: request.params.message },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///repo", name: "repo" }] }));
  return client;
}

describe("call fields", () => {
  it("a step function sees the call: tool, arguments, index, session, meta, request id and protocol version", async () => {
    let seen: Record<string, unknown> | undefined;
    const server = await mock({
      tools: {
        t: (call) => {
          seen = {
            tool: call.tool,
            arguments: call.arguments,
            index: call.index,
            sessionId: call.sessionId,
            meta: call.meta,
            requestId: call.requestId,
            protocolVersion: call.protocolVersion,
            outcome: call.record.outcome,
            aborted: call.signal.aborted,
          };
          return { returns: "ok" };
        },
      },
    });
    const client = await connect(server, { protocolVersion: "2025-06-18" });
    await client.callTool({ name: "t", arguments: { a: 1 }, _meta: { traceId: "x" } });
    expect(seen).toEqual({
      tool: "t",
      arguments: { a: 1 },
      index: 0,
      sessionId: server.calls[0].sessionId,
      meta: { traceId: "x" },
      requestId: 1,
      protocolVersion: "2025-06-18",
      outcome: "pending",
      aborted: false,
    });
    expect(server.calls[0].outcome).toBe("result");
  });
});

describe("progress", () => {
  it("sends notifications/progress with the client's progress token (SDK onprogress)", async () => {
    const server = await mock({
      tools: {
        index_repo: async (call) => {
          call.progress(1, 3, "cloning");
          call.progress(2, 3);
          call.progress(3);
          return { returns: "indexed" };
        },
      },
    });
    const client = await connect(server);
    const updates: Progress[] = [];
    const result = await client.callTool({ name: "index_repo" }, undefined, { onprogress: (progress) => void updates.push(progress) });
    expect(text(result)).toBe("indexed");
    expect(updates).toEqual([{ progress: 1, total: 3, message: "cloning" }, { progress: 2, total: 3 }, { progress: 3 }]);
  });

  it("does nothing when the request carried no progress token", async () => {
    const server = await mock({ tools: { t: (call) => (call.progress(1, 2), { returns: "ok" }) } });
    const client = await connect(server);
    const errors: Error[] = [];
    client.onerror = (error) => void errors.push(error);
    expect(text(await client.callTool({ name: "t" }))).toBe("ok");
    await client.ping();
    expect(errors).toEqual([]);
    expect(server.calls[0].meta).toBeUndefined();
  });

  it("stops once the call is answered, so the client never gets progress for a finished request", async () => {
    let late: (() => void) | undefined;
    const server = await mock({
      tools: {
        t: (call) => {
          call.progress(1, 2);
          late = () => call.progress(2, 2);
          return { returns: "ok" };
        },
      },
    });
    const client = await connect(server);
    const errors: string[] = [];
    client.onerror = (error) => void errors.push(error.message);
    const updates: Progress[] = [];
    await client.callTool({ name: "t" }, undefined, { onprogress: (progress) => void updates.push(progress) });
    late!();
    await client.ping();
    expect(updates).toEqual([{ progress: 1, total: 2 }]);
    expect(errors).toEqual([]);
  });

  it("leaves out the message in 2024-11-05, which has none", async () => {
    const server = await mock({ tools: { t: (call) => (call.progress(1, 2, "half"), { returns: "ok" }) } });
    const client = await connect(server, { protocolVersion: "2024-11-05" });
    const updates: Progress[] = [];
    await client.callTool({ name: "t" }, undefined, { onprogress: (progress) => void updates.push(progress) });
    expect(updates).toEqual([{ progress: 1, total: 2 }]);
  });

  it("progress can keep a long call alive with the SDK's resetTimeoutOnProgress", async () => {
    const server = await mock({
      tools: {
        slow: async (call) => {
          for (let i = 1; i <= 4; i++) {
            await delay(150);
            call.progress(i, 4);
          }
          return { returns: "done" };
        },
      },
    });
    const client = await connect(server);
    // The call takes four times 150 ms, longer than its 400 ms timeout; each progress restarts it
    // (the margin between 150 and 400 is for a busy machine's late timers).
    const result = await client.callTool({ name: "slow" }, undefined, { timeout: 400, resetTimeoutOnProgress: true, onprogress: () => undefined });
    expect(text(result)).toBe("done");
  });
});

describe("log", () => {
  it("sends notifications/message, filtered by the client's logging/setLevel", async () => {
    const server = await mock({
      tools: {
        t: (call) => {
          call.log("debug", "debug detail");
          call.log("info", { step: "started" }, "indexer");
          call.log("warning", "disk almost full");
          call.log("emergency", "on fire", "ops");
          return { returns: "ok" };
        },
      },
    });
    const client = await connect(server);
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));

    await client.callTool({ name: "t" });
    await client.ping();
    expect(messages).toEqual([
      { level: "debug", data: "debug detail" },
      { level: "info", data: { step: "started" }, logger: "indexer" },
      { level: "warning", data: "disk almost full" },
      { level: "emergency", data: "on fire", logger: "ops" },
    ]);

    messages.length = 0;
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "t" });
    await client.ping();
    expect(messages).toEqual([
      { level: "warning", data: "disk almost full" },
      { level: "emergency", data: "on fire", logger: "ops" },
    ]);
  });

  it("each connection has its own level", async () => {
    const server = await mock({ tools: { t: (call) => (call.log("info", "hello"), { returns: "ok" }) } });
    const quiet = await connect(server);
    const chatty = await connect(server);
    const heard = { quiet: 0, chatty: 0 };
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, () => void heard.quiet++);
    chatty.setNotificationHandler(LoggingMessageNotificationSchema, () => void heard.chatty++);
    await quiet.setLoggingLevel("error");
    await quiet.callTool({ name: "t" });
    await chatty.callTool({ name: "t" });
    await quiet.ping();
    await chatty.ping();
    expect(heard).toEqual({ quiet: 0, chatty: 1 });
  });

  it("notify sends any notification, related to the call", async () => {
    const server = await mock({ tools: { t: (call) => (call.notify("notifications/custom", { n: 1 }), { returns: "ok" }) } });
    const seen: unknown[] = [];
    const client = await connect(server);
    client.fallbackNotificationHandler = async (notification) => void seen.push(notification);
    await client.callTool({ name: "t" });
    await client.ping();
    expect(seen).toEqual([{ jsonrpc: "2.0", method: "notifications/custom", params: { n: 1 } }]);
  });

  it("over HTTP, notify travels on the call's own SSE stream, before its answer, not on the GET stream", async () => {
    const server = await serve({ tools: { t: (call) => (call.notify("notifications/custom", { n: 1 }), { returns: "ok" }) } });
    const { sessionId } = await rawSession(server.url);
    // The GET stream is open, so a notification that lost its call would have somewhere to go.
    const standalone = sseReader(await get(server.url, { sessionId }));
    try {
      const request = rpcRequest("tools/call", { name: "t", arguments: {} });
      const response = await post(server.url, request, { sessionId });
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const onCallStream = (await readSse(response)).filter((event) => event.data !== "").map((event) => JSON.parse(event.data) as Record<string, unknown>);
      expect(onCallStream).toEqual([
        { jsonrpc: "2.0", method: "notifications/custom", params: { n: 1 } },
        { jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "ok" }] } },
      ]);
      // The first thing on the GET stream is what was sent there after the call, not the call's notification.
      server.notify("notifications/message", { level: "info", data: "after the call" });
      let first = await standalone.next();
      // A priming event (an id, no data) may come first, for resumption.
      for (let skipped = 0; skipped < 3 && first?.data === ""; skipped++) first = await standalone.next();
      expect(JSON.parse(first!.data)).toEqual({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "after the call" } });
    } finally {
      await standalone.cancel();
    }
  });
});

describe("server requests answered by the SDK client", () => {
  it("call.sample, call.elicit and call.listRoots get the client's answers, recorded as exchanges", async () => {
    const server = await mock({
      tools: {
        agentic: async (call: ToolCallContext) => {
          const sampled = await call.sample({ messages: [{ role: "user", content: { type: "text", text: "summarize" } }], maxTokens: 50 });
          const elicited = await call.elicit({ message: "Proceed?", requestedSchema: { type: "object", properties: { confirmed: { type: "boolean" } } } });
          const roots = await call.listRoots();
          return { returns: { sampled: (sampled.content as { text: string }).text, action: elicited.action, roots: roots.map((root) => root.uri) } };
        },
      },
    });
    const client = await capableClient(server);
    const result = await client.callTool({ name: "agentic" });
    expect(JSON.parse(text(result))).toEqual({ sampled: "echo: summarize", action: "accept", roots: ["file:///repo"] });

    const [call] = server.calls;
    expect(call.outcome).toBe("result");
    expect(call.exchanges.map(({ method, params, result: answer, error }) => ({ method, params, result: answer, error }))).toEqual([
      {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "summarize" } }], maxTokens: 50 },
        result: { role: "assistant", model: "test-model", content: { type: "text", text: "echo: summarize" } },
        error: undefined,
      },
      {
        method: "elicitation/create",
        params: { message: "Proceed?", requestedSchema: { type: "object", properties: { confirmed: { type: "boolean" } } } },
        result: { action: "accept", content: { confirmed: true, asked: "Proceed?" } },
        error: undefined,
      },
      { method: "roots/list", params: undefined, result: { roots: [{ uri: "file:///repo", name: "repo" }] }, error: undefined },
    ]);
    for (const exchange of call.exchanges) {
      expect(exchange.answeredAt).toBeGreaterThanOrEqual(exchange.sentAt);
      expect(exchange.sentAt).toBeGreaterThanOrEqual(call.startedAt);
    }
    // The client's answers are in the message record too.
    expect(server.messages.filter((message) => !("method" in message)).map((message) => (message as { id: unknown }).id)).toEqual(["mcp-testkit-0", "mcp-testkit-1", "mcp-testkit-2"]);
  });

  it("a client error answer is recorded as the exchange's error, and the step function can handle it", async () => {
    const server = await mock({
      tools: {
        careful: async (call) => {
          try {
            await call.sample({ messages: [{ role: "user", content: { type: "text", text: "x" } }], maxTokens: 5 });
            return { returns: "sampled" };
          } catch (error) {
            return { toolError: (error as Error).message };
          }
        },
        careless: async (call) => {
          await call.sample({ messages: [{ role: "user", content: { type: "text", text: "x" } }], maxTokens: 5 });
          return { returns: "never" };
        },
      },
    });
    const client = await connect(server, { clientOptions: { capabilities: { sampling: {} } } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      throw new McpError(ErrorCode.InvalidRequest, "user declined sampling");
    });

    const handled = await client.callTool({ name: "careful" });
    expect(handled).toEqual({
      content: [{ type: "text", text: "The client answered sampling/createMessage with error -32600: MCP error -32600: user declined sampling" }],
      isError: true,
    });
    expect(server.callsTo("careful")[0].exchanges[0]).toMatchObject({
      method: "sampling/createMessage",
      error: { code: -32600, message: "MCP error -32600: user declined sampling" },
    });
    expect(server.callsTo("careful")[0].exchanges[0].result).toBeUndefined();

    const unhandled = await client.callTool({ name: "careless" }).catch((error: Error) => error);
    expect((unhandled as Error).message).toBe(
      'MCP error -32603: Step function for tool "careless" threw: The client answered sampling/createMessage with error -32600: MCP error -32600: user declined sampling',
    );
    expect(server.callsTo("careless")[0].outcome).toBe("protocol-error");
  });

  it("a client without a handler answers -32601, recorded as the error", async () => {
    const server = await mock({
      tools: {
        roots: async (call) => {
          const roots = await call.listRoots().catch((error: Error) => error.message);
          return { returns: roots };
        },
      },
    });
    const client = await connect(server);
    // It never declared roots: the message says that is the likely reason.
    expect(text(await client.callTool({ name: "roots" }))).toBe(
      'The client answered roots/list with error -32601: Method not found. The client did not declare the "roots" capability at initialize, and a server may only use what was negotiated (MCP lifecycle): declare it in the client, or do not ask for roots/list',
    );
    expect(server.calls[0].exchanges[0]).toMatchObject({ method: "roots/list", error: { code: -32601, message: "Method not found" } });
  });

  it("a server request through handle() fails at once: that session has no way back to the client", async () => {
    const server = await mock({
      tools: {
        t: async (call) => ({
          returns: await call.listRoots().then(
            () => "answered",
            (error: Error) => error.message,
          ),
        }),
      },
    });
    const reply = JSON.parse((await server.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}'))!);
    expect(reply.result.content[0].text).toBe("The client did not answer roots/list: the client is not connected (or cannot receive server requests on this wire)");
    expect(server.calls[0].exchanges[0]).toMatchObject({ method: "roots/list", error: { code: -32000 } });
  });

  it("cancelling the tool call stops waiting for the client's answer", async () => {
    let failure = "";
    const server = await mock({
      tools: {
        t: async (call) => {
          try {
            await call.elicit({ message: "Wait for me", requestedSchema: { type: "object", properties: {} } });
          } catch (error) {
            failure = (error as Error).message;
          }
          return { returns: "late" };
        },
      },
    });
    const client = await connect(server, { clientOptions: { capabilities: { elicitation: {} } } });
    let answer: (() => void) | undefined;
    client.setRequestHandler(ElicitRequestSchema, () => new Promise((resolve) => (answer = () => resolve({ action: "decline" }))));
    const controller = new AbortController();
    const pending = client.callTool({ name: "t" }, undefined, { signal: controller.signal }).catch((error: Error) => error.message);
    await expect.poll(() => answer).toBeTypeOf("function");
    controller.abort("stop");
    expect(await pending).toBe("MCP error -32001: stop");
    await expect.poll(() => failure).toBe("The client did not answer elicitation/create: the tool call ended before the client answered");
    expect(server.calls[0].outcome).toBe("cancelled");
    expect(server.calls[0].exchanges[0]).toMatchObject({ method: "elicitation/create", error: { code: -32000, message: "the tool call ended before the client answered" } });
    // The client's late answer is taken quietly.
    answer!();
    await client.ping();
  });

  it("a call that answers without waiting for its request gives the request up: the client is told, nothing stays open", async () => {
    let failure = "";
    const server = await mock({
      tools: {
        t: (call) => {
          // Asked, not awaited: the step answers at once.
          void call.elicit({ message: "Never mind", requestedSchema: { type: "object", properties: {} } }).catch((error: Error) => (failure = error.message));
          return { returns: "done" };
        },
      },
    });
    const cancelled = await answersOnlyWhenCancelled(server);
    expect(text(await cancelled.client.callTool({ name: "t" }))).toBe("done");
    await expect.poll(() => failure).toBe("The client did not answer elicitation/create: the tool call ended before the client answered");
    await expect.poll(() => cancelled.reason).toContain("the tool call ended");
    expect(server.calls[0].outcome).toBe("result");
    expect(server.calls[0].exchanges[0]).toMatchObject({ method: "elicitation/create", error: { code: -32000 } });
  });

  it("a step gives a request up with its own signal: the client is told, the promise rejects, the call goes on", async () => {
    const server = await mock({
      tools: {
        t: async (call) => {
          const giveUp = new AbortController();
          const asked = call.elicit({ message: "Still there?", requestedSchema: { type: "object", properties: {} } }, { signal: giveUp.signal });
          setTimeout(() => giveUp.abort(), 30);
          return {
            returns: await asked.then(
              () => "answered",
              (error: Error) => error.message,
            ),
          };
        },
      },
    });
    const cancelled = await answersOnlyWhenCancelled(server);
    expect(text(await cancelled.client.callTool({ name: "t" }))).toBe("The client did not answer elicitation/create: the step gave the request up (its signal aborted) before the client answered");
    await expect.poll(() => cancelled.reason).toContain("the server gave the request up");
    expect(server.calls[0].outcome).toBe("result");
    expect(server.calls[0].exchanges[0]).toMatchObject({ method: "elicitation/create", error: { code: -32000, message: expect.stringContaining("the step gave the request up") } });
  });

  it("a request whose signal already aborted is not sent", async () => {
    let asked = 0;
    const server = await mock({
      tools: {
        t: async (call) => ({
          returns: await call.listRoots({ signal: AbortSignal.abort() }).then(
            () => "answered",
            (error: Error) => error.message,
          ),
        }),
      },
    });
    const client = await capableClient(server);
    client.setRequestHandler(ListRootsRequestSchema, () => (asked++, { roots: [] }));
    expect(text(await client.callTool({ name: "t" }))).toContain("the step gave the request up");
    expect(asked).toBe(0);
  });

  it("a request given up unanswered stays unanswered, even to a client that did not declare the capability (no refusal hint)", async () => {
    const server = await mock({
      tools: {
        t: async (call) => ({
          returns: await call.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } }, { signal: AbortSignal.abort() }).then(
            () => "answered",
            (error: Error) => error.message,
          ),
        }),
      },
    });
    const client = await connect(server);
    expect(text(await client.callTool({ name: "t" }))).toBe("The client did not answer elicitation/create: the step gave the request up (its signal aborted) before the client answered");
  });

  it("a step function that asks after its call ended is refused at once, and the client is asked nothing", async () => {
    let failure = "";
    let asked = 0;
    const server = await mock({
      tools: {
        t: async (call) => {
          await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
          failure = await call.elicit({ message: "Too late", requestedSchema: { type: "object", properties: {} } }).then(
            () => "answered",
            (error: Error) => error.message,
          );
          return { returns: "late" };
        },
      },
    });
    const client = await connect(server, { clientOptions: { capabilities: { elicitation: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => (asked++, { action: "decline" }));
    const controller = new AbortController();
    const pending = client.callTool({ name: "t" }, undefined, { signal: controller.signal }).catch((error: Error) => error.message);
    await expect.poll(() => server.calls[0]?.outcome).toBe("pending");
    controller.abort("stop");
    expect(await pending).toBe("MCP error -32001: stop");
    await expect.poll(() => failure).toBe("The client did not answer elicitation/create: the tool call ended before the client answered");
    await client.ping();
    expect(asked).toBe(0);
    expect(server.calls[0].exchanges).toEqual([expect.objectContaining({ method: "elicitation/create", error: { code: -32000, message: "the tool call ended before the client answered" } })]);
  });

  it("call.request sends any request, e.g. ping", async () => {
    const server = await mock({ tools: { t: async (call) => ({ returns: await call.request("ping") }) } });
    const client = await connect(server);
    expect(text(await client.callTool({ name: "t" }))).toBe("{}");
    expect(server.calls[0].exchanges).toMatchObject([{ method: "ping", result: {} }]);
  });
});
