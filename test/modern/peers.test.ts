/**
 * Real peers on every wire: the SDK v2 client pinned and in auto mode over stdio (the CLI
 * `mcp-testkit mock --stdio`, which SDK v2 spawns twice: a probe, then the session; MRTR there
 * with a module scenario's step function, checked in the `--record` call record), in
 * process (the mock's `fetch` as the client transport's fetch) and on the memory wire; SDK v1 and v2 clients on the
 * same mock at once, each in its own era.
 */
import { describe, expect, it } from "vitest";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mockMcp } from "../../src/index.js";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { CLI, scratchFile, until, useCli } from "../cli/support.js";
import { sdkClient, serve, track, useCleanup } from "../wire/support/http.js";
import { MODERN, useV2Cleanup, v2Client, v2Http } from "./support.js";

useCli();
useCleanup();
useV2Cleanup();

const scenario = (name: string) => scratchFile(name, JSON.stringify({ tools: { echo: { responses: [{ returns: "pong" }] } } }));

/** The processes whose command line serves `file` (ps; loopback tests only run on Linux/macOS). */
function mocksServing(file: string): string[] {
  return execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(file));
}

describe("SDK v2 client over stdio (mcp-testkit mock --stdio)", () => {
  for (const negotiation of [{ pin: MODERN }, "auto"] as const) {
    it(`speaks 2026-07-28 (${JSON.stringify(negotiation)}), the probe process exiting cleanly`, async () => {
      const client = v2Client({ negotiation });
      const file = scenario(`modern-${typeof negotiation === "string" ? negotiation : "pin"}.json`);
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "--stdio", file], stderr: "pipe" });
      await client.connect(transport);
      expect(client.getProtocolEra?.()).toBe("modern");
      const result = await client.callTool({ name: "echo", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "pong" }]);
      expect(transport.pid).toBeTypeOf("number");
      expect(mocksServing(file).length).toBeGreaterThanOrEqual(1);
      await client.close();
      // Both processes (the probe and the session) are gone once stdin closed.
      await until(() => mocksServing(file).length === 0, "every mock --stdio process to exit", 5000);
    }, 20_000);
  }
});

describe("MRTR over stdio (mcp-testkit mock --stdio, a step function that elicits)", () => {
  it("the client answers the elicitation through its handler; the mock records one call with its exchange", async () => {
    // A module scenario, so the step can be a function; --record writes the call record when the mock stops.
    const file = scratchFile(
      "mrtr-stdio.mjs",
      `export default { tools: { greet: async (call) => {
  const answer = await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
  return { returns: "hello " + answer.content.name };
} } };\n`,
    );
    const record = scratchFile("mrtr-stdio-record.json");
    const client = v2Client({ capabilities: { elicitation: { form: {} } } });
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Ada" } };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "--stdio", file, "--record", record], stderr: "pipe" }));
    expect(client.getProtocolEra?.()).toBe("modern");
    const result = await client.callTool({ name: "greet", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(asked).toMatchObject([{ message: "Name?" }]);
    await client.close();
    // The record is written as the session's process stops (after the probe's, which made no call).
    await until(() => mocksServing(file).length === 0, "every mock --stdio process to exit", 5000);
    const { calls, messages } = JSON.parse(readFileSync(record, "utf8")) as { calls: Record<string, unknown>[]; messages: Record<string, any>[] };
    // MRTR, not a server request on the stream: the client retried tools/call with its answer, and sent no response.
    const toolCalls = messages.filter((message) => message.method === "tools/call");
    expect(toolCalls).toHaveLength(2);
    expect(toolCalls[1]!.params).toMatchObject({
      requestState: expect.any(String),
      inputResponses: { "elicitation-1": { action: "accept" } },
      _meta: { "io.modelcontextprotocol/protocolVersion": MODERN },
    });
    expect(messages.filter((message) => message.method === undefined)).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      tool: "greet",
      outcome: "result",
      protocolVersion: MODERN,
      exchanges: [{ method: "elicitation/create", params: { message: "Name?" }, result: { action: "accept", content: { name: "Ada" } } }],
    });
    expect(calls[0]!.exchanges).toHaveLength(1);
  }, 20_000);
});

describe("SDK v2 client in process (server.fetch as its transport's fetch)", () => {
  it("needs no socket: discover, call, MRTR", async () => {
    const server = track(
      await mockMcp({
        transport: "memory",
        tools: { ask: async (call) => ({ returns: String(((await call.elicit({ message: "n?", requestedSchema: { type: "object", properties: {} } })) as { action: string }).action) }) },
      }),
    );
    const client = v2Client({ capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
    await client.connect(new StreamableHTTPClientTransport(new URL("http://in-process.invalid/mcp"), { fetch: server.fetch as never }));
    expect(client.getProtocolEra?.()).toBe("modern");
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "decline" }]);
    expect(server.calls.map((call) => [call.protocolVersion, call.outcome])).toEqual([[MODERN, "result"]]);
  });
});

describe("SDK v2 client on the memory wire (connectInMemory)", () => {
  for (const negotiation of [{ pin: MODERN }, "auto"] as const) {
    it(`speaks 2026-07-28 (${JSON.stringify(negotiation)}), MRTR through its handler`, async () => {
      const server = track(await mockMcp({ transport: "memory", tools: { roots: async (call) => ({ returns: (await call.listRoots()).map((root) => root.uri).join(",") }) } }));
      const client = v2Client({ negotiation, capabilities: { roots: {} } });
      client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///a" }] }));
      await client.connect((await server.connectInMemory()) as never);
      expect(client.getProtocolEra?.()).toBe("modern");
      const result = await client.callTool({ name: "roots", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "file:///a" }]);
      expect(server.calls.map((call) => [call.protocolVersion, call.outcome, call.exchanges.length])).toEqual([[MODERN, "result", 1]]);
    });
  }
});

describe("both eras on one mock at once", () => {
  it("an SDK v1 client (initialize, session) and an SDK v2 client (per request) share one scenario", async () => {
    const server = await serve({ tools: { count: (call) => ({ returns: `call ${call.index} in ${call.protocolVersion}` }) } });
    const { client: v1, transport } = await sdkClient(server.url);
    const v2 = await v2Http(server.url);
    const legacy = await v1.callTool({ name: "count", arguments: {} });
    const modern = await v2.callTool({ name: "count", arguments: {} });
    expect(legacy.content).toEqual([{ type: "text", text: "call 0 in 2025-11-25" }]);
    expect(modern.content).toEqual([{ type: "text", text: "call 1 in 2026-07-28" }]);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(server.calls.map((call) => call.protocolVersion)).toEqual(["2025-11-25", MODERN]);
    // The legacy client still negotiated what it asked for: initialize never picks 2026-07-28.
    expect(v1.getServerVersion()).toMatchObject({ name: "mcp-testkit" });
  });
});
