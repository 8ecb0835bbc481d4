/**
 * An answer JSON cannot carry (a BigInt, a cycle), whatever gives it (a prompt's messages, a
 * resource's contents, a completion, a raw `result` step, a step function's answer), on every
 * wire: the official SDK clients get the same -32603 naming the answer and why, the request is
 * answered (never left hanging), and the mock's record of it is the same whatever the wire.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import type { StdioMockOptions } from "../../src/mock/mock-mcp.js";
import { sdkClient, serve, track, trackClient, useCleanup } from "./support/http.js";
import { useV2Cleanup, v2Http } from "../modern/support.js";

useCleanup();
useV2Cleanup();

type Json = Record<string, unknown>;

/** What the SDK v1 and v2 clients have in common, as these tests use it. */
interface AskingClient {
  getPrompt(params: Json, options?: Json): Promise<unknown>;
  readResource(params: Json, options?: Json): Promise<unknown>;
  complete(params: Json, options?: Json): Promise<unknown>;
  callTool(params: Json, schema?: undefined, options?: Json): Promise<unknown>;
}

// Only to end a test that would otherwise hang on an unanswered request: never a check of speed.
const GUARD = { timeout: 10_000 };

interface Source {
  /** What the error names as the answer that failed. */
  answer: string;
  method: string;
  options(value: () => unknown): MockMcpOptions;
  ask(client: AskingClient): Promise<unknown>;
  /** The same request as raw JSON-RPC, for `server.handle()`. */
  params: Json;
}

const SOURCES: [string, Source][] = [
  [
    "a prompt's messages",
    {
      answer: 'prompts/get "greet"',
      method: "prompts/get",
      options: (value) => ({ prompts: { greet: { messages: () => [{ role: "user", content: { type: "text", text: "hi", _meta: { n: value() } } }] } } }),
      ask: (client) => client.getPrompt({ name: "greet" }, GUARD),
      params: { name: "greet" },
    },
  ],
  [
    "a resource's contents",
    {
      answer: 'resources/read "notes://today"',
      method: "resources/read",
      options: (value) => ({ resources: { "notes://today": { read: () => ({ text: "Ship it.", _meta: { n: value() } }) } } }),
      ask: (client) => client.readResource({ uri: "notes://today" }, GUARD),
      params: { uri: "notes://today" },
    },
  ],
  [
    "a completion",
    {
      answer: "completion/complete",
      method: "completion/complete",
      options: (value) => ({ prompts: { greet: { arguments: [{ name: "who" }], messages: [{ role: "user", content: "hi" }], complete: { who: () => [value()] as never } } } }),
      ask: (client) => client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "" } }, GUARD),
      params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "" } },
    },
  ],
  [
    "a raw result step",
    {
      answer: 'tools/call "count"',
      method: "tools/call",
      options: (value) => ({ tools: { count: { result: { content: [], n: value() } } } }),
      ask: (client) => client.callTool({ name: "count" }, undefined, GUARD),
      params: { name: "count" },
    },
  ],
  [
    "a step function's answer",
    {
      answer: 'tools/call "count"',
      method: "tools/call",
      options: (value) => ({ tools: { count: async () => ({ content: [{ type: "text", text: "counted", _meta: { n: value() } }] }) } }),
      ask: (client) => client.callTool({ name: "count" }, undefined, GUARD),
      params: { name: "count" },
    },
  ],
];

function cycle(): Json {
  const loop: Json = { name: "loop" };
  loop.self = loop;
  return loop;
}

const VALUES: [string, () => unknown, string][] = [
  ["a BigInt", () => 10n, "Do not know how to serialize a BigInt"],
  ["a cycle", cycle, "Converting circular structure to JSON --> starting at object with constructor 'Object' --- property 'self' closes the circle"],
];

/** A mock on one wire and an SDK client connected to it. */
type Wire = (options: MockMcpOptions) => Promise<{ server: MockMcpServer; client: AskingClient; answeredAs?: () => string[] }>;

/** How an SDK client words a JSON-RPC error it got: v1 prefixes the code, v2 keeps the server's words. */
const worded = (message: string, wire: string) => (wire.includes("SDK v2") ? message : `MCP error -32603: ${message}`);

const WIRES: [string, Wire][] = [
  [
    "memory",
    async (options) => {
      const server = track(await mockMcp({ ...options, transport: "memory" }));
      const client = trackClient(new Client({ name: "memory-client", version: "1.0.0" }));
      await client.connect(await server.connectInMemory());
      return { server, client: client as unknown as AskingClient };
    },
  ],
  [
    "stdio (the SDK's own stdio framing on the mock's stdio wire)",
    async (options) => {
      const toMock = new PassThrough();
      const fromMock = new PassThrough();
      const stdio: StdioMockOptions = { ...options, transport: "stdio", stdio: { input: toMock, output: fromMock } };
      const server = track(await mockMcp(stdio));
      const client = trackClient(new Client({ name: "stdio-client", version: "1.0.0" }));
      // The SDK's stdio transport reads one stream and writes the other: here it is the client's end.
      await client.connect(new StdioServerTransport(fromMock, toMock));
      return { server, client: client as unknown as AskingClient };
    },
  ],
  ...(["json", "sse"] as const).map((mode): [string, Wire] => [
    `Streamable HTTP, ${mode.toUpperCase()} responses`,
    async (options) => {
      const server = await serve({ ...options, responseMode: mode });
      const seen: { method: string; status: number; contentType: string | null }[] = [];
      const { client } = await sdkClient(server.url, { seen });
      return { server, client: client as unknown as AskingClient, answeredAs: () => seen.filter((entry) => entry.method === "POST" && entry.status === 200).map((entry) => entry.contentType ?? "") };
    },
  ]),
  [
    "Streamable HTTP, 2026-07-28 (SDK v2 client)",
    async (options) => {
      const server = await serve(options);
      const client = await v2Http(server.url);
      return { server, client: client as unknown as AskingClient };
    },
  ],
];

/** What the mock keeps of a request: its `request:end` (method, outcome, error) and, for a tool, its call record. */
function recordOf(server: MockMcpServer, method: string) {
  const ends: Json[] = [];
  server.on("request:end", (event) => {
    if (event.method === method) ends.push({ method: event.method, outcome: event.outcome, error: event.error, errors: event.errors?.length });
  });
  return () => ({ ends, calls: server.calls.map((call) => ({ tool: call.tool, outcome: call.outcome, response: call.response })) });
}

describe.each(SOURCES)("an answer JSON cannot carry, from %s", (_source, source) => {
  it.each(VALUES)("with %s: every wire answers -32603 saying so, and records the same", async (_value, value, reason) => {
    const error = {
      code: -32603,
      message: `Internal error: the answer to ${source.answer} cannot be serialized: ${reason}. JSON carries no BigInt and no cycle: send a BigInt as a number or a string, and break the cycle`,
    };
    const calls = source.method === "tools/call" ? [{ tool: "count", outcome: "protocol-error", response: { error } }] : [];
    const record = { ends: [{ method: source.method, outcome: "error", error, errors: 1 }], calls };

    // The wires side by side: one wire's failure shows beside the others' answers.
    const seen = await Promise.all(
      WIRES.map(async ([wire, open]) => {
        const { server, client, answeredAs } = await open(source.options(value));
        const recorded = recordOf(server, source.method);
        const answered = await source.ask(client).then(
          () => "a result",
          (thrown: { code?: number; message?: string }) => ({ code: thrown.code, message: thrown.message }),
        );
        // The connection still serves the next request.
        const tools = await (client as unknown as { listTools(): Promise<{ tools: { name: string }[] }> }).listTools();
        return { wire, answered, as: answeredAs?.().at(-1), record: recorded(), next: tools.tools.map((tool) => tool.name) };
      }),
    );
    expect(seen).toEqual(
      WIRES.map(([wire]) => ({
        wire,
        answered: { code: -32603, message: worded(error.message, wire) },
        as: wire.includes("SSE") ? "text/event-stream" : wire.includes("JSON") ? "application/json" : undefined,
        record,
        next: source.method === "tools/call" ? ["count"] : [],
      })),
    );

    // Straight through handle(): the same reply text, the same record.
    const direct = await mockMcp({ ...source.options(value), transport: "memory" });
    try {
      const recorded = recordOf(direct, source.method);
      const reply = JSON.parse((await direct.handle(JSON.stringify({ jsonrpc: "2.0", id: 7, method: source.method, params: source.params })))!);
      expect(reply).toEqual({ jsonrpc: "2.0", id: 7, error });
      expect(recorded()).toEqual(record);
    } finally {
      await direct.close();
    }
  });
});
