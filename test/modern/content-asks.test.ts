/**
 * A prompt's messages function and a resource's read function ask the client, as a tool's step
 * function does, in both eras: a legacy client (the SDK v1 client) gets a request on the
 * prompts/get or resources/read stream and its answer goes back to the function; a 2026-07-28
 * request gets `input_required` with a signed `requestState`, and the retry with the answers
 * resumes the same function, which answers that retry.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { modernMeta, useV2Cleanup, v2Client } from "./support.js";
import { sdkClient, serve as serveHttp, useCleanup } from "../wire/support/http.js";

useV2Cleanup();
useCleanup();
const open: MockMcpServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

const nameSchema = { type: "object", properties: { name: { type: "string" } } };
const scenario: MockMcpOptions = {
  transport: "memory",
  prompts: {
    greeting: {
      messages: async (_args, request) => {
        const answer = await request.elicit({ message: "Your name?", requestedSchema: nameSchema });
        return [{ role: "user", content: `Greet ${(answer.content as { name?: string } | undefined)?.name ?? "nobody"} (${request.protocolVersion})` }];
      },
    },
  },
  resources: {
    "notes://summary": {
      read: async (_uri, _variables, request) => {
        const reply = await request.sample({ messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 20 });
        return `summary: ${(reply.content as { text: string }).text}`;
      },
    },
  },
};

async function serve(options: MockMcpOptions = scenario) {
  const server = await mockMcp(options);
  open.push(server);
  return server;
}

describe("a content function asks a legacy client (a request on the prompts/get or resources/read stream)", () => {
  it("the SDK v1 client's handlers answer, and the function goes on with the answers", async () => {
    const server = await serve();
    const client = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", model: "m", content: { type: "text", text: "all good" } }));
    await client.connect(await server.connectInMemory());
    const prompt = await client.getPrompt({ name: "greeting" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Greet Ada (2025-11-25)" } }]);
    const read = await client.readResource({ uri: "notes://summary" });
    expect(read.contents).toEqual([{ uri: "notes://summary", mimeType: "text/plain", text: "summary: all good" }]);
    await client.close();
  });

  it("a client that did not declare the capability refuses, and the function's error says that is most likely why", async () => {
    let failure = "";
    const server = await serve({
      transport: "memory",
      prompts: {
        ask: {
          messages: async (_args, request) => [
            {
              role: "user",
              content: await request.elicit({ message: "?", requestedSchema: nameSchema }).then(
                () => "answered",
                (error: Error) => (failure = error.message),
              ),
            },
          ],
        },
      },
    });
    const client = new Client({ name: "legacy", version: "1.0.0" });
    await client.connect(await server.connectInMemory());
    await client.getPrompt({ name: "ask" });
    expect(failure).toMatch(/^The client answered elicitation\/create with error -?\d+: .*\. The client did not declare the "elicitation" capability at initialize/);
    await client.close();
  });

  it("over Streamable HTTP the request travels on the prompts/get POST's stream (answered as SSE)", async () => {
    const server = await serveHttp({ ...scenario, transport: "http" });
    const seen: Array<{ method: string; status: number; contentType: string | null }> = [];
    const { client } = await sdkClient(server.url, { clientOptions: { capabilities: { elicitation: {} } }, seen });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Bo" } }));
    const prompt = await client.getPrompt({ name: "greeting" });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Greet Bo (2025-11-25)" });
    expect(seen.some((response) => response.contentType?.startsWith("text/event-stream"))).toBe(true);
  });

  it("a request the function did not wait for is given up when it answers: the client is told", async () => {
    let failure = "";
    const server = await serve({
      transport: "memory",
      prompts: {
        hasty: {
          messages: (_args, request) => {
            void request.elicit({ message: "Never mind", requestedSchema: nameSchema }).catch((error: Error) => (failure = error.message));
            return [{ role: "user", content: "done" }];
          },
        },
      },
    });
    const client = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let cancelled = "";
    client.setRequestHandler(
      ElicitRequestSchema,
      (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => ((cancelled = String(extra.signal.reason)), resolve({ action: "cancel" })), { once: true })),
    );
    await client.connect(await server.connectInMemory());
    expect((await client.getPrompt({ name: "hasty" })).messages).toHaveLength(1);
    await expect.poll(() => cancelled).toContain("the server answered the request that asked");
    await expect.poll(() => failure).toBe("The client did not answer elicitation/create: the prompts/get or resources/read that asked was answered first");
    await client.close();
  });
});

describe("a content function asks a 2026-07-28 client (MRTR: the function waits for the retry)", () => {
  const meta = (capabilities: Record<string, unknown> = { elicitation: {}, sampling: {} }) => modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities });
  const send = async (server: MockMcpServer, id: number, method: string, params: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
    JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(capabilities) } })))!) as {
      result?: Record<string, any>;
      error?: { code: number; message: string; data?: any };
    };

  it("prompts/get answers input_required with a signed state; the retry resumes the same function, which answers it", async () => {
    let runs = 0;
    const server = await serve({
      transport: "memory",
      prompts: {
        greeting: {
          messages: async (_args, request) => {
            runs++;
            const answer = await request.elicit({ message: "Your name?", requestedSchema: nameSchema });
            return [{ role: "user", content: `Greet ${(answer.content as { name: string }).name}` }];
          },
        },
      },
    });
    const first = await send(server, 1, "prompts/get", { name: "greeting" });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create", params: { message: "Your name?" } } } });
    expect(first.result!.requestState).toMatch(/^mtk1\./);
    const done = await send(server, 2, "prompts/get", {
      name: "greeting",
      requestState: first.result!.requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } },
    });
    expect(done.result).toMatchObject({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "Greet Ada" } }] });
    // One run of the function, resumed: not run again from the start.
    expect(runs).toBe(1);
    // A state works once.
    const again = await send(server, 3, "prompts/get", { name: "greeting", requestState: first.result!.requestState, inputResponses: {} });
    expect(again.error).toMatchObject({ code: -32602, message: expect.stringContaining("requestState is stale") });
  });

  it("resources/read too, and the SDK v2 client answers the round with its own handler", async () => {
    const server = await serve();
    const client = v2Client({ capabilities: { sampling: {} } });
    client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", model: "m", content: { type: "text", text: "from v2" } }));
    await client.connect(await server.connectInMemory());
    const read = await client.readResource({ uri: "notes://summary" });
    expect(read.contents).toEqual([{ uri: "notes://summary", mimeType: "text/plain", text: "summary: from v2" }]);
  });

  it("an ask the client did not declare is -32021; a state for another prompt or tampered is -32602; ping cannot be asked", async () => {
    const server = await serve({
      ...scenario,
      prompts: {
        ...scenario.prompts,
        pinging: {
          messages: async (_args, request) => [
            {
              role: "user",
              content: await request.request("ping").then(
                () => "pinged",
                (error: Error) => error.message,
              ),
            },
          ],
        },
      },
    });
    const undeclared = await send(server, 1, "prompts/get", { name: "greeting" }, {});
    expect(undeclared.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    const first = await send(server, 2, "prompts/get", { name: "greeting" });
    const elsewhere = await send(server, 3, "prompts/get", { name: "pinging", requestState: first.result!.requestState, inputResponses: {} });
    expect(elsewhere.error).toMatchObject({ code: -32602, message: expect.stringContaining("Invalid params for prompts/get: requestState belongs to") });
    const tampered = await send(server, 4, "prompts/get", { name: "greeting", requestState: `${first.result!.requestState}x`, inputResponses: {} });
    expect(tampered.error).toMatchObject({ code: -32602, message: expect.stringContaining("failed its integrity check") });
    const ping = await send(server, 5, "prompts/get", { name: "pinging" });
    expect(ping.result!.messages[0].content.text).toContain("ping cannot be sent to a client in protocol version 2026-07-28");
  });

  it("a state of one kind of request does not answer another: a tool's on prompts/get and a prompt's on tools/call are -32602, and each still works after", async () => {
    const server = await serve({
      ...scenario,
      tools: { ask: async (call) => ({ returns: (await call.elicit({ message: "Sure?", requestedSchema: nameSchema })).action }) },
    });
    const tool = await send(server, 1, "tools/call", { name: "ask" });
    const prompt = await send(server, 2, "prompts/get", { name: "greeting" });
    const crossed = await send(server, 3, "prompts/get", { name: "greeting", requestState: tool.result!.requestState, inputResponses: {} });
    expect(crossed.error).toMatchObject({
      code: -32602,
      message: 'Invalid params for prompts/get: requestState belongs to a call of tool "ask", not a prompts/get of "greeting": a retry must repeat the original request\'s method, name and arguments',
    });
    const crossedBack = await send(server, 4, "tools/call", { name: "ask", requestState: prompt.result!.requestState, inputResponses: {} });
    expect(crossedBack.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState belongs to a prompts/get of "greeting", not a call of tool "ask"') });
    const toolDone = await send(server, 5, "tools/call", { name: "ask", requestState: tool.result!.requestState, inputResponses: { "elicitation-1": { action: "decline" } } });
    expect(toolDone.result!.content).toEqual([{ type: "text", text: "decline" }]);
    const promptDone = await send(server, 6, "prompts/get", {
      name: "greeting",
      requestState: prompt.result!.requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { name: "Cy" } } },
    });
    expect(promptDone.result!.messages[0].content.text).toBe("Greet Cy (2026-07-28)");
  });

  it("resources/read through handle(), in two rounds; the retry's facts are the function's to read once it resumes", async () => {
    const seen: unknown[] = [];
    const server = await serve({
      transport: "memory",
      resources: {
        "notes://two": {
          read: async (_uri, _variables, request) => {
            const name = await request.elicit({ message: "Name?", requestedSchema: nameSchema });
            seen.push(request.inputResponses);
            const roots = await request.listRoots();
            return `${(name.content as { name: string }).name} @ ${roots.map((root) => root.uri).join(",")}`;
          },
        },
      },
    });
    const one = await send(server, 1, "resources/read", { uri: "notes://two" }, { elicitation: {}, roots: {} });
    const two = await send(
      server,
      2,
      "resources/read",
      { uri: "notes://two", requestState: one.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Di" } } } },
      { elicitation: {}, roots: {} },
    );
    expect(Object.keys(two.result!.inputRequests)).toEqual(["roots-2"]);
    expect(seen).toEqual([{ "elicitation-1": { action: "accept", content: { name: "Di" } } }]);
    const three = await send(
      server,
      3,
      "resources/read",
      { uri: "notes://two", requestState: two.result!.requestState, inputResponses: { "roots-2": { roots: [{ uri: "file:///repo" }] } } },
      { elicitation: {}, roots: {} },
    );
    expect(three.result).toMatchObject({ resultType: "complete", contents: [{ uri: "notes://two", text: "Di @ file:///repo" }] });
  });

  it("answers the request already carries are used, and the request as it came is left unchanged", async () => {
    const server = await serve();
    const given = { "elicitation-1": { action: "accept", content: { name: "Ed" } } };
    const done = await send(server, 1, "prompts/get", { name: "greeting", inputResponses: given });
    expect(done.result!.messages[0].content.text).toBe("Greet Ed (2026-07-28)");
    expect((server.messages.at(-1) as unknown as { params: { inputResponses: unknown } }).params.inputResponses).toEqual(given);
  });

  it("a URL-mode elicitation to a client that declared forms only names what is missing (elicitation.url)", async () => {
    const server = await serve({
      transport: "memory",
      prompts: {
        link: {
          messages: async (_args, request) => [{ role: "user", content: (await request.elicit({ mode: "url", url: "https://example.com/auth", message: "Sign in", elicitationId: "e1" })).action }],
        },
      },
    });
    const refused = await send(server, 1, "prompts/get", { name: "link" }, { elicitation: { form: {} } });
    expect(refused.error).toMatchObject({
      code: -32021,
      message: 'Missing required client capability: prompts/get "link" asks the client for elicitation.url, which its clientCapabilities in _meta do not declare',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  it("a parked function is given up when its state expires or the mock is reset: its ask rejects, and the state is refused", async () => {
    // The expiry runs on a fake clock: the retry comes exactly when the state expires.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let failure = "";
      const server = await serve({
        transport: "memory",
        inputTimeoutMs: 50,
        prompts: {
          waiting: {
            messages: async (_args, request) => [
              {
                role: "user",
                content: await request.elicit({ message: "?", requestedSchema: nameSchema }).then(
                  () => "answered",
                  (error: Error) => ((failure = error.message), "given up"),
                ),
              },
            ],
          },
        },
      });
      const first = await send(server, 1, "prompts/get", { name: "waiting" });
      await vi.advanceTimersByTimeAsync(50);
      expect(failure).toContain("the prompts/get was given up");
      const late = await send(server, 2, "prompts/get", { name: "waiting", requestState: first.result!.requestState, inputResponses: {} });
      expect(late.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("requestState expired: the request was given up; send prompts/get again without requestState"),
        data: { problem: "expired" },
      });
      const second = await send(server, 3, "prompts/get", { name: "waiting" });
      failure = "";
      await server.reset();
      await vi.advanceTimersByTimeAsync(0);
      expect(failure).toContain("reset or closed");
      expect((await send(server, 4, "prompts/get", { name: "waiting", requestState: second.result!.requestState, inputResponses: {} })).error).toMatchObject({
        code: -32602,
        data: { problem: "stale" },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a non-string requestState or non-object inputResponses is -32602, as for a tool", async () => {
    const server = await serve();
    expect((await send(server, 1, "prompts/get", { name: "greeting", requestState: 5 })).error).toMatchObject({ code: -32602, message: expect.stringContaining('"requestState" must be the string') });
    expect((await send(server, 2, "resources/read", { uri: "notes://summary", inputResponses: [] })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('"inputResponses" must be an object'),
    });
  });
});

describe("a legacy client cancels a prompts/get whose function is asking", () => {
  it("the function's signal aborts, its request to the client is given up (the client is told), and nothing is answered", async () => {
    let aborted = "";
    const server = await serve({
      transport: "memory",
      prompts: {
        slow: {
          messages: async (_args, request) => {
            request.signal.addEventListener("abort", () => (aborted = "yes"), { once: true });
            const answer = await request.elicit({ message: "Take your time", requestedSchema: nameSchema }).then(
              (a) => a.action,
              (error: Error) => error.message,
            );
            return [{ role: "user", content: answer }];
          },
        },
      },
    });
    const client = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let told = "";
    client.setRequestHandler(
      ElicitRequestSchema,
      (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => ((told = String(extra.signal.reason)), resolve({ action: "cancel" })), { once: true })),
    );
    await client.connect(await server.connectInMemory());
    const controller = new AbortController();
    const pending = client.getPrompt({ name: "slow" }, { signal: controller.signal }).catch((error: Error) => error.message);
    await expect.poll(() => server.messages.some((message) => "method" in message && message.method === "prompts/get")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort("stop");
    expect(await pending).toContain("stop");
    await expect.poll(() => aborted).toBe("yes");
    await expect.poll(() => told).toContain("the server answered the request that asked");
    await client.close();
  });
});
