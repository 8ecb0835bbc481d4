/**
 * The driver in protocol revision 2026-07-28 against our own dual-era mock, on every wire
 * (memory, Streamable HTTP, stdio through `mcp-testkit mock --stdio`): `versionNegotiation`
 * auto, pinned and legacy; `server/discover`; `_meta` on every request; the HTTP headers; MRTR
 * answered through `onElicitation` / `onSampling` / `roots`; `subscriptions/listen`; caching
 * hints honoured by the list cache; and the teaching errors.
 */
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { askEverything } from "../support/mrtr-steps.js";
import { mockMcp, type ToolCallContext } from "../../src/index.js";
import { mcpAttach, mcpConnect, mcpShell, ProtocolError, ProcessFailedToStart, ConnectionClosedError, type McpDriver } from "../../src/driver/index.js";
import { freePort } from "../support/ports.js";
import { serveWebHandler } from "../support/web-handler-server.js";
import { useDrivers, zoo } from "./support.js";

const track = useDrivers();

const MODERN = "2026-07-28";
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

const weather = {
  inputSchema: { type: "object", properties: { city: { type: "string", "x-mcp-header": "City" }, days: { type: "integer", "x-mcp-header": "Days" } } },
  responses: [{ returns: "sunny" }],
};

/** The JSON-RPC requests the driver sent, in order. */
function sentRequests(app: McpDriver): { method: string; params: Record<string, unknown> | undefined }[] {
  return app.messages
    .filter((record) => record.direction === "outgoing" && "method" in record.content && "id" in record.content)
    .map((record) => record.content as unknown as { method: string; params: Record<string, unknown> | undefined });
}

describe("the driver in 2026-07-28 against the mock (memory)", () => {
  for (const versionNegotiation of ["auto", { pin: MODERN }] as const) {
    it(`${JSON.stringify(versionNegotiation)}: discovers, then every request carries the version, capabilities and client in _meta`, async () => {
      await using mock = await mockMcp({ tools: { weather }, resources: { "notes://today": "Ship it." }, prompts: { greet: { messages: [{ role: "user", content: "Hello" }] } } });
      await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation, clientInfo: { name: "modern-test", version: "1.0.0" } });
      const result = await app.initialize();
      expect(app.era).toBe("modern");
      expect(result.protocolVersion).toBe(MODERN);
      expect(app.protocolVersion).toBe(MODERN);
      expect(app.discoverResult?.supportedVersions).toContain(MODERN);
      expect(app.serverCapabilities?.tools).toBeDefined();
      expect(app.serverInfo?.name).toBeTypeOf("string");
      expect(app.sessionId).toBeUndefined();

      expect((await app.callTool("weather", { city: "Oslo" })).getTextContent()).toBe("sunny");
      expect((await app.readResource("notes://today")).getTextContent()).toBe("Ship it.");
      expect((await app.getPrompt("greet")).messages).toHaveLength(1);
      const requests = sentRequests(app);
      expect(requests.map((request) => request.method)).toEqual(["server/discover", "tools/call", "resources/read", "prompts/get"]);
      for (const request of requests) {
        expect(request.params?._meta).toEqual({
          [META_VERSION]: MODERN,
          "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        });
      }
      expect(mock.calls[0]).toMatchObject({ tool: "weather", protocolVersion: MODERN });
      expect(app.problems).toEqual([]);
    });
  }

  it("legacy: initialize as before, no _meta, no server/discover", async () => {
    await using mock = await mockMcp({ tools: { weather } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    await app.callTool("weather", { city: "Oslo" });
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(sentRequests(app).map((request) => request.method)).toEqual(["initialize", "tools/call"]);
    expect(sentRequests(app)[1]!.params?._meta).toBeUndefined();
  });

  it("roots: a legacy initialize declares roots.listChanged, 2026-07-28 declares plain roots", async () => {
    await using mock = await mockMcp({ tools: { weather } });
    await using legacy = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy", roots: [] });
    await legacy.initialize();
    expect(sentRequests(legacy)[0]!.params!.capabilities).toEqual({ roots: { listChanged: true } });
    await using modern = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN }, roots: [] });
    await modern.callTool("weather", { city: "Oslo" });
    expect(modern.clientCapabilities).toEqual({ roots: {} });
    const call = sentRequests(modern).find((request) => request.method === "tools/call")!;
    expect((call.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"]).toEqual({ roots: {} });
  });

  it("protocolVersion alone chooses the mode: a legacy version means legacy, 2026-07-28 a pin", async () => {
    await using mock = await mockMcp({ tools: { weather } });
    await using legacy = mcpAttach(mock.connectInMemory(), { protocolVersion: "2025-06-18" });
    await using modern = mcpAttach(mock.connectInMemory(), { protocolVersion: MODERN });
    await legacy.initialize();
    await modern.initialize();
    expect([legacy.era, legacy.protocolVersion]).toEqual(["legacy", "2025-06-18"]);
    expect([modern.era, modern.protocolVersion]).toEqual(["modern", MODERN]);
  });

  it("MRTR: elicitation, sampling and roots asked in input_required results are answered by the driver's handlers, then retried", async () => {
    await using mock = await mockMcp({
      tools: {
        plan: askEverything,
      },
    });
    const asked: string[] = [];
    await using app = mcpAttach(mock.connectInMemory(), {
      versionNegotiation: { pin: MODERN },
      roots: [{ uri: "file:///work" }],
      onElicitation: (params) => {
        asked.push(`elicit:${params.message}`);
        return { action: "accept", content: { city: "Oslo" } };
      },
      onSampling: () => {
        asked.push("sample");
        return { role: "assistant", content: { type: "text", text: "rain" }, model: "m" };
      },
    });
    const result = await app.callTool("plan");
    expect(result.getTextContent()).toBe("Oslo / rain / file:///work");
    expect(asked.sort()).toEqual(["elicit:Which city?", "sample"]);
    // One call on the mock's side, with its three exchanges; three tools/call requests on ours.
    expect(mock.calls).toHaveLength(1);
    expect(mock.calls[0]!.exchanges.map((exchange) => exchange.method)).toEqual(["elicitation/create", "sampling/createMessage", "roots/list"]);
    const calls = sentRequests(app).filter((request) => request.method === "tools/call");
    expect(calls).toHaveLength(3);
    expect(calls[0]!.params).not.toHaveProperty("requestState");
    expect(Object.keys(calls[1]!.params!.inputResponses as object).length).toBe(2);
    expect(calls[1]!.params!.requestState).toBeTypeOf("string");
    expect(calls[2]!.params!.requestState).not.toBe(calls[1]!.params!.requestState);
    const ids = app.messages.filter((record) => record.direction === "outgoing" && record.method === "tools/call").map((record) => record.id);
    expect(new Set(ids).size).toBe(3);
    // The capabilities declared in _meta are those the handlers imply; 2026-07-28 has no roots list_changed to declare.
    expect((calls[0]!.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"]).toEqual({ roots: {}, sampling: {}, elicitation: {} });
  });

  it("setRoots sends no notifications/roots/list_changed (2026-07-28 removed it): the next input request gets the new roots", async () => {
    await using mock = await mockMcp({ tools: { roots: async (call) => ({ returns: (await call.listRoots()).map((root) => root.uri).join(",") }) } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN }, roots: [{ uri: "file:///work" }] });
    expect((await app.callTool("roots")).getTextContent()).toBe("file:///work");
    await app.setRoots([{ uri: "file:///other" }]);
    expect((await app.callTool("roots")).getTextContent()).toBe("file:///other");
    expect(app.messages.filter((record) => record.direction === "outgoing" && !("id" in record.content)).map((record) => record.method)).toEqual([]);
    expect(mock.messages.map((message) => ("method" in message ? message.method : undefined))).not.toContain("notifications/roots/list_changed");
  });

  it("MRTR without a handler for what the server asks fails the call, naming the option to pass", async () => {
    await using mock = await mockMcp({
      tools: { ask: { inputRequired: { inputRequests: { who: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } } } } } },
    });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN } });
    const error = (await app.callTool("ask").catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/could not answer the server's input request "who" \(elicitation\/create\).*onElicitation/s);
  });

  it("MRTR rounds are bounded: a server that asks for input forever is stopped after maxInputRounds", async () => {
    await using mock = await mockMcp({ tools: { forever: { inputRequired: { requestState: "again" } } } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN }, maxInputRounds: 3 });
    const error = (await app.callTool("forever").catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/still answered input_required after 3 rounds.*maxInputRounds/s);
    expect(sentRequests(app).filter((request) => request.method === "tools/call")).toHaveLength(4);
    expect(sentRequests(app).at(-1)!.params!.requestState).toBe("again");
  });

  it("subscriptions/listen: acknowledged, then list_changed and resources/updated tagged with its id; close() ends it", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } }, resources: { "notes://today": "v1" } });
    await using app = mcpAttach(mock.connectInMemory());
    const subscription = await app.listen({ toolsListChanged: true, resourceSubscriptions: ["notes://today"] });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ["notes://today"] });
    await mock.setTool("two", { returns: 2 });
    await mock.setResource("notes://today", "v2");
    await app.waitForNotification("notifications/resources/updated");
    expect(subscription.notifications.map((notification) => notification.method)).toEqual(["notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(subscription.notifications[1]!.params).toMatchObject({ uri: "notes://today", _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id } });
    expect(await subscription.close()).toEqual({ by: "client" });
    expect(app.problems).toEqual([]);
  });

  it("listen()'s acknowledgeTimeoutMs past what a timer holds is refused, not reported as unacknowledged at once", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } } });
    await using app = mcpAttach(mock.connectInMemory());
    await expect(app.listen({ toolsListChanged: true }, { acknowledgeTimeoutMs: 3e9 })).rejects.toThrow(
      `listen()'s options: "acknowledgeTimeoutMs" must be a number of ms from 1 to 2147483647, got number 3000000000.`,
    );
    const subscription = await app.listen({ toolsListChanged: true }, { acknowledgeTimeoutMs: 2 ** 31 - 1 });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    expect(await subscription.close()).toEqual({ by: "client" });
  });

  it("subscriptions/listen ended by the server resolves `ended` with its result", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } } });
    await using app = mcpAttach(mock.connectInMemory());
    const subscription = await app.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    expect(mock.endSubscriptions()).toBe(1);
    const end = await subscription.ended;
    expect(end).toMatchObject({ by: "server", result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id } } });
  });

  it("the list cache follows ttlMs: 0 asks every time, a longer TTL keeps the list", async () => {
    await using fresh = await mockMcp({ tools: { one: { returns: 1 } } });
    await using app = mcpAttach(fresh.connectInMemory());
    await app.getTools();
    await app.getTools();
    expect(sentRequests(app).filter((request) => request.method === "tools/list")).toHaveLength(2);

    await using cached = await mockMcp({ tools: { one: { returns: 1 } }, cache: { methods: { "tools/list": { ttlMs: 60_000, cacheScope: "public" } } } });
    await using kept = mcpAttach(cached.connectInMemory());
    await kept.getTools();
    await kept.getTools();
    expect(sentRequests(kept).filter((request) => request.method === "tools/list")).toHaveLength(1);
  });

  it("legacy-only calls in the modern era and modern-only calls in the legacy era say what to do", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } } });
    await using legacy = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    await expect(legacy.listen({ toolsListChanged: true })).rejects.toThrow(/listen\(\) is part of protocol revision 2026-07-28, but this driver speaks 2025-11-25.*versionNegotiation "auto"/s);
    await expect(legacy.discover()).rejects.toThrow(/discover\(\) is part of protocol revision 2026-07-28/);
    await using modern = mcpAttach(mock.connectInMemory());
    expect((await modern.discover()).supportedVersions).toContain(MODERN);
    await expect(modern.ping()).rejects.toThrow(
      /The server answered ping with JSON-RPC error -32601 .*\. 2026-07-28, which this driver speaks, has no ping: use versionNegotiation "legacy" to test ping/,
    );
    await expect(modern.setLoggingLevel("debug")).rejects.toThrow(/2026-07-28, which this driver speaks, has no logging\/setLevel .*: in 2026-07-28 a log level goes in each request's _meta/);
    await expect(modern.subscribeResource("notes://x")).rejects.toThrow(/has no resources\/subscribe and resources\/unsubscribe .*: use listen\(\{ resourceSubscriptions: \[uri\] \}\)/);
    await expect(modern.unsubscribeResource("notes://x")).rejects.toThrow(/has no resources\/subscribe and resources\/unsubscribe .*: end the subscriptions\/listen stream/);
  });

  it("2026-07-28 has no server-to-client requests: a server that sends one anyway is refused (-32601), not answered", async () => {
    let asked = 0;
    const app = track(mcpShell(zoo("modern-asks-client"), { versionNegotiation: { pin: MODERN }, onElicitation: () => (asked++, { action: "accept", content: {} }) }));
    const answer = JSON.parse((await app.callTool("ask")).getTextContent()!);
    expect(asked).toBe(0);
    expect(answer.error).toMatchObject({
      code: -32601,
      message: "mcp-testkit: 2026-07-28 has no server-to-client requests (a server asks for input in an input_required result), so this client does not answer elicitation/create",
    });
    // The validator saw it too: the request is not part of the revision.
    expect(app.problems.map((problem) => [problem.method, problem.rule])).toContainEqual(["elicitation/create", "version.feature"]);
  });

  it("bad negotiation options are refused before anything starts", () => {
    expect(() => mcpShell("node server.js", { versionNegotiation: { pin: "2025-11-25" } })).toThrow(
      /a pin names a revision spoken per request.*versionNegotiation: "legacy", protocolVersion: "2025-11-25"/s,
    );
    expect(() => mcpShell("node server.js", { versionNegotiation: "modern" as never })).toThrow(/versionNegotiation must be "legacy", "auto" or \{ pin: "2026-07-28" \}/);
    expect(() => mcpShell("node server.js", { versionNegotiation: "legacy", protocolVersion: MODERN })).toThrow(/has no initialize handshake/);
    expect(() => mcpShell("node server.js", { maxInputRounds: 0 })).toThrow(/maxInputRounds must be an integer from 1 to 1000/);
    // The other contradiction: a pin and another protocolVersion (the version was ignored in silence).
    expect(() => mcpShell("node server.js", { versionNegotiation: { pin: MODERN }, protocolVersion: "2025-11-25" })).toThrow(
      'versionNegotiation { pin: "2026-07-28" } speaks 2026-07-28 only, so protocolVersion "2025-11-25" cannot be asked for: leave protocolVersion out, or use versionNegotiation "auto" (or "legacy") to ask for 2025-11-25.',
    );
  });

  it("a pin implied by protocolVersion alone, against a legacy server: the error names that option and advice that can be followed", async () => {
    await using mock = await mockMcp({ protocolVersions: ["2025-11-25"], transport: "memory" });
    await using app = mcpAttach(mock.connectInMemory(), { protocolVersion: MODERN });
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^\[mcp-testkit\] The server does not speak MCP 2026-07-28 \(protocolVersion "2026-07-28", which pins it\): .*protocolVersion "2026-07-28" alone pins that revision; for a legacy server set a legacy protocolVersion \(or leave it out\), or use versionNegotiation "auto"\./s,
    );
    expect(error.message).not.toMatch(/or "legacy"\./);
  });
});

describe("the driver in 2026-07-28 over Streamable HTTP (the mock checks every header)", () => {
  it("auto: no session, the headers the spec requires (Mcp-Param-* from x-mcp-header, Base64 for non-ASCII), MRTR and listen", async () => {
    await using mock = await mockMcp({
      tools: {
        weather,
        ask: async (call) => ({
          returns: `hi ${((await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })).content as { name: string }).name}`,
        }),
      },
      resources: { "notes://søk": "funnet" },
    });
    const seen: Headers[] = [];
    const fetchSpy = (input: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    await using app = mcpConnect(mock.url!, { fetch: fetchSpy, onElicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect((await app.callTool("weather", { city: "Zürich", days: 3 })).getTextContent()).toBe("sunny");
    expect(app.era).toBe("modern");
    expect(app.sessionId).toBeUndefined();
    const call = seen.find((headers) => headers.get("mcp-method") === "tools/call")!;
    expect(call.get("mcp-protocol-version")).toBe(MODERN);
    expect(call.get("mcp-name")).toBe("weather");
    expect(call.get("mcp-param-city")).toBe(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    expect(call.get("mcp-param-days")).toBe("3");
    expect(call.get("mcp-session-id")).toBeNull();
    expect((await app.readResource("notes://søk")).getTextContent()).toBe("funnet");
    expect((await app.callTool("ask")).getTextContent()).toBe("hi Ada");

    const subscription = await app.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    await mock.setTool("two", { returns: 2 });
    await app.waitForNotification("notifications/tools/list_changed");
    expect((await subscription.close()).by).toBe("client");
    expect(mock.calls.map((record) => [record.tool, record.protocolVersion, record.outcome])).toEqual([
      ["weather", MODERN, "result"],
      ["ask", MODERN, "result"],
    ]);
    expect(app.problems).toEqual([]);
  });

  it("a modern server's 4xx JSON-RPC error is the call's error (a header rule the mock enforces), not a failed POST", async () => {
    await using mock = await mockMcp({ tools: { weather } });
    // A fetch that drops Mcp-Name: the mock answers 400 -32020.
    const dropName = (input: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.delete("mcp-name");
      return fetch(input, { ...init, headers });
    };
    await using app = mcpConnect(mock.url!, { fetch: dropName, versionNegotiation: { pin: MODERN } });
    const error = (await app.callTool("weather", { city: "Oslo" }).catch((e: unknown) => e)) as { code?: number; message: string };
    expect(error.code).toBe(-32020);
    expect(error.message).toMatch(/Mcp-Name header is required/);
  });

  it("tools with an invalid x-mcp-header are left out of getTools() and listed in rejectedTools", async () => {
    await using mock = await mockMcp({
      tools: {
        good: weather,
        nested: { inputSchema: { type: "object", properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } } }, responses: [{ returns: "x" }] },
        twice: { inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "Same" }, b: { type: "string", "x-mcp-header": "same" } } }, responses: [{ returns: "x" }] },
        number: { inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } }, responses: [{ returns: "x" }] },
      },
    });
    await using app = mcpConnect(mock.url!);
    expect((await app.getTools()).map((tool) => tool.name)).toEqual(["good"]);
    expect(app.rejectedTools.map((tool) => tool.name).sort()).toEqual(["nested", "number", "twice"]);
    expect(app.rejectedTools.find((tool) => tool.name === "twice")!.reason).toMatch(/used twice/);
    // Called anyway, the server's -32020 for the headers the driver could not make says why they are missing.
    const error = (await app.callTool("number", { n: 1 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("Mcp-Param-N header is required");
    expect(error.message).toContain(
      'The driver left tool "number" out of getTools() and sends no Mcp-Param headers for it: inputSchema.properties.n: x-mcp-header is allowed on string, integer and boolean parameters only, not type "number"',
    );
  });
});

describe("the legacy era against a mock that speaks only 2026-07-28", () => {
  it("fails initialize with the server's -32022 and says to connect with auto or a pin, on stdio's wire too", async () => {
    await using mock = await mockMcp({ protocolVersions: [MODERN], tools: { ok: { returns: "fine" } } });
    await using overHttp = mcpConnect(mock.url!, { versionNegotiation: "legacy" });
    const http = (await overHttp.initialize().catch((e: unknown) => e)) as Error;
    expect(http.message.split("\n")[0]).toMatch(
      /^\[mcp-testkit\] The server refused initialize \(id 1\) with HTTP 400: .*-32022.*\. It speaks only 2026-07-28, per request with no initialize: connect with versionNegotiation "auto" or \{ pin: "2026-07-28" \}\.$/,
    );
    await using inMemory = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    const memory = (await inMemory.initialize().catch((e: unknown) => e)) as Error;
    expect(memory.message.split("\n")[0]).toMatch(
      /^\[mcp-testkit\] The server answered initialize with JSON-RPC error -32022 .*\. It speaks only 2026-07-28, per request with no initialize: connect with versionNegotiation "auto" or \{ pin: "2026-07-28" \}\.$/,
    );
    await using auto = mcpConnect(mock.url!, { versionNegotiation: "auto" });
    expect((await auto.callTool("ok")).getTextContent()).toBe("fine");
  });

  it("auto's fallback gives no such advice: it asked auto already (a server that refuses discover and then initialize)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-testkit-refuses-"));
    try {
      const script = path.join(dir, "refuses.mjs");
      writeFileSync(
        script,
        `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method } = JSON.parse(line);
  if (id === undefined) return;
  const error = method === "server/discover" ? { code: -32601, message: "Method not found" } : { code: -32022, message: "Unsupported protocol version" };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, error }) + "\\n");
});`,
      );
      const app = track(mcpShell(`"${process.execPath}" "${script}"`));
      const error = (await app.initialize().catch((e: unknown) => e)) as Error;
      expect(error.message).toMatch(/The server answered initialize with JSON-RPC error -32022/);
      expect(error.message).not.toContain("connect with versionNegotiation");
      await app.close().catch(() => undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a 2026-07-28 server that needs a client capability the driver did not declare", () => {
  it("fails the call with -32021 and names the driver option that declares it", async () => {
    await using mock = await mockMcp({ tools: { ask: async (call) => ({ returns: String((await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: {} } })).action) }) } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN } });
    const error = (await app.callTool("ask").catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^\[mcp-testkit\] Tool "ask" failed: the server answered tools\/call with JSON-RPC error -32021 .*elicitation.*\. The driver declares a capability when it can answer for it: pass onElicitation: \(params\) => \(\{ action: "accept", content: \{ \.\.\. \} \}\) to mcpShell \/ mcpConnect \/ mcpAttach$/m,
    );
    await using answered = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN }, onElicitation: () => ({ action: "decline" }) });
    expect((await answered.callTool("ask")).getTextContent()).toBe("decline");
  });

  it("a URL-mode ask with onElicitation alone (forms only): the hint names the capability that declares URL mode, and with it both modes work", async () => {
    const tools = {
      signin: async (call: ToolCallContext) => ({ returns: String((await call.elicit({ mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e1" } as never)).action) }),
      form: async (call: ToolCallContext) => ({ returns: String((await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: {} } })).action) }),
    };
    await using mock = await mockMcp({ transport: "memory", tools });
    await using formsOnly = mcpAttach(mock.connectInMemory(), { onElicitation: () => ({ action: "accept" }) });
    await expect(formsOnly.callTool("signin")).rejects.toThrow(
      /pass capabilities: \{ elicitation: \{ form: \{\}, url: \{\} \} \} beside onElicitation \(which alone declares elicitation: \{\}, forms only; it answers URL-mode asks too\)/,
    );
    await using both = mcpAttach(mock.connectInMemory(), { onElicitation: () => ({ action: "accept" }), capabilities: { elicitation: { form: {}, url: {} } } });
    expect((await both.callTool("signin")).getTextContent()).toBe("accept");
    expect((await both.callTool("form")).getTextContent()).toBe("accept");
  });
});

describe("giving up on a 2026-07-28 call over Streamable HTTP closes its stream, which cancels it", () => {
  it("on a timeout and on an abort, the mock's call ends cancelled at once (no notification is sent)", async () => {
    await using mock = await mockMcp({ tools: { stuck: { hang: true } } });
    await using app = mcpConnect(mock.url!, { versionNegotiation: { pin: MODERN }, requestTimeout: 300 });
    // The error says what the driver did: it closed the stream, it sent no notification.
    await expect(app.callTool("stuck")).rejects.toThrow(/got no response within 300 ms; closed its response stream \(how 2026-07-28 cancels over HTTP\)\./);
    await vi.waitFor(() => expect(mock.calls.map((call) => call.outcome)).toEqual(["cancelled"]), { timeout: 2000 });
    const controller = new AbortController();
    const aborted = app.callTool("stuck", {}, { signal: controller.signal });
    await vi.waitFor(() => expect(mock.calls).toHaveLength(2), { timeout: 2000 });
    controller.abort(new Error("the test moved on"));
    await expect(aborted).rejects.toThrow(/was aborted \(the test moved on\); closed its response stream/);
    await vi.waitFor(() => expect(mock.calls.map((call) => call.outcome)).toEqual(["cancelled", "cancelled"]), { timeout: 2000 });
    expect(app.messages.filter((record) => record.direction === "outgoing" && record.method === "notifications/cancelled")).toEqual([]);
  });
});

describe("a connection cut before the answer, over Streamable HTTP", () => {
  it("is said as such in both eras (the request went out), not as a failure to send", async () => {
    await using mock = await mockMcp({ tools: { drop: { disconnect: true }, ok: { returns: "fine" } } });
    for (const versionNegotiation of ["legacy", "auto"] as const) {
      await using app = mcpConnect(mock.url!, { versionNegotiation });
      expect((await app.callTool("ok")).getTextContent()).toBe("fine");
      const error = (await app.callTool("drop").catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.message).toMatch(/The server closed the connection before answering tools\/call .*\(id \d+\): fetch failed/);
    }
    expect(mock.calls.filter((call) => call.tool === "drop").map((call) => call.outcome)).toEqual(["disconnected", "disconnected"]);
  });
});

describe("a URL that serves a web page, not MCP (the wrong path)", () => {
  it.each(["legacy", "auto"] as const)("%s: says what the server answered with and asks whether the URL is the MCP endpoint", async (versionNegotiation) => {
    const page = await serveWebHandler(async () => new Response("<html><body>Welcome</body></html>", { headers: { "content-type": "text/html" } }), "/");
    try {
      await using app = mcpConnect(page.url, { versionNegotiation });
      await expect(app.initialize()).rejects.toThrow(
        /The server answered (server\/discover|initialize) \(id 1\) with text\/html, not JSON or an event stream: is the URL the MCP endpoint \(its path is often \/mcp\)\?/,
      );
    } finally {
      await page.close();
    }
  });
});

describe("header values (the spec's encoding examples)", () => {
  it("plain ASCII goes as is; non-ASCII, edge whitespace, control characters and sentinel look-alikes go in Base64", async () => {
    const { encodeHeaderValue } = await import("../../src/protocol/http-headers.js");
    expect(encodeHeaderValue("us-west1")).toBe("us-west1");
    expect(encodeHeaderValue("us west 1")).toBe("us west 1");
    expect(encodeHeaderValue("Hello, 世界")).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(encodeHeaderValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(encodeHeaderValue("line1\nline2")).toBe("=?base64?bGluZTEKbGluZTI=?=");
    expect(encodeHeaderValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    expect(encodeHeaderValue("")).toBe("=?base64??=");
  });
});

describe("the driver in 2026-07-28 over stdio (mcp-testkit mock --stdio)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-testkit-modern-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const scenario = path.join(dir, "scenario.json");
  writeFileSync(scenario, JSON.stringify({ tools: { echo: { inputSchema: { type: "object", properties: { text: { type: "string" } } }, responses: [{ returns: "pong" }] } } }));
  const command = `"${process.execPath}" "${CLI}" mock --stdio "${scenario}"`;

  for (const versionNegotiation of ["auto", { pin: MODERN }, "legacy"] as const) {
    it(`${JSON.stringify(versionNegotiation)}: calls a tool`, async () => {
      const app = track(mcpShell(command, { versionNegotiation }));
      expect((await app.callTool("echo", { text: "x" })).getTextContent()).toBe("pong");
      expect(app.era).toBe(versionNegotiation === "legacy" ? "legacy" : "modern");
      await app.close();
    });
  }
});

describe("auto against a modern server that refuses the first try", () => {
  it("-32022 listing the version asked for: the driver retries server/discover once and stays modern (no initialize)", async () => {
    const app = track(mcpShell(zoo("modern-refuses-once")));
    expect((await app.callTool("any")).getTextContent()).toBe("ok");
    expect(app.era).toBe("modern");
    expect(app.serverInfo).toEqual({ name: "refuses-once", version: "1.0.0" });
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "server/discover", "tools/call"]);
    await app.close();
  });
});

describe("a server that keeps refusing the version it lists", () => {
  const alwaysRefused = (...supported: string[]) => `${zoo("discover-always-refused")} ${supported.join(" ")}`;

  it("auto: refused twice, with legacy versions listed too, falls back to initialize and says why", async () => {
    const app = track(mcpShell(alwaysRefused("2025-11-25", MODERN)));
    expect((await app.callTool("any")).getTextContent()).toBe("ok");
    expect(app.era).toBe("legacy");
    expect(app.fallbackReason).toBe("it refused protocol version 2026-07-28 twice with -32022, though it lists it; it serves 2025-11-25 through initialize");
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "server/discover", "initialize", "tools/call"]);
    await app.close();
  });

  it("auto: refused twice with nothing else listed fails naming auto, not a pin, and what to do", async () => {
    const app = track(mcpShell(alwaysRefused(MODERN)));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain(
      'The server does not speak MCP 2026-07-28 (versionNegotiation "auto"): it refused protocol version 2026-07-28 twice with -32022, though it lists it. Ask for another revision with protocolVersion',
    );
    expect(error.message).not.toContain("pin");
    await app.close();
  });

  it("a pin: the same refusal names the pin and points to auto for a server that serves initialize", async () => {
    const app = track(mcpShell(alwaysRefused("2025-11-25", MODERN), { versionNegotiation: { pin: MODERN } }));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error.message).toContain(
      '(versionNegotiation { pin: "2026-07-28" }): it refused protocol version 2026-07-28 twice with -32022, though it lists it. A legacy server needs versionNegotiation "auto"',
    );
    await app.close();
  });

  it("a -32022 that breaks the schema is a modern server at fault: no fallback to initialize (strict), and with strict: false no list is no way on", async () => {
    const strict = track(mcpShell(`${zoo("discover-refused-badly")} null`));
    const broken = (await strict.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(broken).toBeInstanceOf(ProtocolError);
    expect(broken.message).toContain(
      "The server speaks MCP 2026-07-28 (it answered server/discover with error -32022, which only that revision has), but the error breaks the MCP 2026-07-28 schema at $.error.data.requested",
    );
    expect(broken.message).toContain("so the driver did not fall back to initialize");
    expect(sentRequests(strict).map((request) => request.method)).toEqual(["server/discover"]);
    await strict.close();
    const lax = track(mcpShell(`${zoo("discover-refused-badly")} nolist`, { strict: false }));
    const noList = (await lax.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(noList.message).toContain(
      'with -32022 "Unsupported protocol version" but its error lists no versions in data.supported (got data {"requested":"2026-07-28"}): a -32022 must list the versions the server speaks',
    );
    await lax.close();
  });

  it("only versions mcp-testkit does not know listed: fails saying so, not that the server refused a modern client", async () => {
    const app = track(mcpShell(alwaysRefused("2027-01-01")));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error.message).toContain(
      'The server refused protocol version 2026-07-28 (versionNegotiation "auto") with -32022 "Unsupported protocol version" and lists ["2027-01-01"], none of which mcp-testkit speaks (it knows 2024-11-05',
    );
    expect(error.message).not.toContain("speaks the modern era");
    await app.close();
  });
});

describe("auto against legacy servers falls back to initialize", () => {
  it("a zoo server answering -32601 to server/discover: initialize follows, the reason is kept", async () => {
    const app = track(mcpShell(zoo("errors")));
    await app.initialize();
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(app.fallbackReason).toMatch(/server\/discover failed: .*-32601/);
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "initialize"]);
    expect(sentRequests(app)[1]!.params?._meta).toBeUndefined();
    await app.close();
  });

  it("our mock serving only 2025-11-25 (memory): server/discover refused with -32022 listing only legacy versions, so initialize follows", async () => {
    await using mock = await mockMcp({ protocolVersions: ["2025-11-25"], tools: { weather } });
    await using app = mcpAttach(mock.connectInMemory());
    expect((await app.callTool("weather", { city: "Oslo" })).getTextContent()).toBe("sunny");
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(app.fallbackReason).toBe("it refused 2026-07-28 and serves 2025-11-25 through initialize");
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "initialize", "tools/call"]);
    expect(mock.calls[0]).toMatchObject({ tool: "weather", protocolVersion: "2025-11-25" });
  });

  it("a pin against our mock serving only 2025-11-25 fails, saying the server does not speak 2026-07-28 (not that it refused a modern client)", async () => {
    await using mock = await mockMcp({ protocolVersions: ["2025-11-25"], tools: { weather } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: { pin: MODERN } });
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('The server does not speak MCP 2026-07-28 (versionNegotiation { pin: "2026-07-28" }): it refused 2026-07-28 and serves 2025-11-25 through initialize.');
    expect(error.message).not.toContain("speaks the modern era");
    expect(app.era).toBeUndefined();
  });

  it("a pin against a legacy server fails with an error that says so", async () => {
    const app = track(mcpShell(zoo("errors"), { versionNegotiation: { pin: MODERN } }));
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/does not speak MCP 2026-07-28.*versionNegotiation "auto"/s);
    await app.close();
  });

  it("a server that exits at once fails the probe with ProcessFailedToStart (no fallback to a dead process)", async () => {
    const app = track(mcpShell(zoo("exits-immediately")));
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect(error.message).toContain("exited before answering server/discover");
    await app.close();
  });

  it("a URL where nothing listens fails the probe with the connection error", async () => {
    const port = await freePort();
    const app = track(mcpConnect(`http://127.0.0.1:${port}/mcp`));
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toContain(
      `Nothing answered at http://127.0.0.1:${port}/mcp (connection refused), so server/discover (id 1) was not sent. Is the server running, on this port? Detail: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(error).toMatchObject({ sendFailure: "nothingListening", url: `http://127.0.0.1:${port}/mcp` });
    await app.close();
  });
});

describe("a 2026-07-28 server whose results break the schema (strict validation)", () => {
  const omits = (method: string, field: string) => `${zoo("modern-omits")} ${method} ${field}`;

  for (const versionNegotiation of ["auto", { pin: MODERN }] as const) {
    it(`${JSON.stringify(versionNegotiation)}: a DiscoverResult without ttlMs fails the connection, naming the path; no fallback to initialize`, async () => {
      // A short timeout, so a driver that wrongly falls back fails fast on the initialize nobody answers.
      const app = track(mcpShell(omits("server/discover", "ttlMs"), { versionNegotiation, requestTimeout: 2000 }));
      const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      // The first line stands alone: what the server speaks, the first problem's path, no fallback.
      expect(error.message.split("\n")[0]).toMatch(
        /^\[mcp-testkit\] The server speaks MCP 2026-07-28 \(its server\/discover answer is a DiscoverResult \(supportedVersions \["2026-07-28"\]\)\), but that answer breaks the MCP 2026-07-28 schema at \$\.result\.ttlMs \(.+\), so the driver did not fall back to initialize\.$/,
      );
      expect(error.problems.map((problem) => problem.path)).toContain("$.result.ttlMs");
      expect(error.method).toBe("server/discover");
      expect(app.era).toBeUndefined();
      expect(app.fallbackReason).toBeUndefined();
      expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover"]);
      await app.close();
    });
  }

  it("with strict off, the same DiscoverResult without ttlMs is taken as modern (its problems recorded, not thrown)", async () => {
    const app = track(mcpShell(omits("server/discover", "ttlMs"), { strict: false }));
    expect((await app.callTool("echo")).getTextContent()).toBe("ok");
    expect(app.era).toBe("modern");
    await app.close();
  });

  it("with strict off, a DiscoverResult without supportedVersions still fails (it cannot be used), naming the path; no fallback", async () => {
    const app = track(mcpShell(omits("server/discover", "supportedVersions"), { strict: false, requestTimeout: 2000 }));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message.split("\n")[0]).toBe(
      "[mcp-testkit] The server speaks MCP 2026-07-28 (its server/discover answer is a DiscoverResult), but that answer breaks the MCP 2026-07-28 schema at $.result.supportedVersions (expected an array of version strings; got nothing), so the driver did not fall back to initialize.",
    );
    expect(error.problems).toEqual([{ path: "$.result.supportedVersions", message: "expected an array of version strings; got nothing", rule: "result.shape" }]);
    expect(error.message).not.toContain("strict: false");
    expect(app.fallbackReason).toBeUndefined();
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover"]);
    await app.close();
  });

  it("tools/call without resultType fails the call with a ProtocolError naming $.result.resultType", async () => {
    const app = track(mcpShell(omits("tools/call", "resultType")));
    const error = (await app.callTool("echo").catch((e: unknown) => e)) as ProtocolError;
    expect(app.era).toBe("modern");
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.method).toBe("tools/call");
    expect(error.problems.map((problem) => problem.path)).toContain("$.result.resultType");
    expect(error.message).toMatch(/breaks the MCP 2026-07-28 schema:[\s\S]*\$\.result\.resultType/);
    await app.close();
  });

  for (const field of ["ttlMs", "cacheScope"]) {
    it(`tools/list without ${field} fails the list with a ProtocolError naming $.result.${field}`, async () => {
      const app = track(mcpShell(omits("tools/list", field)));
      const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
      expect(app.era).toBe("modern");
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.method).toBe("tools/list");
      expect(error.problems.map((problem) => problem.path)).toContain(`$.result.${field}`);
      expect(error.message).toContain(`$.result.${field}`);
      await app.close();
    });
  }
});

describe("auto over Streamable HTTP: modern where the server speaks it, initialize where it does not", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** An MCP server as a user builds it with the official SDK v1: `McpServer` behind its Streamable HTTP transport, with sessions. */
  async function sdkV1Server(): Promise<string> {
    const server = new McpServer({ name: "sdk-v1", version: "1.0.0" });
    server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    const http = await serveWebHandler((request) => transport.handleRequest(request));
    closers.push(
      () => server.close(),
      () => http.close(),
    );
    return http.url;
  }

  it("our mock (both eras): modern, no fallback, no session", async () => {
    await using mock = await mockMcp({ tools: { weather } });
    const app = track(mcpConnect(mock.url!));
    expect((await app.callTool("weather", { city: "Oslo" })).getTextContent()).toBe("sunny");
    expect(app.era).toBe("modern");
    expect(app.protocolVersion).toBe(MODERN);
    expect(app.fallbackReason).toBeUndefined();
    expect(app.sessionId).toBeUndefined();
    // tools/list (for the Mcp-Param-* headers) and subscriptions/listen (list changes) may come too: never initialize.
    const methods = sentRequests(app).map((request) => request.method);
    expect(methods[0]).toBe("server/discover");
    expect(methods).toContain("tools/call");
    expect(methods).not.toContain("initialize");
    expect(mock.calls[0]).toMatchObject({ tool: "weather", protocolVersion: MODERN });
    await app.close();
  });

  it("our mock serving only 2025-11-25: the 400 -32022 listing only legacy versions makes it fall back to initialize, with a session", async () => {
    await using mock = await mockMcp({ protocolVersions: ["2025-11-25"], tools: { weather } });
    const app = track(mcpConnect(mock.url!));
    expect((await app.callTool("weather", { city: "Oslo" })).getTextContent()).toBe("sunny");
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(app.fallbackReason).toBe("it refused 2026-07-28 and serves 2025-11-25 through initialize");
    expect(app.sessionId).toBeTypeOf("string");
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "initialize", "tools/call"]);
    expect(mock.calls[0]).toMatchObject({ tool: "weather", protocolVersion: "2025-11-25" });
    await app.close();
  });

  it("an SDK v1 server: its 400 to a request before initialize makes it fall back to initialize", async () => {
    const url = await sdkV1Server();
    const app = track(mcpConnect(url));
    expect((await app.callTool("add", { a: 2, b: 3 })).getTextContent()).toBe("5");
    expect(app.era).toBe("legacy");
    expect(app.serverInfo).toMatchObject({ name: "sdk-v1" });
    expect(app.fallbackReason).toMatch(/^server\/discover failed: .*Bad Request: Server not initialized/s);
    expect(app.sessionId).toBeTypeOf("string");
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "initialize", "tools/call"]);
    await app.close();
  });
});

describe("a call aborted before it goes out, or while its input is being answered (MRTR), never runs on the server", () => {
  it.each([
    ["legacy", "legacy" as const],
    ["2026-07-28", { pin: MODERN }],
  ])("an already aborted signal (%s): rejects at once, nothing is sent, the tool never runs", async (_era, versionNegotiation) => {
    await using mock = await mockMcp({ tools: { deploy: { returns: "deployed" } } });
    await using app = mcpConnect(mock.url!, { versionNegotiation });
    await app.initialize();
    await expect(app.callTool("deploy", {}, { signal: AbortSignal.abort(new Error("the user said no")) })).rejects.toThrow(
      /^\[mcp-testkit\] tools\/call "deploy" was aborted \(the user said no\) before it was sent; nothing was sent to the server\.$/,
    );
    expect(mock.calls).toEqual([]);
    expect(app.messages.filter((record) => record.direction === "outgoing" && record.method !== "tools/list" && record.method !== "subscriptions/listen").map((record) => record.method)).toEqual(
      _era === "legacy" ? ["initialize", "notifications/initialized"] : ["server/discover"],
    );
  });

  it("aborted while onElicitation is still deciding: rejects at the abort, and the retry that would run the tool is not sent", async () => {
    let deployed = false;
    await using mock = await mockMcp({
      transport: "memory",
      tools: {
        deploy: async (call) => {
          const answer = await call.elicit({ message: "Deploy?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
          deployed = answer.action === "accept";
          return { returns: "deployed" };
        },
      },
    });
    let decide!: () => void;
    const decided = new Promise<void>((resolve) => (decide = resolve));
    await using app = mcpAttach(mock.connectInMemory(), {
      onElicitation: async () => {
        await decided;
        return { action: "accept", content: { ok: true } };
      },
    });
    const controller = new AbortController();
    const call = app.callTool("deploy", {}, { signal: controller.signal });
    await vi.waitFor(
      () => expect(app.messages.some((record) => record.direction === "incoming" && (record.content as { result?: { resultType?: string } }).result?.resultType === "input_required")).toBe(true),
      { timeout: 2000 },
    );
    controller.abort(new Error("the user cancelled the deploy"));
    await expect(call).rejects.toThrow(/tools\/call "deploy" was aborted \(the user cancelled the deploy\) while its input was being answered; the retry was not sent/);
    decide();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(deployed).toBe(false);
    expect(app.messages.filter((record) => record.direction === "outgoing" && record.method === "tools/call")).toHaveLength(1);
  });
});

describe("the call's own timeout, signal and close() bound everything it waits on in 2026-07-28", () => {
  const ask = async (call: ToolCallContext) => ({ returns: `ok ${(await call.elicit({ message: "Go?", requestedSchema: { type: "object", properties: {} } })).action}` });

  it("an onElicitation that never answers: the call fails at its timeoutMs, saying the handler was too slow; close() ends such a wait too", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { ask } });
    let asked = 0;
    await using app = mcpAttach(mock.connectInMemory(), {
      onElicitation: () => {
        asked++;
        return new Promise(() => undefined);
      },
    });
    await expect(app.callTool("ask", {}, { timeoutMs: 200 })).rejects.toThrow(
      /tools\/call "ask": the answer to the server's input request \(elicitation\/create\) took longer than 200 ms, the call's timeout; the retry was not sent\. Make the handler \(onElicitation, onSampling\) answer sooner, or pass \{ timeoutMs \} to this call\./,
    );
    const pending = app.callTool("ask", {}, { timeoutMs: 60_000 });
    await vi.waitFor(() => expect(asked).toBe(2), { timeout: 2000 });
    await app.close();
    await expect(pending).rejects.toThrow(/tools\/call "ask" was aborted \(the driver was closed\) while its input was being answered/);
  });

  it("a handler still deciding when its round times out is told: its context.signal aborts with the call's failure", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { ask } });
    let handlerSignal: AbortSignal | undefined;
    await using app = mcpAttach(mock.connectInMemory(), {
      onElicitation: (_params, context) => {
        handlerSignal = context.signal;
        return new Promise(() => undefined);
      },
    });
    const failed = await app.callTool("ask", {}, { timeoutMs: 100 }).catch((error: unknown) => error);
    expect(String(failed)).toMatch(/took longer than 100 ms, the call's timeout/);
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toBe(failed);
  });

  it("a requestTimeout past what a timer holds (2^31 ms) is refused: Node would fire it at once, failing every request, the rounds and the tool listing at once", async () => {
    await using mock = await mockMcp({ tools: { ask, t: { returns: "fine" } } });
    expect(() => mcpConnect(mock.url!, { versionNegotiation: { pin: MODERN }, requestTimeout: 2 ** 31 })).toThrow(
      '"requestTimeout" must be a number of ms from 1 to 2147483647, got number 2147483648.',
    );
    const onElicitation = async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { action: "accept" as const, content: {} };
    };
    await using app = mcpConnect(mock.url!, { versionNegotiation: { pin: MODERN }, requestTimeout: 2 ** 31 - 1, onElicitation });
    expect((await app.callTool("t")).getTextContent()).toBe("fine");
    expect((await app.callTool("ask")).getTextContent()).toBe("ok accept");
  });

  it("over HTTP, listing the tools for the Mcp-Param headers is bounded by the call's timeoutMs and signal", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { weather } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The mock's own endpoint, except that tools/list is never answered until the test ends.
    const server = await serveWebHandler(async (request) => {
      if (request.headers.get("mcp-method") === "tools/list") await released;
      return await mock.fetch(request);
    });
    try {
      await using app = mcpConnect(server.url, { requestTimeout: 5000 });
      await app.initialize();
      // Each error names its own bound (200 ms, the abort), not the 5 s request timeout.
      await expect(app.callTool("weather", { city: "Oslo", days: 1 }, { timeoutMs: 200 })).rejects.toThrow(
        /tools\/call "weather" got no response within 200 ms: it was still listing the tools for its Mcp-Param headers \(nothing was sent yet\)/,
      );
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("the user gave up")), 100);
      await expect(app.callTool("weather", { city: "Oslo", days: 1 }, { signal: controller.signal })).rejects.toThrow(/tools\/call "weather" was aborted \(the user gave up\) before it was sent/);
      expect(mock.calls).toEqual([]);
    } finally {
      release();
      await server.close();
    }
  });

  it("after tools/list_changed a call lists again, so its Mcp-Param headers follow the new schema", async () => {
    await using mock = await mockMcp({ tools: { query: { inputSchema: { type: "object", properties: { region: { type: "string" } } }, responses: [{ returns: "ran" }] } } });
    await using app = mcpConnect(mock.url!);
    expect((await app.callTool("query", { region: "eu" })).getTextContent()).toBe("ran");
    await mock.setTool("query", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } }, responses: [{ returns: "ran again" }] });
    await app.waitForNotification("notifications/tools/list_changed");
    // The mock enforces the header: with the old schema this call would get 400 -32020.
    expect((await app.callTool("query", { region: "eu" })).getTextContent()).toBe("ran again");
  });
});

describe("progress after an MRTR round", () => {
  it("goes with the retry's own progress token, so the client still hears it", async () => {
    await using mock = await mockMcp({
      transport: "memory",
      tools: {
        slow: async (call) => {
          call.progress(1, 2, "before asking");
          await call.elicit({ message: "Go on?", requestedSchema: { type: "object", properties: {} } });
          call.progress(2, 2, "after the answer");
          return { returns: "done" };
        },
      },
    });
    await using app = mcpAttach(mock.connectInMemory(), { onElicitation: () => ({ action: "accept", content: {} }) });
    const heard: string[] = [];
    expect((await app.callTool("slow", {}, { onProgress: (progress) => heard.push(String(progress.message)) })).getTextContent()).toBe("done");
    expect(app.era).toBe("modern");
    expect(heard).toEqual(["before asking", "after the answer"]);
  });
});

describe("a 2026-07-28 response stream that ends without its answer (HTTP)", () => {
  it("fails the call at once with ConnectionClosedError saying so, not at its timeout", async () => {
    await using mock = await mockMcp({
      tools: {
        cut: async (call) => {
          call.progress(1, 2); // the answer becomes an event stream
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { disconnect: true };
        },
        ok: { returns: "fine" },
      },
    });
    await using app = mcpConnect(mock.url!, { versionNegotiation: { pin: MODERN }, requestTimeout: 10_000 });
    // ConnectionClosedError, not the 10 s request timeout's error.
    const failure = await app.callTool("cut", {}, { onProgress: () => undefined }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectionClosedError);
    expect((failure as Error).message).toMatch(
      /tools\/call "cut" \(id \d+\) got no answer: the (server ended the response stream|response stream broke \(.*\)) before the response came\. In 2026-07-28 a lost request is not resumed; send it again/,
    );
    // The driver goes on: the next call is a new request.
    expect((await app.callTool("ok")).getTextContent()).toBe("fine");
  });
});

describe("an input handler that breaks its own contract", () => {
  it.each(["auto", "legacy"] as const)("%s: a handler that returns nothing, or no action, fails the call saying what it returned and what was expected", async (versionNegotiation) => {
    const ask = async (call: ToolCallContext) => ({ returns: String((await call.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action) });
    await using mock = await mockMcp({ transport: "memory", tools: { ask } });
    await using forgot = mcpAttach(mock.connectInMemory(), { versionNegotiation, onElicitation: (() => undefined) as never });
    await expect(forgot.callTool("ask")).rejects.toThrow(
      /onElicitation returned undefined; expected a result object \(did it forget to return\?\)\. For example: onElicitation: \(params\) => \(\{ action: \\?"accept/,
    );
    await using empty = mcpAttach(mock.connectInMemory(), { versionNegotiation, onElicitation: (() => ({})) as never });
    await expect(empty.callTool("ask")).rejects.toThrow(/onElicitation returned \{\}; expected \{ action: \\?"accept\\?" \| \\?"decline\\?" \| \\?"cancel\\?", content\? \}/);
  });
});

describe("auto against a 2026-07-28-only server that is slow to start", () => {
  it("server/discover times out, initialize is refused with -32022 listing 2026-07-28: the driver asks server/discover again and speaks 2026-07-28", async () => {
    const app = track(mcpShell(zoo("modern-discover-slow") + " once", { requestTimeout: 1000 }));
    expect((await app.discover()).supportedVersions).toEqual([MODERN]);
    expect(app.era).toBe("modern");
    expect(app.fallbackReason).toBeUndefined();
    expect(sentRequests(app).map((request) => request.method)).toEqual(["server/discover", "initialize", "server/discover", "server/discover"]);
  });

  it("over HTTP too, where initialize's refusal is a 400 with the -32022 in its body: the driver asks server/discover again", async () => {
    await using mock = await mockMcp({ transport: "memory", protocolVersions: [MODERN], tools: { t: { returns: "x" } } });
    let discovers = 0;
    const slowFirst = await serveWebHandler(async (request) => {
      // The first server/discover is answered after the client's 1000 ms, as by a server still starting.
      if ((await request.clone().text()).includes('"server/discover"') && discovers++ === 0) await new Promise((resolve) => setTimeout(resolve, 1500));
      return await mock.fetch(request);
    });
    try {
      await using app = mcpConnect(slowFirst.url, { requestTimeout: 1000 });
      expect((await app.callTool("t")).getTextContent()).toBe("x");
      expect(app.era).toBe("modern");
      expect(
        sentRequests(app)
          .map((request) => request.method)
          .slice(0, 3),
      ).toEqual(["server/discover", "initialize", "server/discover"]);
    } finally {
      await slowFirst.close();
    }
  });

  it("still too slow the second time: the error says discover went unanswered twice and to raise requestTimeout", async () => {
    const app = track(mcpShell(zoo("modern-discover-slow"), { requestTimeout: 1000 }));
    await expect(app.initialize()).rejects.toThrow(
      /server\/discover got no answer within 1000 ms, twice, so versionNegotiation "auto" fell back to initialize, which this 2026-07-28 server refuses: it is likely slow to start\. Raise requestTimeout\./,
    );
  });
});
