/**
 * Real peers on every wire: the SDK v2 client pinned and in auto mode over stdio (the CLI
 * `mcp-testkit mock --stdio`, which SDK v2 spawns twice: a probe, then the session) and in
 * process (the mock's `fetch` as the client transport's fetch); SDK v1 and v2 clients on the
 * same mock at once, each in its own era.
 */
import { describe, expect, it } from "vitest";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mockMcp } from "../../src/index.js";
import { CLI, scratchFile, useCli } from "../cli/support.js";
import { sdkClient, serve, track, useCleanup } from "../wire/support/http.js";
import { MODERN, useV2Cleanup, v2Client, v2Http } from "./support.js";

useCli();
useCleanup();
useV2Cleanup();

const scenario = () => scratchFile("modern.json", JSON.stringify({ tools: { echo: { responses: [{ returns: "pong" }] } } }));

describe("SDK v2 client over stdio (mcp-testkit mock --stdio)", () => {
  for (const negotiation of [{ pin: MODERN }, "auto"] as const) {
    it(`speaks 2026-07-28 (${JSON.stringify(negotiation)}), the probe process exiting cleanly`, async () => {
      const client = v2Client({ negotiation });
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "--stdio", scenario()], stderr: "pipe" });
      await client.connect(transport);
      expect(client.getProtocolEra?.()).toBe("modern");
      const result = await client.callTool({ name: "echo", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "pong" }]);
      const child = transport.pid;
      expect(child).toBeTypeOf("number");
      await client.close();
    }, 20_000);
  }
});

describe("SDK v2 client in process (server.fetch as its transport's fetch)", () => {
  it("needs no socket: discover, call, MRTR", async () => {
    const server = track(await mockMcp({ transport: "memory", tools: { ask: async (call) => ({ returns: String(((await call.elicit({ message: "n?", requestedSchema: { type: "object", properties: {} } })) as { action: string }).action) }) } }));
    const client = v2Client({ capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
    await client.connect(new StreamableHTTPClientTransport(new URL("http://in-process.invalid/mcp"), { fetch: server.fetch as never }));
    expect(client.getProtocolEra?.()).toBe("modern");
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "decline" }]);
    expect(server.calls.map((call) => [call.protocolVersion, call.outcome])).toEqual([[MODERN, "result"]]);
  });
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
