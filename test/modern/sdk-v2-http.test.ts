/**
 * The official SDK v2 client (2.4.0) against the mock over Streamable HTTP, pinned to 2026-07-28
 * and in auto mode: discovery, lists, calls, MRTR through the client's own handlers, resources,
 * prompts, subscriptions, and the call record naming the era.
 */
import { describe, expect, it } from "vitest";
import { serve, useCleanup } from "../wire/support/http.js";
import { MODERN, useV2Cleanup, v2Http } from "./support.js";

useCleanup();
useV2Cleanup();

const weather = { inputSchema: { type: "object", properties: { city: { type: "string" } } }, responses: [{ returns: "sunny" }] };

describe("SDK v2 client over HTTP", () => {
  for (const negotiation of [{ pin: MODERN }, "auto"] as const) {
    it(`speaks 2026-07-28 (${JSON.stringify(negotiation)}): discover, list, call, no session`, async () => {
      const server = await serve({ tools: { weather } });
      const client = await v2Http(server.url, { negotiation });
      expect(client.getProtocolEra?.()).toBe("modern");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["weather"]);
      const result = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
      expect(result.content).toEqual([{ type: "text", text: "sunny" }]);
      expect(server.calls).toHaveLength(1);
      expect(server.calls[0]).toMatchObject({ tool: "weather", arguments: { city: "Oslo" }, protocolVersion: MODERN, outcome: "result" });
    });
  }
});
