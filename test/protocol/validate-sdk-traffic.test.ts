/**
 * Real traffic: every message the official SDK's McpServer and Client exchange (both directions,
 * every method family we can drive) validates with zero problems under 2025-11-25.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { validateMessage, type MessageDirection } from "../../src/protocol/index.js";

interface Captured {
  direction: MessageDirection;
  message: JSONRPCMessage;
}

const png = Buffer.from("not really a png").toString("base64");
const wav = Buffer.from("not really audio").toString("base64");

function capture(transport: InMemoryTransport, direction: MessageDirection, log: Captured[]): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    // A copy as JSON, so later mutation by the SDK cannot change what we validate.
    log.push({ direction, message: JSON.parse(JSON.stringify(message)) as JSONRPCMessage });
    return send(message, options);
  };
}

function buildServer(): McpServer {
  const server = new McpServer(
    { name: "traffic-server", version: "1.0.0", title: "Traffic server" },
    { capabilities: { logging: {}, resources: { subscribe: true } }, instructions: "Use the tools." },
  );
  server.registerTool(
    "weather",
    {
      title: "Weather",
      description: "Current weather",
      inputSchema: { city: z.string() },
      outputSchema: { celsius: z.number() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ city }, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "asking" } });
      }
      return { content: [{ type: "text", text: `${city}: 21` }], structuredContent: { celsius: 21 } };
    },
  );
  server.registerTool("media", { description: "Every content type" }, async () => ({
    content: [
      { type: "text", text: "hello", annotations: { audience: ["user"], priority: 0.5 } },
      { type: "image", data: png, mimeType: "image/png" },
      { type: "audio", data: wav, mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "notes://today", mimeType: "text/plain", text: "Ship it." } },
      { type: "resource", resource: { uri: "files:///logo.png", mimeType: "image/png", blob: png } },
      { type: "resource_link", uri: "notes://today", name: "today", mimeType: "text/plain" },
    ],
  }));
  server.registerTool("fails", { description: "Always a tool error" }, async () => ({ content: [{ type: "text", text: "no" }], isError: true }));
  // Without an inputSchema the SDK passes only `extra`.
  server.registerTool(
    "slow",
    { description: "Waits until cancelled" },
    (extra) =>
      new Promise<CallToolResult>((resolve) => {
        extra.signal.addEventListener("abort", () => resolve({ content: [] }));
      }),
  );
  server.registerResource("today", "notes://today", { title: "Today", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "Ship it." }],
  }));
  server.registerResource(
    "note",
    new ResourceTemplate("notes://{day}", { list: undefined, complete: { day: (value) => ["monday", "tuesday"].filter((d) => d.startsWith(value)) } }),
    { description: "A day's notes" },
    async (uri) => ({ contents: [{ uri: uri.href, blob: png, mimeType: "application/octet-stream" }] }),
  );
  server.registerPrompt(
    "greet",
    { title: "Greet", description: "Say hello", argsSchema: { name: completable(z.string(), (value) => ["Ada", "Alan"].filter((n) => n.startsWith(value))) } },
    ({ name }) => ({
      description: "A greeting",
      messages: [
        { role: "user", content: { type: "text", text: `Hello ${name}` } },
        { role: "assistant", content: { type: "resource", resource: { uri: "notes://today", text: "Ship it." } } },
      ],
    }),
  );
  server.server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
  return server;
}

function buildClient(): Client {
  const client = new Client({ name: "traffic-client", version: "2.0.0" }, { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "Sunny." },
    model: "test-model",
    stopReason: "endTurn",
  }));
  client.setRequestHandler(ElicitRequestSchema, async (request) => (request.params.mode === "url" ? { action: "decline" } : { action: "accept", content: { city: "Oslo", days: 3 } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  return client;
}

describe("official SDK traffic validates under 2025-11-25", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0)) await close();
  });

  it("has zero problems in every message, both directions", async () => {
    const log: Captured[] = [];
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    capture(clientTransport, "client-to-server", log);
    capture(serverTransport, "server-to-client", log);
    const server = buildServer();
    const client = buildClient();
    cleanup.push(
      () => client.close(),
      () => server.close(),
    );
    await server.connect(serverTransport);
    await client.connect(clientTransport);

    // Client → server requests and notifications.
    await client.ping();
    await client.listTools();
    await client.callTool({ name: "weather", arguments: { city: "Oslo" } }, undefined, { onprogress: () => {} });
    await client.callTool({ name: "media", arguments: {} });
    await client.callTool({ name: "fails", arguments: {} });
    await client.callTool({ name: "missing-tool", arguments: {} });
    await client.listResources();
    await client.listResourceTemplates();
    await client.readResource({ uri: "notes://today" });
    await client.readResource({ uri: "notes://monday" });
    await client.subscribeResource({ uri: "notes://today" });
    await client.unsubscribeResource({ uri: "notes://today" });
    await client.listPrompts();
    await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    await expect(client.getPrompt({ name: "no-such-prompt" })).rejects.toThrow();
    await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    await client.complete({ ref: { type: "ref/resource", uri: "notes://{day}" }, argument: { name: "day", value: "m" } });
    await client.setLoggingLevel("info");
    await client.sendRootsListChanged();
    const aborted = new AbortController();
    const slow = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: aborted.signal });
    aborted.abort("test is done waiting");
    await expect(slow).rejects.toThrow();

    // Server → client requests and notifications.
    await server.server.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Weather?" } }], maxTokens: 50 });
    await server.server.elicitInput({
      message: "Where?",
      requestedSchema: {
        type: "object",
        properties: {
          city: { type: "string", title: "City", minLength: 1 },
          days: { type: "integer", minimum: 1, default: 1 },
          units: { type: "string", enum: ["metric", "imperial"] },
          metric: { type: "boolean", default: true },
        },
        required: ["city"],
      },
    });
    await server.server.elicitInput({ mode: "url", message: "Sign in", elicitationId: "e-1", url: "https://example.com/login" });
    await server.server.createElicitationCompletionNotifier("e-1")();
    await server.server.listRoots();
    await server.sendLoggingMessage({ level: "info", logger: "traffic", data: { event: "started" } });
    await server.server.sendResourceUpdated({ uri: "notes://today" });
    server.sendResourceListChanged();
    server.sendToolListChanged();
    server.sendPromptListChanged();
    await client.ping(); // flushes the notifications above through the pair

    const requestMethods = new Map<string, string>();
    const report: { direction: MessageDirection; message: unknown; problems: unknown[] }[] = [];
    const seen = new Set<string>();
    for (const { direction, message } of log) {
      let requestMethod: string | undefined;
      if ("method" in message) {
        seen.add(`${direction} ${message.method}`);
        if ("id" in message) requestMethods.set(`${direction}:${message.id}`, message.method);
      } else if ("id" in message) {
        const requestDirection = direction === "client-to-server" ? "server-to-client" : "client-to-server";
        requestMethod = requestMethods.get(`${requestDirection}:${String(message.id)}`);
        seen.add(`${direction} response to ${requestMethod}`);
      }
      const problems = validateMessage(message, { direction, protocolVersion: "2025-11-25", requestMethod });
      if (problems.length > 0) report.push({ direction, message, problems });
    }

    expect(report).toEqual([]);
    // The traffic really covered what we meant to cover.
    expect([...seen].sort()).toEqual(
      [
        "client-to-server initialize",
        "client-to-server notifications/initialized",
        "client-to-server ping",
        "client-to-server tools/list",
        "client-to-server tools/call",
        "client-to-server resources/list",
        "client-to-server resources/templates/list",
        "client-to-server resources/read",
        "client-to-server resources/subscribe",
        "client-to-server resources/unsubscribe",
        "client-to-server prompts/list",
        "client-to-server prompts/get",
        "client-to-server completion/complete",
        "client-to-server logging/setLevel",
        "client-to-server notifications/roots/list_changed",
        "client-to-server notifications/cancelled",
        "server-to-client notifications/progress",
        "server-to-client sampling/createMessage",
        "server-to-client elicitation/create",
        "server-to-client notifications/elicitation/complete",
        "server-to-client roots/list",
        "server-to-client notifications/message",
        "server-to-client notifications/resources/updated",
        "server-to-client notifications/resources/list_changed",
        "server-to-client notifications/tools/list_changed",
        "server-to-client notifications/prompts/list_changed",
        "server-to-client response to initialize",
        "server-to-client response to ping",
        "server-to-client response to tools/list",
        "server-to-client response to tools/call",
        "server-to-client response to resources/list",
        "server-to-client response to resources/templates/list",
        "server-to-client response to resources/read",
        "server-to-client response to resources/subscribe",
        "server-to-client response to resources/unsubscribe",
        "server-to-client response to prompts/list",
        "server-to-client response to prompts/get",
        "server-to-client response to completion/complete",
        "server-to-client response to logging/setLevel",
        "client-to-server response to sampling/createMessage",
        "client-to-server response to elicitation/create",
        "client-to-server response to roots/list",
      ].sort(),
    );
    expect(log.length).toBeGreaterThan(50);
  });
});
