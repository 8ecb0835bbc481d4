/**
 * A protocol feature of the user's own, defined in a test file (./servers/counter-feature.ts)
 * with no change to the package: a real SDK client calls its method, sees its capability, sends
 * its notification and hears the one it sends back, over memory, Streamable HTTP and stdio.
 * Then `server.use()` in front of any method, `resetHandlers()`, and the unhandled-method policy.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFeature, McpTestkitError, mockMcp, type MockMcpServer } from "../../src/index.js";
import { counterFeature } from "./servers/counter-feature.js";
import { closedAfterEach } from "../support/closed-after-each.js";

const STDIO_SERVER = fileURLToPath(new URL("./servers/counter-stdio.ts", import.meta.url));
const COUNT_RESULT = z.object({ count: z.number(), protocolVersion: z.string() });

const { servers, clients } = closedAfterEach();

async function served(options: Parameters<typeof mockMcp>[0]): Promise<MockMcpServer> {
  const server = await mockMcp(options);
  servers.add(server);
  return server;
}

/** A connected SDK v1 client that keeps every notification it hears. */
async function client(transport: Transport): Promise<{ client: Client; heard: Array<{ method: string; params?: unknown }> }> {
  const sdk = new Client({ name: "feature-test", version: "1.0.0" });
  const heard: Array<{ method: string; params?: unknown }> = [];
  sdk.fallbackNotificationHandler = async (notification) => {
    heard.push(notification);
  };
  clients.add(sdk);
  await sdk.connect(transport);
  return { client: sdk, heard };
}

const wires: Record<string, () => Promise<Transport>> = {
  memory: async () => (await served({ transport: "memory", features: [counterFeature] })).connectInMemory(),
  http: async () => new StreamableHTTPClientTransport(new URL((await served({ features: [counterFeature] })).url!)),
  stdio: async () => new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", STDIO_SERVER], stderr: "pipe" }),
};

describe.each(Object.keys(wires))("a feature of your own, over %s", (wire) => {
  it("serves its method, declares its capability, hears the client's notification and notifies back", async () => {
    const { client: sdk, heard } = await client(await wires[wire]!());
    expect(sdk.getServerCapabilities()?.experimental).toEqual({ "x-counter": { step: 1 } });
    // The built-in capabilities are still there beside the feature's.
    expect(sdk.getServerCapabilities()?.tools).toEqual({ listChanged: true });

    expect(await sdk.request({ method: "x/count", params: { by: 2 } }, COUNT_RESULT)).toEqual({ count: 2, protocolVersion: "2025-11-25" });
    expect(await sdk.request({ method: "x/count", params: { by: 3 } }, COUNT_RESULT)).toMatchObject({ count: 5 });
    await sdk.notification({ method: "notifications/x/reset" });
    expect(await sdk.request({ method: "x/count", params: { by: 1 } }, COUNT_RESULT)).toMatchObject({ count: 1 });
    expect(heard.filter((n) => n.method === "notifications/x/counted").map((n) => n.params)).toEqual([{ count: 2 }, { count: 5 }, { count: 1 }]);
  });

  it("answers bad params with -32602 naming the field, and its handler's RpcError as it is", async () => {
    const { client: sdk } = await client(await wires[wire]!());
    const bad = await sdk.request({ method: "x/count", params: { by: -1 } }, COUNT_RESULT).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(McpError);
    expect((bad as McpError).code).toBe(-32602);
    expect((bad as McpError).message).toContain("Invalid params for x/count: by:");
    const jammed = await sdk.request({ method: "x/fail" }, z.object({})).catch((error: unknown) => error);
    expect(jammed).toMatchObject({ code: -32050, data: { retryAfterMs: 10 } });
    expect((jammed as McpError).message).toContain("counter is jammed");
  });
});

describe("a feature in the 2026-07-28 era", () => {
  it("serves a request that names its revision per request, and server/discover declares its capability", async () => {
    const server = await served({ transport: "memory", features: [counterFeature] });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const discover = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } })))!);
    expect(discover.result.capabilities.experimental).toEqual({ "x-counter": { step: 1 } });
    const counted = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "x/count", params: { by: 4, _meta: meta } })))!);
    expect(counted.result).toMatchObject({ count: 4, protocolVersion: "2026-07-28", resultType: "complete" });
  });

  it("keeps a method to the revisions it names", async () => {
    const legacyOnly = defineFeature({ name: "legacy-only", methods: { "x/old": { versions: ["2025-11-25"], handler: () => ({ ok: true }) } } });
    const server = await served({ transport: "memory", features: [legacyOnly] });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const answer = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x/old", params: { _meta: meta } })))!);
    expect(answer.error).toEqual({ code: -32601, message: 'Method not found: x/old is not part of protocol version 2026-07-28 (feature "legacy-only" serves it in 2025-11-25)' });
  });

  it("makes its state anew for each mock and on reset()", async () => {
    const first = await served({ transport: "memory", features: [counterFeature] });
    const second = await served({ transport: "memory", features: [counterFeature] });
    const { client: a } = await client(await first.connectInMemory());
    const { client: b } = await client(await second.connectInMemory());
    await a.request({ method: "x/count", params: { by: 5 } }, COUNT_RESULT);
    expect(await b.request({ method: "x/count", params: { by: 1 } }, COUNT_RESULT)).toMatchObject({ count: 1 });
    first.reset();
    expect(await a.request({ method: "x/count", params: { by: 1 } }, COUNT_RESULT)).toMatchObject({ count: 1 });
  });

  it("keeps state per session, and drops a session's when it ends (the client closes it, or the mock closes)", async () => {
    // A tally per session: what a feature with work in flight per client (tasks, say) keeps.
    const tally = defineFeature({
      name: "x-tally",
      state: () => new Map<string, number>(),
      methods: { "x/tally": (request, perSession) => ({ total: perSession.set(request.sessionId, (perSession.get(request.sessionId) ?? 0) + 1).get(request.sessionId)!, sessions: perSession.size }) },
      sessionClosed: (sessionId, perSession) => void perSession.delete(sessionId),
    });
    const TALLY = z.object({ total: z.number(), sessions: z.number() });
    const server = await served({ features: [tally] });
    const first = new StreamableHTTPClientTransport(new URL(server.url!));
    const { client: a } = await client(first);
    const { client: b } = await client(new StreamableHTTPClientTransport(new URL(server.url!)));
    await a.request({ method: "x/tally" }, TALLY);
    expect(await a.request({ method: "x/tally" }, TALLY)).toEqual({ total: 2, sessions: 1 });
    expect(await b.request({ method: "x/tally" }, TALLY)).toEqual({ total: 1, sessions: 2 });
    // DELETE ends the first session: its tally goes.
    await first.terminateSession();
    expect(await b.request({ method: "x/tally" }, TALLY)).toEqual({ total: 2, sessions: 1 });
  });

  it("refuses a sessionClosed that is not a function", async () => {
    const feature = { name: "x-bad", sessionClosed: "later" } as never;
    await expect(mockMcp({ transport: "memory", features: [feature] })).rejects.toThrow('Feature "x-bad"\'s sessionClosed must be a function (sessionId, state) => void; got "later".');
  });
});

describe("server.use(): a handler in front of any method", () => {
  it("answers in front of a built-in method, passes on with undefined, and resetHandlers() takes it away", async () => {
    const server = await served({ transport: "memory", tools: { echo: { returns: "from the script" } } });
    const { client: sdk } = await client(await server.connectInMemory());
    const seen: string[] = [];
    server.use("tools/call", (request) => {
      seen.push(String(request.params.name));
      return request.params.name === "echo" ? undefined : { content: [{ type: "text", text: "from use()" }] };
    });
    expect(await sdk.callTool({ name: "anything" })).toEqual({ content: [{ type: "text", text: "from use()" }] });
    expect(await sdk.callTool({ name: "echo" })).toMatchObject({ content: [{ type: "text", text: "from the script" }] });
    server.resetHandlers();
    expect(await sdk.callTool({ name: "anything" }).catch((error: McpError) => error.code)).toBe(-32602);
    expect(seen).toEqual(["anything", "echo"]);
  });

  it("asks the newest handler first, and the function it returns takes only that one away", async () => {
    const server = await served({ transport: "memory" });
    const { client: sdk } = await client(await server.connectInMemory());
    server.use("x/who", () => ({ who: "first" }));
    const removeSecond = server.use("x/who", () => ({ who: "second" }));
    const schema = z.object({ who: z.string() });
    expect(await sdk.request({ method: "x/who" }, schema)).toEqual({ who: "second" });
    removeSecond();
    expect(await sdk.request({ method: "x/who" }, schema)).toEqual({ who: "first" });
  });

  it("gives the handler a signal the client's cancellation aborts, and sends no answer after it", async () => {
    const server = await served({ transport: "memory" });
    const { client: sdk } = await client(await server.connectInMemory());
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let abortedWith: unknown;
    server.use("x/slow", (request) => {
      started();
      // Waits only for the abort: the test cancels it.
      return new Promise((resolve) =>
        request.signal.addEventListener("abort", () => {
          abortedWith = request.signal.reason;
          resolve({ late: true });
        }),
      );
    });
    const controller = new AbortController();
    const answer = sdk.request({ method: "x/slow" }, z.object({}), { signal: controller.signal }).catch((error: unknown) => error);
    await running;
    controller.abort("no longer needed");
    expect(String(await answer)).toContain("no longer needed");
    await expect.poll(() => abortedWith).toBeDefined();
    expect(String(abortedWith)).toContain("cancelled by the client");
  });

  it("refuses a notification method or a handler that is not a function, saying what it takes", async () => {
    const server = await served({ transport: "memory" });
    expect(() => server.use("notifications/x", () => ({}))).toThrow(McpTestkitError);
    expect(() => server.use("notifications/x", () => ({}))).toThrow("A notification is acted on by a feature's `notifications`");
    expect(() => server.use("x/y", "answer" as never)).toThrow('use("x/y", handler) takes a function (request) => result, got "answer".');
  });
});

describe("onUnhandledMethod", () => {
  it('"error" (the default) answers -32601 quietly', async () => {
    const lines: string[] = [];
    const server = await served({ transport: "memory", logger: (_level, line) => lines.push(line) });
    const answer = JSON.parse((await server.handle('{"jsonrpc":"2.0","id":1,"method":"tools/lsit"}'))!);
    expect(answer.error).toEqual({ code: -32601, message: "Method not found: tools/lsit" });
    expect(lines).toEqual([]);
  });

  it('"warn" also logs a line naming the closest method served', async () => {
    const lines: string[] = [];
    const server = await served({ transport: "memory", onUnhandledMethod: "warn", logger: (_level, line) => lines.push(line) });
    const answer = JSON.parse((await server.handle('{"jsonrpc":"2.0","id":1,"method":"tools/lsit"}'))!);
    expect(answer.error.code).toBe(-32601);
    expect(lines).toEqual(['mcp-testkit: no handler for tools/lsit; answered -32601. Did you mean tools/list? Serve it with server.use("tools/lsit", handler), a feature, or set onUnhandledMethod.']);
  });

  it("a function answers any method nobody serves, and may pass it on to -32601", async () => {
    const server = await served({ transport: "memory", onUnhandledMethod: (request) => (request.method.startsWith("x/") ? { handledBy: "policy" } : undefined) });
    expect(JSON.parse((await server.handle('{"jsonrpc":"2.0","id":1,"method":"x/anything"}'))!).result).toEqual({ handledBy: "policy" });
    expect(JSON.parse((await server.handle('{"jsonrpc":"2.0","id":2,"method":"y/other"}'))!).error.code).toBe(-32601);
  });

  it("is checked when the mock starts", async () => {
    await expect(mockMcp({ transport: "memory", onUnhandledMethod: "ignore" as never })).rejects.toThrow(
      '"onUnhandledMethod" must be "error", "warn" or a function (request) => result, got "ignore".',
    );
  });
});

describe("features are checked when the mock starts", () => {
  it("refuses two features that serve one method, naming both", async () => {
    const again = defineFeature({ name: "tools-again", methods: { "tools/list": () => ({ tools: [] }) } });
    await expect(mockMcp({ transport: "memory", features: [again] })).rejects.toThrow('Two features serve the method tools/list: "tools" and "tools-again".');
  });

  it("refuses an unknown key and a method that is not a handler", async () => {
    await expect(mockMcp({ transport: "memory", features: [{ name: "x", method: {} } as never] })).rejects.toThrow('Feature "x" has an unknown key "method"');
    await expect(mockMcp({ transport: "memory", features: [{ name: "x", methods: { "x/a": 1 } } as never] })).rejects.toThrow('Feature "x"\'s method x/a must be a handler');
  });
});
