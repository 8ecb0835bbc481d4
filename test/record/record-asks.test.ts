/**
 * A recorded server that asks its client something during a call (elicitation, sampling, roots):
 * the recording mock passes each request on to the agent in that call and the agent's answer back
 * to the server, keeps both, and writes the call as a step whose `asks` come first, so the replay
 * asks the agent the same before it gives the recorded answer. Real parts: server-everything
 * (SDK v1, stdio, legacy era) and the SDK v2 server in 2026-07-28 (MRTR rounds), with SDK v1 and
 * SDK v2 clients as the agents.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mcpConnect, mcpShell, mockMcp, recordMcp, type MockMcpServer, type ToolCallContext } from "../../src/index.js";
import { everythingCommand, expectNoProcessLeft, zoo } from "../driver/support.js";
import { MODERN, useV2Cleanup, v2Client } from "../modern/support.js";

useV2Cleanup();
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** An SDK v1 agent that answers elicitation and sampling, and says what it was asked. */
async function legacyAgent(server: MockMcpServer, elicit: () => Record<string, unknown> = () => ({ action: "accept", content: { name: "Ada", check: true } })) {
  const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {}, sampling: {} } });
  const asked: Array<[string, unknown]> = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(["elicitation/create", request.params]);
    return elicit() as never;
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(["sampling/createMessage", request.params]);
    return { role: "assistant", content: { type: "text", text: "It is sunny." }, model: "agent-model" };
  });
  await client.connect(await server.connectInMemory());
  clients.push(client);
  return { client, asked };
}

describe("recording server-everything's elicitation and sampling (stdio, legacy era)", () => {
  it("passes each request on to the agent and its answer back, records both, and the replay asks the same", async () => {
    // The upstream declares what it passes on; server-everything lists these tools only to such a client.
    const upstream = mcpShell(everythingCommand, { capabilities: { elicitation: {}, sampling: {} } });
    try {
      await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
      const { client, asked } = await legacyAgent(recording.server);
      const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "weather?", maxTokens: 20 } });
      expect(JSON.stringify(elicited.content)).toContain("Ada");
      expect(JSON.stringify(sampled.content)).toContain("It is sunny.");
      expect(asked.map(([method]) => method)).toEqual(["elicitation/create", "sampling/createMessage"]);

      const [first, second] = recording.exchanges;
      expect(first).toMatchObject({
        kind: "tool",
        name: "trigger-elicitation-request",
        asks: [{ method: "elicitation/create", params: { message: expect.any(String) }, answer: { result: { action: "accept", content: { name: "Ada" } } } }],
      });
      expect(second).toMatchObject({ kind: "tool", name: "trigger-sampling-request", asks: [{ method: "sampling/createMessage", answer: { result: { model: "agent-model" } } }] });
      const scenario = recording.scenario();
      const calls = (scenario.fixtures as Array<{ tools: Array<{ name: string; calls: Array<Record<string, any>> }> }>)[0]!.tools.map((tool) => tool.calls[0]!);
      // Written as steps whose asks come first; the agent's answers are not written down.
      expect(calls[0]).toMatchObject({ args: {}, step: { asks: [{ method: "elicitation/create", params: asked[0]![1] }], content: elicited.content } });
      expect(calls[0]!.step).not.toHaveProperty("result");
      expect(calls[0]!.step.asks[0]).not.toHaveProperty("answer");
      expect(calls[1]).toMatchObject({ args: { prompt: "weather?", maxTokens: 20 }, step: { asks: [{ method: "sampling/createMessage", params: asked[1]![1] }], content: sampled.content } });

      await using replay = await mockMcp({ transport: "memory", ...(scenario as object) });
      const offline = await legacyAgent(replay, () => ({ action: "decline" }));
      // The replay asks the same, then answers as recorded, whatever the agent says now.
      expect(await offline.client.callTool({ name: "trigger-elicitation-request", arguments: {} })).toEqual(elicited);
      expect(await offline.client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "weather?", maxTokens: 20 } })).toEqual(sampled);
      expect(offline.asked).toEqual(asked);
      expect(replay.calls[0]!.exchanges).toMatchObject([{ method: "elicitation/create", result: { action: "decline" } }]);
    } finally {
      await upstream.close();
      await expectNoProcessLeft(upstream.pid);
    }
  }, 30_000);

  it("an error the agent answers with goes back to the server, and is recorded as the agent's answer", async () => {
    const upstream = mcpShell(everythingCommand, { capabilities: { elicitation: {} } });
    try {
      await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
      const { client } = await legacyAgent(recording.server, () => {
        throw new Error("the agent has no screen");
      });
      const answer = await client.callTool({ name: "trigger-elicitation-request", arguments: {} }).catch((error: Error) => error);
      // Whatever the server made of the error is its answer, recorded as such.
      expect(JSON.stringify(answer)).toContain("the agent has no screen");
      expect(recording.exchanges[0]).toMatchObject({ asks: [{ method: "elicitation/create", answer: { error: { message: expect.stringContaining("the agent has no screen") } } }] });
    } finally {
      await upstream.close();
    }
  }, 30_000);
});

describe("recording a server's requests: the agent's time and the agent's capabilities", () => {
  it("an agent slower to answer than the upstream's timeout still answers: the server waits on the agent, not the other way round", async () => {
    // A second, not less: the server's own start-up requests share this timeout, and a loaded machine must not trip them.
    const upstream = mcpShell(everythingCommand, { capabilities: { elicitation: {} }, requestTimeout: 1_000 });
    try {
      await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
      const { client } = await legacyAgent(recording.server);
      client.setRequestHandler(ElicitRequestSchema, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return { action: "accept", content: { name: "Slow", check: true } } as never;
      });
      const answer = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      expect(JSON.stringify(answer.content)).toContain("Slow");
      expect(recording.exchanges[0]).toMatchObject({ kind: "tool", asks: [{ method: "elicitation/create", answer: { result: { action: "accept" } } }] });
    } finally {
      await upstream.close();
    }
  }, 30_000);

  it("an agent that did not declare the capability is not asked: the upstream driver refuses for it, and the call is recorded as the agent saw it", async () => {
    const upstream = mcpShell(everythingCommand, { capabilities: { elicitation: {} } });
    try {
      await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
      const legacy = new Client({ name: "agent", version: "1.0.0" }, { capabilities: {} });
      await legacy.connect(await recording.server.connectInMemory());
      clients.push(legacy);
      const modern = v2Client({ capabilities: {} });
      await modern.connect(await recording.server.connectInMemory());
      const answers = [];
      for (const agent of [legacy, modern]) answers.push(await agent.callTool({ name: "trigger-elicitation-request", arguments: {} }).catch((error: Error) => error));
      // Neither agent was asked (the mock's record has no exchange); the server got the driver's refusal and answered with it.
      expect(recording.server.calls.map((call) => [call.outcome, call.exchanges.length])).toEqual([
        ["result", 0],
        ["result", 0],
      ]);
      for (const answer of answers) expect(JSON.stringify(answer)).toContain("does not answer elicitation/create");
      expect(recording.exchanges).toHaveLength(2);
      for (const exchange of recording.exchanges) expect(exchange).not.toHaveProperty("asks");
    } finally {
      await upstream.close();
    }
  }, 30_000);
});

/** A legacy server (our mock over HTTP) whose tool asks its client and takes the request back after 50 ms. */
async function withdrawingServer() {
  return await mockMcp({
    tools: {
      hurry: async (call: ToolCallContext) => {
        const withdraw = new AbortController();
        const asked = call.elicit({ message: "Quick?", requestedSchema: { type: "object", properties: {} } }, { signal: withdraw.signal });
        setTimeout(() => withdraw.abort(), 50);
        return {
          returns: await asked.then(
            () => "answered",
            () => "went on without an answer",
          ),
        };
      },
    },
  });
}

describe("a request the recorded server takes back (notifications/cancelled)", () => {
  it("is taken back from a legacy agent too (its handler's signal aborts), and is not recorded: the replay asks nothing", async () => {
    await using server = await withdrawingServer();
    await using upstream = mcpConnect(server.url!, { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let withdrawnWith = "";
    client.setRequestHandler(
      ElicitRequestSchema,
      (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => ((withdrawnWith = String(extra.signal.reason)), resolve({ action: "cancel" })), { once: true })),
    );
    await client.connect(await recording.server.connectInMemory());
    clients.push(client);
    const answer = await client.callTool({ name: "hurry", arguments: {} });
    expect(answer.content).toEqual([{ type: "text", text: "went on without an answer" }]);
    expect(withdrawnWith).toContain("the server gave the request up");
    expect(recording.exchanges).toMatchObject([{ kind: "tool", name: "hurry", answer: { result: { content: [{ type: "text", text: "went on without an answer" }] } } }]);
    expect(recording.exchanges[0]).not.toHaveProperty("asks");
    expect(recording.server.calls[0]).toMatchObject({ outcome: "result", exchanges: [{ method: "elicitation/create", error: { code: -32000 } }] });
    // Written as a plain answer, with no step that would ask the agent first.
    const calls = (recording.scenario().fixtures as Array<{ tools: Array<{ calls: object[] }> }>)[0]!.tools[0]!.calls;
    expect(calls).toEqual([{ args: {}, result: answer }]);
  }, 30_000);

  it("a 2026-07-28 agent's round already went out: the server's answer reaches the agent on its retry, and its input response is ignored", async () => {
    await using server = await withdrawingServer();
    await using upstream = mcpConnect(server.url!, { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const agent = v2Client({ capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    agent.setRequestHandler("elicitation/create", async () => {
      asked++;
      // The agent answers only once the server has taken the request back (the mock's record shows it given up).
      await expect.poll(() => recording.server.calls[0]?.exchanges[0]?.error?.message, { timeout: 5_000 }).toContain("the step gave the request up");
      return { action: "accept", content: {} };
    });
    await agent.connect(await recording.server.connectInMemory());
    const answer = await agent.callTool({ name: "hurry", arguments: {} });
    expect(asked).toBe(1);
    expect(answer.content).toEqual([{ type: "text", text: "went on without an answer" }]);
    expect(recording.exchanges).toHaveLength(1);
    expect(recording.exchanges[0]).not.toHaveProperty("asks");
    expect(recording.server.calls).toHaveLength(1);
    expect(recording.server.calls[0]).toMatchObject({ protocolVersion: MODERN, outcome: "result" });
  }, 30_000);
});

describe("a server that asks during prompts/get or resources/read (our mock as the recorded server, legacy)", () => {
  async function askingServer() {
    return await mockMcp({
      prompts: {
        greeting: {
          messages: async (_args, request) => {
            const answer = await request.elicit({ message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
            return [{ role: "user", content: `Greet ${(answer.content as { name?: string } | undefined)?.name ?? "nobody"}` }];
          },
        },
      },
      resources: { "notes://summary": { read: async (_uri, _variables, request) => `summary: ${((await request.sample({ messages: [], maxTokens: 5 })).content as { text: string }).text}` } },
    });
  }

  it("passes the request on to the agent live (legacy and 2026-07-28 agents), and records the answer the server then gave", async () => {
    await using server = await askingServer();
    await using upstream = mcpConnect(server.url!, { versionNegotiation: "legacy", capabilities: { elicitation: {}, sampling: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const { client, asked } = await legacyAgent(recording.server);
    expect((await client.getPrompt({ name: "greeting" })).messages[0]!.content).toEqual({ type: "text", text: "Greet Ada" });
    expect((await client.readResource({ uri: "notes://summary" })).contents[0]).toMatchObject({ text: "summary: It is sunny." });
    expect(asked.map(([method]) => method)).toEqual(["elicitation/create", "sampling/createMessage"]);

    const modern = v2Client({ capabilities: { elicitation: { form: {} } } });
    modern.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Bo" } }));
    await modern.connect(await recording.server.connectInMemory());
    expect((await modern.getPrompt({ name: "greeting" })).messages[0]!.content).toEqual({ type: "text", text: "Greet Bo" });
    // Recorded as the server answered; the replay's prompts and resources give that, without asking.
    expect(recording.exchanges.map((exchange) => exchange.kind)).toEqual(["prompt", "resource", "prompt"]);
    await using replay = await mockMcp({ transport: "memory", ...(recording.scenario() as object) });
    const offline = await legacyAgent(replay);
    expect((await offline.client.getPrompt({ name: "greeting" })).messages[0]!.content).toEqual({ type: "text", text: "Greet Ada" });
    expect(offline.asked).toEqual([]);
  }, 30_000);

  it("an agent that cancels its prompts/get cancels the recorded server's too, and nothing is recorded", async () => {
    let cancelled = false;
    await using server = await mockMcp({
      prompts: { slow: { messages: (_args, request) => new Promise((resolve) => request.signal.addEventListener("abort", () => ((cancelled = true), resolve([])), { once: true })) } },
    });
    await using upstream = mcpConnect(server.url!, { versionNegotiation: "legacy" });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const { client } = await legacyAgent(recording.server);
    const controller = new AbortController();
    const pending = client.getPrompt({ name: "slow" }, { signal: controller.signal }).catch((error: Error) => error.message);
    await expect.poll(() => server.messages.some((message) => "method" in message && message.method === "prompts/get")).toBe(true);
    controller.abort("the agent gave up");
    expect(await pending).toContain("the agent gave up");
    await expect.poll(() => cancelled).toBe(true);
    expect(recording.exchanges).toEqual([]);
  }, 30_000);

  it("an agent that cannot be asked gets the driver's refusal passed through the server, as for a tool call", async () => {
    await using server = await askingServer();
    await using upstream = mcpConnect(server.url!, { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const agent = new Client({ name: "agent", version: "1.0.0" }, { capabilities: {} });
    await agent.connect(await recording.server.connectInMemory());
    clients.push(agent);
    const failure = await agent.getPrompt({ name: "greeting" }).catch((error: Error) => error.message);
    expect(failure).toContain("does not answer elicitation/create");
  }, 30_000);
});

describe("recording the SDK v2 server's input requests (2026-07-28, MRTR)", () => {
  it("an error the agent answers with cannot go back in an input response: the call fails saying so, nothing is recorded", async () => {
    await using upstream = mcpShell(zoo("sdk-v2-server") + " stdio", { versionNegotiation: { pin: MODERN }, capabilities: { elicitation: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const { client } = await legacyAgent(recording.server, () => {
      throw new Error("the agent has no screen");
    });
    const failure = await client.callTool({ name: "confirm", arguments: { what: "deploy" } }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("the agent answered the recorded server's elicitation/create with error");
    expect((failure as Error).message).toContain("the agent has no screen");
    expect((failure as Error).message).toContain(`which a ${MODERN} input request cannot carry back`);
    expect(recording.exchanges).toEqual([]);
  }, 30_000);

  it("an input round of the server's becomes one of the agent's; the replay asks a legacy agent the same on its connection", async () => {
    await using upstream = mcpShell(zoo("sdk-v2-server") + " stdio", { versionNegotiation: { pin: MODERN }, capabilities: { elicitation: {} } });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const agent = v2Client({ capabilities: { elicitation: { form: {} } } });
    const asked: unknown[] = [];
    agent.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { ok: true } };
    });
    await agent.connect(await recording.server.connectInMemory());
    expect(agent.getProtocolEra?.()).toBe("modern");
    const answer = await agent.callTool({ name: "confirm", arguments: { what: "deploy" } });
    expect(answer.content).toEqual([{ type: "text", text: "deploy: done" }]);
    expect(asked).toMatchObject([{ message: "Really deploy?" }]);
    expect(recording.exchanges[0]).toMatchObject({ asks: [{ method: "elicitation/create", params: { message: "Really deploy?" }, answer: { result: { action: "accept", content: { ok: true } } } }] });
    // One call on the recording mock, with its exchange; the server's round was the agent's round.
    expect(recording.server.calls).toHaveLength(1);
    expect(recording.server.calls[0]).toMatchObject({ protocolVersion: MODERN, outcome: "result", exchanges: [{ method: "elicitation/create" }] });

    await using replay = await mockMcp({ transport: "memory", ...(recording.scenario() as object) });
    const legacy = await legacyAgent(replay, () => ({ action: "accept", content: { ok: true } }));
    expect((await legacy.client.callTool({ name: "confirm", arguments: { what: "deploy" } })).content).toEqual([{ type: "text", text: "deploy: done" }]);
    expect(legacy.asked).toMatchObject([["elicitation/create", { message: "Really deploy?" }]]);
  }, 30_000);
});
