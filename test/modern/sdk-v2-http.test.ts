/**
 * The official SDK v2 client (2.4.0) against the mock over Streamable HTTP, pinned to 2026-07-28
 * and in auto mode: discovery, lists, calls, MRTR through the client's own handlers, resources,
 * prompts, subscriptions, and the call record naming the era.
 */
import { describe, expect, it, vi } from "vitest";
import { askEverything } from "../support/mrtr-steps.js";
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

describe("MRTR with the SDK v2 client's own handlers", () => {
  it("a step function's elicit, sample and listRoots go out as input requests; the retry resumes the same step, one call recorded", async () => {
    const server = await serve({
      tools: {
        plan: askEverything,
      },
    });
    const client = await v2Http(server.url, { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { city: "Oslo" } }));
    client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", content: { type: "text", text: "rain" }, model: "m" }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work" }] }));
    const result = await client.callTool({ name: "plan", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Oslo / rain / file:///work" }]);
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call!.outcome).toBe("result");
    expect(call!.exchanges.map((exchange) => [exchange.method, exchange.result !== undefined])).toEqual([
      ["elicitation/create", true],
      ["sampling/createMessage", true],
      ["roots/list", true],
    ]);
  });

  it("the same step function in the legacy era (SDK v1 client) sends real requests on the stream", async () => {
    const { sdkClient } = await import("../wire/support/http.js");
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const server = await serve({
      tools: {
        ask: async (call) => ({
          returns: `hi ${((await call.elicit({ message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } })).content as { name: string }).name}`,
        }),
      },
    });
    const { client } = await sdkClient(server.url, { clientOptions: { capabilities: { elicitation: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hi Ada" }]);
    expect(server.calls[0]).toMatchObject({ protocolVersion: "2025-11-25", outcome: "result" });
    expect(server.calls[0]!.exchanges[0]).toMatchObject({ method: "elicitation/create", result: { action: "accept" } });
  });
});

describe("resources, prompts and subscriptions with the SDK v2 client", () => {
  it("reads a resource and gets a prompt; a missing resource is -32602 in 2026-07-28", async () => {
    const server = await serve({ resources: { "notes://today": "Ship it." }, prompts: { greet: { messages: [{ role: "user", content: "Hello" }] } } });
    const client = await v2Http(server.url);
    const read = await client.readResource({ uri: "notes://today" });
    expect(read.contents).toEqual([{ uri: "notes://today", mimeType: "text/plain", text: "Ship it." }]);
    const prompt = await client.getPrompt({ name: "greet" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Hello" } }]);
    await expect(client.readResource({ uri: "notes://missing" })).rejects.toMatchObject({ code: -32602 });
  });

  it("listen(): acknowledged, then list_changed and resources/updated tagged with the subscription; ended by the client", async () => {
    const server = await serve({ resources: { "notes://today": "v1" } });
    const client = await v2Http(server.url);
    const heard: string[] = [];
    client.setNotificationHandler("notifications/tools/list_changed", () => void heard.push("tools"));
    client.setNotificationHandler("notifications/resources/updated", (notification) => void heard.push(`updated ${notification.params.uri}`));
    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["notes://today"] });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["notes://today"] });
    await server.setTool("late", { returns: "x" });
    await server.setResource("notes://today", "v2");
    await vi.waitFor(() => expect(heard).toEqual(["tools", "updated notes://today"]), { timeout: 2000 });
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });

  it("a subscription ended by the mock closes gracefully", async () => {
    const server = await serve({});
    const client = await v2Http(server.url);
    const subscription = await client.listen({ promptsListChanged: true });
    expect(server.endSubscriptions()).toBe(1);
    expect(await subscription.closed).toBe("graceful");
  });
});
