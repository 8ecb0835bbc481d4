/**
 * What a simulation captures and how it ends: JSON and empty bodies, SSE items with exact bytes
 * however they were chunked, keep-alive comments from a real SDK server, the item and byte
 * limits (a read frees a slot, never bytes), `close()` as a disconnect, a failing target — and
 * no socket opened at any point.
 */
import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAXIMUM_CAPTURED_BYTES, DEFAULT_STREAM_ITEM_QUEUE_CAPACITY, McpTestkitError, simulate } from "../../src/index.js";
import { ORIGIN, drain, memoryMock, mcpPost, modernMeta, modernPost, openSession, sdkServer, sdkV2Server, simulator, text, useCleanup } from "./support.js";
import { recordingObserver, until } from "../observe/support.js";

useCleanup();
afterEach(() => vi.restoreAllMocks());

const call = (sessionId: string, name: string, id: string | number = 1, meta?: Record<string, unknown>) =>
  mcpPost(
    { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { query: "shoe" }, ...(meta && { _meta: meta }) } },
    { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
  );

/** A fetch handler answering with these SSE chunks, as written (no MCP server behind it). */
function sseHandler(chunks: string[]) {
  return () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    );
}

describe("responses", () => {
  it("captures a JSON answer with its body and parsed JSON, and a 202 as an empty body", async () => {
    const server = await memoryMock({ tools: { ok: { returns: "fine" } } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "ok"));
    const response = await simulation.awaitResponse(2000);
    expect(response).toMatchObject({ status: 200, bodyType: "json", oversized: false, json: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "fine" }] } } });
    expect(JSON.parse(text(response!.body!))).toEqual(response!.json);
    expect(response!.headers).toContainEqual(["content-type", "application/json"]);
    expect((await simulation.awaitCompletion(2000))?.terminalMessage).toEqual(response!.json);

    const note = await sim.startRequest(mcpPost({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" }));
    const accepted = await note.awaitResponse(2000);
    expect(accepted).toMatchObject({ status: 202, bodyType: "empty" });
    expect(accepted!.body).toEqual(new Uint8Array(0));
  });

  it("reads a header by name in any case; Object.prototype's names are no headers unless the response sent one", async () => {
    const server = await memoryMock({ tools: { ok: { returns: "fine" } } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const response = (await (await sim.startRequest(call(sessionId, "ok"))).awaitResponse(2000))!;
    expect(response.header("Content-Type")).toBe("application/json");
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf"]) {
      expect(response.header(name), name).toBeUndefined();
    }
    // A response may send a header of such a name: then it is read like any other.
    const own = simulator(() => new Response("{}", { status: 200, headers: { "content-type": "application/json", constructor: "sent", "x-other": "1" } }));
    const answered = (await (await own.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }))).awaitResponse(2000))!;
    expect(answered.header("constructor")).toBe("sent");
    expect(answered.header("CONSTRUCTOR")).toBe("sent");
    expect(answered.header("toString")).toBeUndefined();
  });

  it("captures a handler mounted on the mock (server.mount), its body streamed in as it comes", async () => {
    const server = await memoryMock();
    const one = 'data: {"jsonrpc":"2.0","method":"one"}\n\n';
    const two = 'data: {"jsonrpc":"2.0","method":"two"}\n\n';
    // The second event split mid-way: the items are the events, however the body was chunked.
    server.mount("/events", sseHandler([one, two.slice(0, 12), two.slice(12)]));
    server.mount("/boom", () => {
      throw new Error("handler bug");
    });
    const sim = simulator(server);
    const streamed = await sim.startRequest(new Request(`${ORIGIN}/events`));
    expect(await streamed.awaitResponse(2000)).toMatchObject({ status: 200, bodyType: "sse" });
    expect((await drain(streamed)).map((item) => text(item.encoded))).toEqual([one, two]);
    const failed = await (await sim.startRequest(new Request(`${ORIGIN}/boom`))).awaitResponse(2000);
    expect(failed).toMatchObject({ status: 500, json: { error: "the handler mounted at /boom failed: handler bug" } });
  });

  it("tells the mock's log when a mounted handler's body fails after its head went into the simulation", async () => {
    const lines: string[] = [];
    const server = await memoryMock({ logger: (_level, line) => void lines.push(line) });
    let pulls = 0;
    server.mount(
      "/feed",
      () => new Response(new ReadableStream({ pull: (controller) => (pulls++ === 0 ? controller.enqueue(new TextEncoder().encode("first,")) : Promise.reject(new Error("upstream reset"))) })),
    );
    const simulation = await simulator(server).startRequest(new Request(`${ORIGIN}/feed`));
    expect(await simulation.awaitResponse(2000)).toMatchObject({ status: 200 });
    await until(() => lines.length > 0, "the log line");
    expect(lines).toEqual(["mcp-testkit: the response body of the handler mounted at /feed failed after its head was sent (upstream reset); the connection was cut."]);
  });

  it("keeps a mounted handler's repeated set-cookie headers apart (joined, their Expires dates would break them)", async () => {
    const server = await memoryMock();
    server.mount("/login", () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response("ok", { headers });
    });
    const response = (await (await simulator(server).startRequest(new Request(`${ORIGIN}/login`))).awaitResponse(2000))!;
    expect(response.headers.filter(([name]) => name === "set-cookie")).toEqual([
      ["set-cookie", "a=1; Expires=Wed, 09 Jun 2027 10:18:14 GMT"],
      ["set-cookie", "b=2; Path=/"],
    ]);
  });

  it("passes a transport refusal through as the client would see it, repairing nothing", async () => {
    const sim = simulator(await memoryMock());
    const refused = await sim.startRequest(new Request("http://127.0.0.1:8082/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: "{}" }));
    const response = await refused.awaitResponse(2000);
    expect(response?.status).toBe(406);
    expect(response?.json).toMatchObject({ error: { code: -32000 } });
  });

  it("reports an oversized JSON body without a body, ending with capture_byte_limit", async () => {
    const server = await memoryMock({ tools: { big: { returns: "x".repeat(5000) } } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "big"), { maximumCapturedBytes: 1000 });
    const response = await simulation.awaitResponse(2000);
    expect(response).toMatchObject({ status: 200, bodyType: "json", oversized: true });
    expect(response!.body).toBeUndefined();
    expect(response!.json).toBeUndefined();
    expect((await simulation.awaitCompletion(2000))?.reason).toBe("capture_byte_limit");
  });
});

describe("SSE items", () => {
  it("keeps each event's exact bytes however the server chunked them, and tells keep-alive comments apart", async () => {
    const frame = 'id: 7\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
    const sim = simulator(sseHandler([": keep-alive\n\n", frame.slice(0, 10), frame.slice(10, 31), frame.slice(31), "data: \n\n"]));
    const simulation = await sim.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }));
    expect((await simulation.awaitResponse(1000))?.bodyType).toBe("sse");
    const items = await drain(simulation);
    expect(items.map((item) => item.kind)).toEqual(["keep-alive", "message", "priming"]);
    expect(items[0]).toMatchObject({ kind: "keep-alive", comment: "keep-alive" });
    expect(text(items[0]!.encoded)).toBe(": keep-alive\n\n");
    expect(text(items[1]!.encoded)).toBe(frame);
    expect(items[1]).toMatchObject({ eventId: "7", message: { id: 1, result: {} } });
    expect((await simulation.awaitCompletion(1000))?.terminalMessage).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("sees the keep-alive comments a real SDK server writes while a tool works", async () => {
    const sim = simulator(await sdkServer({ keepAliveMs: 15, delayMs: 120 }));
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "catalog.search", 1, { progressToken: 1 }));
    const items = await drain(simulation);
    expect(items.some((item) => item.kind === "keep-alive")).toBe(true);
    expect((await simulation.awaitCompletion(2000))?.reason).toBe("completed");
  });

  it("ends with capture_item_limit when unread items fill the queue, and a read frees a slot", async () => {
    const event = (n: number) => `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${n}}}\n\n`;
    const sim = simulator(sseHandler([event(1), event(2), event(3)]));
    const full = await sim.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }), { streamItemQueueCapacity: 2 });
    const completion = await full.awaitCompletion(1000);
    expect(completion?.reason).toBe("capture_item_limit");
    expect(full.pendingItems).toBe(2);
    const bytes = full.bytesCaptured;
    await full.awaitStreamItem(0);
    expect(full.pendingItems).toBe(1);
    expect(full.bytesCaptured).toBe(bytes); // reading never refunds bytes
  });

  it("ends with capture_byte_limit once the frames pass maximumCapturedBytes", async () => {
    const sim = simulator(sseHandler(["data: {}\n\n", `data: {"pad":"${"y".repeat(200)}"}\n\n`]));
    const simulation = await sim.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }), { maximumCapturedBytes: 100 });
    expect((await simulation.awaitCompletion(1000))?.reason).toBe("capture_byte_limit");
    expect(simulation.pendingItems).toBe(1);
  });

  it("ends with internal_error, keeping the error, when an event's data is not JSON", async () => {
    const sim = simulator(sseHandler(["data: not json\n\n"]));
    const simulation = await sim.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }));
    const completion = await simulation.awaitCompletion(1000);
    expect(completion?.reason).toBe("internal_error");
    expect(completion?.errors[0]).toBeInstanceOf(SyntaxError);
  });
});

describe("close() and failures", () => {
  it("simulates a disconnect: idempotent, the mock sees its stream close, and an earlier end keeps its reason", async () => {
    const observer = recordingObserver();
    const server = await memoryMock({
      observers: [observer],
      tools: {
        stuck: (c) => {
          c.progress(1);
          return { hang: true };
        },
        ok: { returns: "fine" },
      },
    });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "stuck", 2, { progressToken: "t" }));
    expect((await simulation.awaitResponse(2000))?.bodyType).toBe("sse");
    await until(() => simulation.pendingItems >= 2, "the progress item");
    simulation.close();
    simulation.close();
    const completion = await simulation.awaitCompletion(1000);
    expect(completion?.reason).toBe("client_disconnected");
    expect(await simulation.awaitStreamItem(0)).toMatchObject({ kind: "priming" }); // what was captured stays readable
    await until(() => observer.lines.some((line) => line.endsWith("client_disconnected")), "the stream close");

    const done = await sim.startRequest(call(sessionId, "ok", 3));
    const finished = await done.awaitCompletion(2000);
    done.close();
    expect((await done.awaitCompletion(0))?.reason).toBe(finished?.reason);
    expect(finished?.reason).toBe("completed");
  });

  it("drives an object with a fetch method (the shape of SDK v2's createMcpHandler(...))", async () => {
    const transport = await sdkServer();
    const sim = simulator({ fetch: (request: Request) => transport.fetch(request) });
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "catalog.search"));
    await drain(simulation);
    expect((await simulation.awaitCompletion(2000))?.terminalMessage).toMatchObject({ id: 1, result: { content: [{ text: "3 results for shoe" }] } });
  });

  it("ends with internal_error when the target throws, keeping the thrown object", async () => {
    const failure = new Error("handler exploded");
    const sim = simulator(() => {
      throw failure;
    });
    const simulation = await sim.startRequest(mcpPost({ jsonrpc: "2.0", id: 1, method: "ping" }));
    expect(await simulation.awaitResponse(100)).toBeUndefined();
    expect(await simulation.awaitCompletion(1000)).toEqual({ reason: "internal_error", errors: [failure] });
  });

  it("waits no longer than asked, and refuses bad targets, requests and options with errors that teach", async () => {
    const server = await memoryMock({ tools: { wait: { hang: true } } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const simulation = await sim.startRequest(call(sessionId, "wait"));
    // On a fake clock: the wait ends exactly when its 50 ms are up, and not before.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let waited: "waiting" | "undefined" | "answered" = "waiting";
    void simulation.awaitResponse(50).then((head) => (waited = head === undefined ? "undefined" : "answered"));
    try {
      await vi.advanceTimersByTimeAsync(49);
      expect(waited).toBe("waiting");
      await vi.advanceTimersByTimeAsync(1);
      expect(waited).toBe("undefined");
    } finally {
      vi.useRealTimers();
      simulation.close();
    }

    expect(() => simulate(42 as never)).toThrow(McpTestkitError);
    expect(() => simulate(42 as never)).toThrow(/a mock from mockMcp\(\), a fetch handler/);
    await expect(sim.startRequest("http://x" as never)).rejects.toThrow(/pass a web-standard Request/);
    await expect(sim.startRequest(mcpPost({}), { streamItemQueueCapacity: 0 })).rejects.toThrow(/streamItemQueueCapacity/);
    await expect(simulation.awaitCompletion(-1)).rejects.toThrow('awaitCompletion(ms): "ms" must be a number of ms from 0 to 2147483647, got number -1.');
    // Longer than a timer holds, the wait would end at once: refused instead.
    await expect(simulation.awaitResponse(3e9)).rejects.toThrow('awaitResponse(ms): "ms" must be a number of ms from 0 to 2147483647, got number 3000000000.');
    expect(DEFAULT_STREAM_ITEM_QUEUE_CAPACITY).toBe(128);
    expect(DEFAULT_MAXIMUM_CAPTURED_BYTES).toBe(10 * 1024 * 1024);
  });
});

describe("no socket", () => {
  it("opens no listener and no connection, through a mock and through SDK servers, in both eras", async () => {
    const listen = vi.spyOn(net.Server.prototype, "listen");
    const connect = vi.spyOn(net.Socket.prototype, "connect");
    const createConnection = vi.spyOn(net, "createConnection");
    const mock = await memoryMock({ tools: { "catalog.search": { returns: "found" } } });
    for (const target of [mock, await sdkServer()]) {
      const sim = simulator(target);
      const sessionId = await openSession(sim);
      const simulation = await sim.startRequest(call(sessionId, "catalog.search", 1));
      await drain(simulation);
      expect((await simulation.awaitCompletion(2000))?.reason).toBe("completed");
    }
    // 2026-07-28: one request alone, no initialize, no session.
    for (const target of [mock, sdkV2Server()]) {
      const sim = simulator(target);
      const simulation = await sim.startRequest(
        modernPost({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: modernMeta(), name: "catalog.search", arguments: { query: "shoe" } } } as never),
      );
      await drain(simulation);
      const completion = await simulation.awaitCompletion(2000);
      expect(completion?.reason).toBe("completed");
      expect(completion?.terminalMessage).toMatchObject({ id: 2, result: { resultType: "complete" } });
    }
    expect(listen).not.toHaveBeenCalled();
    expect(connect).not.toHaveBeenCalled();
    expect(createConnection).not.toHaveBeenCalled();
  });
});
