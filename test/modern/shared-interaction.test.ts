/**
 * One interaction runtime for every handler that asks the client: a prompt's messages, a
 * resource's read, a `server.use()` handler and a feature's method elicit in both eras, as a
 * tool's step function does (legacy: a request on the request's own stream; 2026-07-28: an
 * input round, the handler parked until the retry), send progress and log messages, and are
 * refused in the same words when the client cannot answer.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { defineFeature, mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { modernMeta, useV2Cleanup, v2Client, v2Http } from "./support.js";
import { onCleanup, sdkClient, serve, track, useCleanup } from "../wire/support/http.js";

useV2Cleanup();
useCleanup();

const nameSchema = { type: "object", properties: { name: { type: "string" } } };

/** A feature whose method asks the client for a name, as any handler on the runtime can. */
const greeter = defineFeature({
  name: "x-greeter",
  methods: {
    "x/greet": async (request) => {
      const answer = await request.elicit({ message: "Who is there?", requestedSchema: nameSchema });
      return { greeting: `hello ${(answer.content as { name?: string } | undefined)?.name ?? "nobody"}` };
    },
  },
});

const scenario = (transport: "memory" | "http"): MockMcpOptions => ({
  transport,
  features: [greeter],
  prompts: {
    welcome: {
      messages: async (_args, request) => {
        const answer = await request.elicit({ message: "Your name?", requestedSchema: nameSchema });
        return [{ role: "user", content: `Welcome ${(answer.content as { name: string }).name}` }];
      },
    },
  },
});

/** Every message the mock sends, from its message tap. */
function sentBy(server: MockMcpServer): Array<Record<string, unknown>> {
  const sent: Array<Record<string, unknown>> = [];
  server.on("message", (event) => {
    if (event.direction === "out" && event.message !== undefined) sent.push(event.message as unknown as Record<string, unknown>);
  });
  return sent;
}

/** `prompts/get` for "asked" answered by a use() handler that asks the client first. */
function useAsking(server: MockMcpServer): void {
  server.use("prompts/get", async (request) => {
    if (request.params.name !== "asked") return undefined;
    const answer = await request.elicit({ message: "Topic?", requestedSchema: nameSchema });
    return { messages: [{ role: "user", content: { type: "text", text: `About ${(answer.content as { name: string }).name}` } }] };
  });
}

async function legacyClient(server: MockMcpServer, wire: "memory" | "http"): Promise<Client> {
  const options = { capabilities: { elicitation: {} } };
  const client = wire === "http" ? (await sdkClient(server.url!, { clientOptions: options })).client : new Client({ name: "agent", version: "1.0.0" }, options);
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: "accept", content: { name: request.params.message === "Topic?" ? "testing" : "Ada" } }));
  if (wire === "memory") {
    await client.connect(await server.connectInMemory());
    onCleanup(() => client.close());
  }
  return client;
}

async function modernClient(server: MockMcpServer, wire: "memory" | "http"): Promise<ReturnType<typeof v2Client>> {
  const client = wire === "http" ? await v2Http(server.url!, { capabilities: { elicitation: {} } }) : v2Client({ capabilities: { elicitation: {} } });
  client.setRequestHandler("elicitation/create", async (request: { params: { message: string } }) => ({
    action: "accept",
    content: { name: request.params.message === "Topic?" ? "testing" : "Ada" },
  }));
  if (wire === "memory") await client.connect(await server.connectInMemory());
  return client;
}

describe.each(["memory", "http"] as const)("handlers ask the client through one runtime, over %s", (wire) => {
  it("legacy era (SDK v1): a prompt, a use() handler and a feature's method each elicit on their request's stream", async () => {
    const server = await serve(scenario(wire));
    useAsking(server);
    const sent = sentBy(server);
    const client = await legacyClient(server, wire);
    expect((await client.getPrompt({ name: "welcome" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Welcome Ada" } }]);
    expect((await client.getPrompt({ name: "asked" })).messages).toEqual([{ role: "user", content: { type: "text", text: "About testing" } }]);
    expect(await client.request({ method: "x/greet", params: {} }, z.object({ greeting: z.string() }))).toEqual({ greeting: "hello Ada" });
    // Each ask went to the client as a server request.
    expect(sent.filter((message) => message.method === "elicitation/create")).toHaveLength(3);
  });

  it("2026-07-28 (SDK v2): the same handlers park on an input round and resume on the client's retry", async () => {
    const server = await serve(scenario(wire));
    useAsking(server);
    const sent = sentBy(server);
    const client = await modernClient(server, wire);
    expect((await client.getPrompt({ name: "welcome" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Welcome Ada" } }]);
    expect((await client.getPrompt({ name: "asked" })).messages).toEqual([{ role: "user", content: { type: "text", text: "About testing" } }]);
    // No server request went out: every ask travelled in an input_required result.
    expect(sent.filter((message) => "method" in message && "id" in message)).toEqual([]);
    expect(sent.filter((message) => (message.result as { resultType?: string } | undefined)?.resultType === "input_required")).toHaveLength(2);
  });

  it("2026-07-28: a use() handler that asks, then passes on, lets the handler behind it answer the retry as a fresh request", async () => {
    const server = await serve({ ...scenario(wire), tools: { hello: { returns: "hi from the tool" } }, prompts: { plain: { messages: async () => [{ role: "user", content: "from the prompt" }] } } });
    const confirmed: string[] = [];
    for (const method of ["tools/call", "prompts/get"]) {
      server.use(method, async (request) => {
        const answer = await request.elicit({ message: "Proceed?", requestedSchema: nameSchema });
        confirmed.push(`${method} ${answer.action}`);
        return undefined;
      });
    }
    const client = await modernClient(server, wire);
    expect(await client.callTool({ name: "hello", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hi from the tool" }] });
    expect((await client.getPrompt({ name: "plain" })).messages).toEqual([{ role: "user", content: { type: "text", text: "from the prompt" } }]);
    expect(confirmed).toEqual(["tools/call accept", "prompts/get accept"]);
  });
});

describe("one place for the runtime's refusals and its messages", () => {
  const send = async (server: MockMcpServer, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = {}) =>
    JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities }) } })))!) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    };

  it("a tool, a prompt and a use() handler that ask a client without the capability get the same -32021, each named", async () => {
    const server = track(
      await mockMcp({
        transport: "memory",
        features: [greeter],
        tools: { ask: { responses: async (call) => ({ returns: (await call.elicit({ message: "?", requestedSchema: nameSchema })).action }) } },
        prompts: scenario("memory").prompts,
      }),
    );
    const refusals = [await send(server, "tools/call", { name: "ask" }), await send(server, "prompts/get", { name: "welcome" }), await send(server, "x/greet", {})].map((reply) => reply.error);
    expect(refusals).toEqual([
      {
        code: -32021,
        message: 'Missing required client capability: tool "ask" asks the client for elicitation, which its clientCapabilities in _meta do not declare',
        data: { requiredCapabilities: { elicitation: {} } },
      },
      {
        code: -32021,
        message: 'Missing required client capability: prompts/get "welcome" asks the client for elicitation, which its clientCapabilities in _meta do not declare',
        data: { requiredCapabilities: { elicitation: {} } },
      },
      {
        code: -32021,
        message: "Missing required client capability: x/greet asks the client for elicitation, which its clientCapabilities in _meta do not declare",
        data: { requiredCapabilities: { elicitation: {} } },
      },
    ]);
  });

  it("a use() handler's retry with a bad requestState is -32602 in the words a tool's gets", async () => {
    const server = track(await mockMcp({ transport: "memory", features: [greeter] }));
    const first = await send(server, "x/greet", {}, { elicitation: {} });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    const state = first.result!.requestState as string;
    const tampered = await send(server, "x/greet", { requestState: `${state.slice(0, -2)}xx`, inputResponses: {} }, { elicitation: {} });
    expect(tampered.error).toMatchObject({ code: -32602, message: expect.stringContaining("Invalid params for x/greet: requestState failed its integrity check") });
    const done = await send(server, "x/greet", { requestState: state, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Grace" } } } }, { elicitation: {} });
    expect(done.result).toMatchObject({ greeting: "hello Grace" });
  });

  it("a resource's read sends progress and log messages through its request, as a tool's step function does", async () => {
    const server = track(
      await mockMcp({
        transport: "memory",
        resources: {
          "notes://big": {
            read: async (_uri, _variables, request) => {
              request.progress(1, 2, "half way");
              request.log("info", "reading notes://big");
              await new Promise((resolve) => setImmediate(resolve));
              request.progress(2, 2);
              return "all of it";
            },
          },
        },
      }),
    );
    const client = new Client({ name: "agent", version: "1.0.0" });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    await client.connect(await server.connectInMemory());
    onCleanup(() => client.close());
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const read = await client.readResource({ uri: "notes://big" }, { onprogress: (update) => void progress.push(update) });
    expect(read.contents).toEqual([{ uri: "notes://big", mimeType: "text/plain", text: "all of it" }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: "half way" },
      { progress: 2, total: 2 },
    ]);
    expect(logs).toEqual(["reading notes://big"]);
  });
});
