/**
 * A prompt's messages function and a resource's read function ask the client, as a tool's step
 * function does, in both eras: a legacy client (the SDK v1 client) gets a request on the
 * prompts/get or resources/read stream and its answer goes back to the function; a 2026-07-28
 * request gets `input_required` with a signed `requestState`, and the retry with the answers
 * resumes the same function, which answers that retry.
 */
import { afterEach, describe, expect, it } from "vitest";
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
    const server = await serve({
      transport: "memory",
      prompts: {
        hasty: {
          messages: (_args, request) => {
            void request.elicit({ message: "Never mind", requestedSchema: nameSchema }).catch(() => undefined);
            return [{ role: "user", content: "done" }];
          },
        },
      },
    });
    const client = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let cancelled = "";
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => ((cancelled = String(extra.signal.reason)), resolve({ action: "cancel" })), { once: true })));
    await client.connect(await server.connectInMemory());
    expect((await client.getPrompt({ name: "hasty" })).messages).toHaveLength(1);
    await expect.poll(() => cancelled).toContain("the server answered the request that asked");
    await client.close();
  });
});

describe("a content function asks a 2026-07-28 client (MRTR: the function waits for the retry)", () => {
  const meta = (capabilities: Record<string, unknown> = { elicitation: {}, sampling: {} }) => modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities });
  const send = async (server: MockMcpServer, id: number, method: string, params: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
    JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(capabilities) } })))!) as { result?: Record<string, any>; error?: { code: number; message: string; data?: any } };

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
    const done = await send(server, 2, "prompts/get", { name: "greeting", requestState: first.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } } });
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
        pinging: { messages: async (_args, request) => [{ role: "user", content: await request.request("ping").then(() => "pinged", (error: Error) => error.message) }] },
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
});
