/**
 * One mock, one scenario, both eras side by side on the wires without HTTP (memory, stdio,
 * `handle()`): the era is chosen per request by `_meta`, `initialize` still starts a legacy
 * session and never negotiates 2026-07-28, faults stay faults in both eras, the call record
 * says which era each call came in, and subscriptions/listen works on a shared channel.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { MODERN, modernMeta } from "./support.js";

type Message = { jsonrpc: "2.0"; id?: number | string; method?: string; params?: any; result?: any; error?: any };

const open: MockMcpServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

/** A client of a mock on one wire, speaking raw JSON-RPC: requests resolve with their replies, the rest is kept. */
interface RawPeer {
  request(method: string, params?: Record<string, unknown>, id?: number): Promise<Message>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  readonly heard: Message[];
  /** What came that was not JSON. */
  readonly raw: string[];
  server?: MockMcpServer;
}

let nextId = 1;

/** A mock on a pair of in-process streams; `onLine` hears each line it writes. */
async function stdioMock(options: MockMcpOptions) {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = await mockMcp({ ...options, transport: "stdio", stdio: { input, output } } as MockMcpOptions);
  open.push(server);
  const onLine = (listener: (line: string) => void) => {
    let buffer = "";
    output.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
        listener(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    });
  };
  return { server, input, onLine };
}

/** A stdio mock with every message it writes parsed into `lines`, and `write` for the client's. */
async function stdioChannel(options: MockMcpOptions) {
  const { server, input, onLine } = await stdioMock(options);
  const lines: Message[] = [];
  onLine((line) => lines.push(JSON.parse(line) as Message));
  return { server, lines, write: (message: object) => input.write(`${JSON.stringify(message)}\n`) };
}

function peerOn(send: (text: string) => void): { peer: RawPeer; receive(text: string): void } {
  const waiting = new Map<number | string, (message: Message) => void>();
  const heard: Message[] = [];
  const raw: string[] = [];
  return {
    receive(text) {
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        raw.push(text);
        return;
      }
      if (message.id !== undefined && message.method === undefined && waiting.has(message.id)) {
        waiting.get(message.id)!(message);
        waiting.delete(message.id);
      } else heard.push(message);
    },
    peer: {
      heard,
      raw,
      request: (method, params, id = nextId++) =>
        new Promise((resolve) => {
          waiting.set(id, resolve);
          send(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params && { params }) }));
        }),
      notify: async (method, params) => send(JSON.stringify({ jsonrpc: "2.0", method, ...(params && { params }) })),
    },
  };
}

const WIRES: Record<string, (options: MockMcpOptions) => Promise<RawPeer>> = {
  async memory(options) {
    const server = await mockMcp({ transport: "memory", ...options });
    open.push(server);
    const transport = await server.connectInMemory();
    const { peer, receive } = peerOn((text) => void transport.send(JSON.parse(text)));
    transport.onmessage = (message) => receive(JSON.stringify(message));
    transport.onerror = (error) => peer.raw.push(error.message);
    await transport.start();
    return Object.assign(peer, { server });
  },
  async stdio(options) {
    const { server, input, onLine } = await stdioMock(options);
    const { peer, receive } = peerOn((text) => input.write(`${text}\n`));
    onLine(receive);
    return Object.assign(peer, { server });
  },
  async handle(options) {
    const server = await mockMcp({ transport: "memory", ...options });
    open.push(server);
    const heard: Message[] = [];
    const raw: string[] = [];
    return {
      heard,
      raw,
      server,
      request: async (method, params, id = nextId++) => {
        const text = (await server.handle(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params && { params }) })))!;
        try {
          return JSON.parse(text);
        } catch {
          raw.push(text);
          return {};
        }
      },
      notify: async (method, params) => void (await server.handle(JSON.stringify({ jsonrpc: "2.0", method, ...(params && { params }) }))),
    };
  },
};

const scenario: MockMcpOptions = {
  tools: {
    who: (call) => ({ returns: `${call.protocolVersion} #${call.index}` }),
  },
  resources: { "notes://a": "A" },
};

const modern = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({ ...params, _meta: modernMeta(meta) });
const initialize = (peer: RawPeer, protocolVersion = "2025-11-25") => peer.request("initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "legacy", version: "1" } });

for (const [wire, connect] of Object.entries(WIRES)) {
  describe(`both eras over ${wire}`, () => {
    it("a legacy session and per-request 2026-07-28 calls side by side; the record names each era", async () => {
      const peer = await connect(scenario);
      const init = await initialize(peer);
      expect(init.result.protocolVersion).toBe("2025-11-25");
      const legacy = await peer.request("tools/call", { name: "who", arguments: {} });
      const modernCall = await peer.request("tools/call", { name: "who", arguments: {}, ...modern() });
      expect(legacy.result).toEqual({ content: [{ type: "text", text: "2025-11-25 #0" }] });
      expect(modernCall.result).toMatchObject({
        content: [{ type: "text", text: `${MODERN} #1` }],
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-testkit", version: "0.1.0" } },
      });
      expect((await peer.request("ping")).result).toEqual({});
      expect(peer.server!.calls.map((call) => [call.tool, call.protocolVersion])).toEqual([
        ["who", "2025-11-25"],
        ["who", MODERN],
      ]);
      // The record keeps the step's answer in both eras alike; request:end has the result as sent.
      expect(peer.server!.calls[1]!.response).toEqual({ result: { content: [{ type: "text", text: `${MODERN} #1` }] } });
      const ended: unknown[] = [];
      peer.server!.on("request:end", (event) => void (event.method === "tools/call" && ended.push(event.result)));
      const again = await peer.request("tools/call", { name: "who", arguments: {}, ...modern() });
      expect(ended).toEqual([again.result]);
      expect(peer.server!.calls[2]!.response).toEqual({ result: { content: [{ type: "text", text: `${MODERN} #2` }] } });
    });

    it("initialize asking for 2026-07-28 negotiates the newest legacy revision", async () => {
      const peer = await connect(scenario);
      expect((await initialize(peer, MODERN)).result.protocolVersion).toBe("2025-11-25");
    });

    it("faults stay faults in 2026-07-28: raw bytes, a delay, a hang ended by notifications/cancelled", async () => {
      const peer = await connect({ tools: { faulty: [{ raw: "not json at all" }, { delayMs: 25, returns: "late" }, { hang: true }] } });
      void peer.request("tools/call", { name: "faulty", ...modern() });
      await vi.waitFor(() => expect(peer.raw).toHaveLength(1));
      const started = Date.now();
      const late = await peer.request("tools/call", { name: "faulty", ...modern() });
      expect(late.result.content).toEqual([{ type: "text", text: "late" }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(20);
      void peer.request("tools/call", { name: "faulty", ...modern() }, 4242);
      await vi.waitFor(() => expect(peer.server!.calls[2]?.outcome).toBe("pending"));
      await peer.notify("notifications/cancelled", { requestId: 4242, reason: "bored" });
      await vi.waitFor(() => expect(peer.server!.calls[2]).toMatchObject({ outcome: "cancelled", reason: "cancelled by the client: bored" }));
      expect(peer.server!.calls.map((call) => call.protocolVersion)).toEqual([MODERN, MODERN, MODERN]);
    });

    if (wire !== "handle") {
      it("a disconnect step drops the connection in 2026-07-28 too", async () => {
        const peer = await connect({ tools: { bye: { disconnect: true } } });
        void peer.request("tools/call", { name: "bye", ...modern() });
        await vi.waitFor(() => expect(peer.server!.calls[0]).toMatchObject({ outcome: "disconnected", protocolVersion: MODERN }));
      });
    }
  });
}

describe("2026-07-28 results and options", () => {
  it("server/discover: versions newest first, capabilities, instructions, identity and caching hints", async () => {
    const peer = await WIRES.handle!({ serverInfo: { name: "acme", version: "9" }, instructions: "Be brief.", cache: { ttlMs: 60_000, cacheScope: "public" } });
    const { result } = await peer.request("server/discover", modern());
    expect(result).toEqual({
      supportedVersions: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
        extensions: { "io.modelcontextprotocol/tasks": {} },
      },
      instructions: "Be brief.",
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "acme", version: "9" } },
      ttlMs: 60_000,
      cacheScope: "public",
    });
  });

  it("caching hints per list method and per resource, over the defaults (0, private)", async () => {
    const peer = await WIRES.handle!({
      resources: { "notes://a": "A", "notes://b": { text: "B", cache: { ttlMs: 5, cacheScope: "public" } } },
      cache: { methods: { "tools/list": { ttlMs: 1000, cacheScope: "public" } } },
    });
    expect((await peer.request("tools/list", modern())).result).toMatchObject({ ttlMs: 1000, cacheScope: "public" });
    expect((await peer.request("prompts/list", modern())).result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect((await peer.request("resources/read", modern({ uri: "notes://a" }))).result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect((await peer.request("resources/read", modern({ uri: "notes://b" }))).result).toMatchObject({ ttlMs: 5, cacheScope: "public" });
    // tools/call results are not cacheable, and legacy results carry none of this.
    expect((await peer.request("tools/call", modern({ name: "x" }))).error.code).toBe(-32602);
    await initialize(peer);
    expect((await peer.request("tools/list")).result).toEqual({ tools: [] });
  });

  it("bad caching options are refused at mockMcp()", async () => {
    await expect(mockMcp({ transport: "memory", cache: { ttlMs: -1 } })).rejects.toThrow('"cache".ttlMs must be a whole number of milliseconds, 0 or more, got number -1.');
    await expect(mockMcp({ transport: "memory", cache: { methods: { "tools/call": {} } as never } })).rejects.toThrow(/"cache.methods" has "tools\/call", which is not cacheable/);
    await expect(mockMcp({ transport: "memory", resources: { "x://y": { text: "", cache: { cacheScope: "shared" as never } } } })).rejects.toThrow(
      /Resource "x:\/\/y": "cache".cacheScope must be "public" or "private"/,
    );
    // A misspelt hint would be ignored silently: refused with the closest key, at every level.
    await expect(mockMcp({ transport: "memory", cache: { ttl: 60_000 } as never })).rejects.toThrow('"cache" has unknown key "ttl". It takes "ttlMs", "cacheScope", "methods".');
    await expect(mockMcp({ transport: "memory", cache: { methods: { "tools/list": { ttlMS: 60_000 } as never } } })).rejects.toThrow(
      /"cache.methods\["tools\/list"\]" has unknown key "ttlMS"; did you mean "ttlMs"\?/,
    );
    await expect(mockMcp({ transport: "memory", resources: { "x://y": { text: "", cache: { scope: "public" } as never } } })).rejects.toThrow(
      'Resource "x://y": "cache" has unknown key "scope". It takes "ttlMs", "cacheScope".',
    );
  });

  it("resource not found is -32602 in 2026-07-28 and -32002 in a legacy session", async () => {
    const peer = await WIRES.handle!({});
    expect((await peer.request("resources/read", modern({ uri: "nope://x" }))).error).toMatchObject({ code: -32602, message: "Resource not found: nope://x" });
    await initialize(peer);
    expect((await peer.request("resources/read", { uri: "nope://x" })).error.code).toBe(-32002);
  });

  it("server/discover without _meta is not found (as a legacy server answers), saying how to ask", async () => {
    const peer = await WIRES.handle!({});
    const reply = await peer.request("server/discover");
    expect(reply.error).toMatchObject({ code: -32601 });
    expect(reply.error.message).toMatch(/server\/discover is not part of protocol version 2025-11-25 \(it came with 2026-07-28; a request speaks 2026-07-28 by naming it in params._meta/);
  });

  it("a modern-only mock refuses initialize with -32022, naming what it speaks", async () => {
    const peer = await WIRES.handle!({ protocolVersions: [MODERN] });
    const reply = await initialize(peer);
    expect(reply.error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: "2025-11-25" } });
    expect(reply.error.message).toBe(
      'Unsupported protocol version "2025-11-25": this server speaks 2026-07-28 per request (in _meta). Retry with one of data.supported. There is no initialize: send each request with params._meta["io.modelcontextprotocol/protocolVersion"].',
    );
  });

  it("over HTTP that refusal is a 400 with no session, as 2026-07-28 rejects a legacy client", async () => {
    /** A legacy client's first POST: initialize asking for `protocolVersion`. */
    const postInitialize = (url: string, protocolVersion: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "legacy", version: "1" } } }),
      });
    const server = await mockMcp({ protocolVersions: [MODERN] });
    open.push(server);
    const response = await postInitialize(server.url!, "2025-11-25");
    expect(response.status).toBe(400);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32022, data: { supported: [MODERN], requested: "2025-11-25" } } });
    const legacy = await mockMcp({});
    open.push(legacy);
    const ok = await postInitialize(legacy.url!, "1900-01-01");
    // A legacy server answers an unknown version with the one it speaks, not an error (2025-11-25 lifecycle).
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).not.toBeNull();
    await ok.text();
  });

  it("logs go out only at the level a 2026-07-28 request names in _meta", async () => {
    const peer = await WIRES.memory!({
      tools: {
        chatty: (call) => {
          call.log("info", "hello");
          call.log("debug", "noise");
          return { returns: "done" };
        },
      },
    });
    await peer.request("tools/call", modern({ name: "chatty" }));
    expect(peer.heard).toEqual([]);
    await peer.request("tools/call", modern({ name: "chatty" }, { "io.modelcontextprotocol/logLevel": "info" }));
    expect(peer.heard.map((m) => [m.method, m.params.data])).toEqual([["notifications/message", "hello"]]);
    // A level nobody knows is refused, as logging/setLevel refuses it (it let every message through).
    const refused = (await peer.request("tools/call", modern({ name: "chatty" }, { "io.modelcontextprotocol/logLevel": "loud" }))) as { error?: { code: number; message: string } };
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toMatch(
      /^Invalid params: params\._meta\["io\.modelcontextprotocol\/logLevel"\] is "loud", not a log level \(debug, info, notice, warning, error, critical, alert, emergency\)/,
    );
    expect(peer.heard).toHaveLength(1);
  });
});

describe("subscriptions/listen on a shared channel (stdio)", () => {
  it("acknowledged first, then tagged notifications; the client's notifications/cancelled ends it; a second one the mock ends", async () => {
    const { server, lines, write } = await stdioChannel({});
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    write({ jsonrpc: "2.0", id: "sub-1", method: "subscriptions/listen", params: modern({ notifications: { toolsListChanged: true, promptsListChanged: false } }) });
    await settle();
    expect(lines).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } } },
    ]);
    await server.setTool("t", { returns: "x" });
    await server.setPrompt("p", "hi");
    await settle();
    expect(lines.slice(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } } }]);
    write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub-1" } });
    await settle();
    await server.setTool("t2", { returns: "x" });
    await settle();
    expect(lines).toHaveLength(2);
    write({ jsonrpc: "2.0", id: "sub-2", method: "subscriptions/listen", params: modern({ notifications: {} }) });
    await settle();
    expect(server.endSubscriptions()).toBe(1);
    await settle();
    expect(lines.at(-1)).toMatchObject({ id: "sub-2", result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "sub-2" } } });
    write({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: modern({}) });
    await settle();
    expect(lines.at(-1)).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringMatching(/"notifications" must be an object/) } });
  });
});

describe("a step tells every client", () => {
  it("call.broadcast() reaches legacy sessions and the listen streams that opted in; call.endSubscriptions() ends them", async () => {
    const { lines, write } = await stdioChannel({
      tools: {
        announce: (call) => (call.broadcast("notifications/tools/list_changed"), { returns: "announced" }),
        stop: (call) => ({ returns: `ended ${call.endSubscriptions()}` }),
      },
    });
    // One channel, both eras: a legacy session (initialize) and a 2026-07-28 subscription on it.
    write({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy", version: "1" } } });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    write({ jsonrpc: "2.0", id: "l", method: "subscriptions/listen", params: modern({ notifications: { toolsListChanged: true } }) });
    write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: modern({ name: "announce" }) });
    await vi.waitFor(() =>
      expect(lines.map((line) => line.method ?? line.id)).toEqual([0, "notifications/subscriptions/acknowledged", "notifications/tools/list_changed", "notifications/tools/list_changed", 1]),
    );
    expect(lines[2]).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(lines[3]!.params._meta).toEqual({ "io.modelcontextprotocol/subscriptionId": "l" });
    write({ jsonrpc: "2.0", id: 2, method: "tools/call", params: modern({ name: "stop" }) });
    await vi.waitFor(() => expect(lines.slice(5).map((line) => line.id)).toEqual([2, "l"]));
    expect(lines[5]!.result.content[0].text).toBe("ended 1");
    expect(lines[6]!.result).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "l" } });
  });

  it("a JSON step does the same (a scenario file's): broadcast before it answers, endSubscriptions ends the listens", async () => {
    const { lines, write } = await stdioChannel({
      resources: { "notes://today": "ship it" },
      tools: {
        publish: { broadcast: [{ method: "notifications/tools/list_changed" }, { method: "notifications/resources/updated", params: { uri: "notes://today" } }], returns: "published" },
        close: { endSubscriptions: true, returns: "closed" },
      },
    });
    write({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy", version: "1" } } });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    write({ jsonrpc: "2.0", id: "l", method: "subscriptions/listen", params: modern({ notifications: { toolsListChanged: true, resourceSubscriptions: ["notes://today"] } }) });
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: modern({ name: "publish" }) });
    await vi.waitFor(() => expect(lines.some((line) => line.id === 1)).toBe(true));
    // The legacy session gets the list change but not the update (it subscribed to no resource); the listen gets both, tagged; then the answer.
    expect(lines.slice(2).map((line) => [line.method ?? line.id, line.params?._meta?.["io.modelcontextprotocol/subscriptionId"]])).toEqual([
      ["notifications/tools/list_changed", undefined],
      ["notifications/tools/list_changed", "l"],
      ["notifications/resources/updated", "l"],
      [1, undefined],
    ]);
    expect(lines.at(-1)!.result.content).toEqual([{ type: "text", text: "published" }]);
    // Subscribed, the legacy session gets the update too.
    write({ jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: "notes://today" } });
    await vi.waitFor(() => expect(lines.at(-1)!.id).toBe(3));
    write({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "publish" } });
    await vi.waitFor(() => expect(lines.at(-1)!.id).toBe(4));
    expect(
      lines
        .slice(7)
        .filter((line) => line.method === "notifications/resources/updated")
        .map((line) => line.params),
    ).toEqual([{ uri: "notes://today" }, { uri: "notes://today", _meta: { "io.modelcontextprotocol/subscriptionId": "l" } }]);
    const before = lines.length;
    write({ jsonrpc: "2.0", id: 2, method: "tools/call", params: modern({ name: "close" }) });
    await vi.waitFor(() => expect(lines.slice(before).map((line) => line.id)).toEqual(["l", 2]));
    expect(lines[before]!.result).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "l" } });
  });

  it("a step function returning broadcast or endSubscriptions is told to call them itself", async () => {
    const { lines, write } = await stdioChannel({ tools: { wrong: () => ({ broadcast: [{ method: "notifications/tools/list_changed" }], returns: "x" }) } });
    write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: modern({ name: "wrong" }) });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]!.error.message).toContain(
      'returned "broadcast" or "endSubscriptions", which are for static steps; a step function tells the clients itself (call.broadcast(method, params), call.endSubscriptions())',
    );
  });

  it("server.notify() sends a notification as given, to every session (raw control: an update nobody subscribed to)", async () => {
    const { server, lines, write } = await stdioChannel({ resources: { "notes://today": "ship it" } });
    write({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy", version: "1" } } });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    server.notify("notifications/resources/updated", { uri: "notes://today", title: "Today" });
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines[1]).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "notes://today", title: "Today" } });
  });

  it('call.broadcast("notifications/resources/updated", { uri }) reaches a listen that names that URI, and no other', async () => {
    const { lines, write } = await stdioChannel({
      resources: { "notes://today": "ship it", "notes://later": "not yet" },
      tools: { touch: (call) => (call.broadcast("notifications/resources/updated", { uri: "notes://today" }), { returns: "touched" }) },
    });
    write({ jsonrpc: "2.0", id: "today", method: "subscriptions/listen", params: modern({ notifications: { resourceSubscriptions: ["notes://today"] } }) });
    write({ jsonrpc: "2.0", id: "later", method: "subscriptions/listen", params: modern({ notifications: { resourceSubscriptions: ["notes://later"] } }) });
    await vi.waitFor(() => expect(lines.filter((line) => line.method === "notifications/subscriptions/acknowledged")).toHaveLength(2));
    write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: modern({ name: "touch" }) });
    await vi.waitFor(() => expect(lines.some((line) => line.id === 1)).toBe(true));
    const updates = lines.filter((line) => line.method === "notifications/resources/updated");
    expect(updates).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "notes://today", _meta: { "io.modelcontextprotocol/subscriptionId": "today" } } }]);
  });
});
