/**
 * examples/conformance/server.js is what `npm run conformance` serves to the official conformance
 * suite (Node 22, slow, outside `npm test`). These fast checks keep its fixed names and
 * behaviours from rotting: the same scenario, in memory, with the SDK client the suite uses.
 */
import { afterEach, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { modernMeta } from "../modern/support.js";

const SCENARIO_FILE = resolve(import.meta.dirname, "../../examples/conformance/server.js");

async function loadScenario(): Promise<MockMcpOptions> {
  const module = (await import(pathToFileURL(SCENARIO_FILE).href)) as { default: MockMcpOptions };
  return module.default;
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.reverse()) await thing.close().catch(() => undefined);
  opened.length = 0;
});

async function serve(transport: "memory" | "http" = "memory"): Promise<MockMcpServer> {
  const server = await mockMcp({ ...(await loadScenario()), transport });
  opened.push(server);
  return server;
}

/** An SDK client like the suite's: it declares sampling and elicitation. */
async function connect(server: MockMcpServer): Promise<Client> {
  const client = new Client({ name: "conformance-test-client", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
  opened.push(client);
  await client.connect(await server.connectInMemory());
  return client;
}

type Content = { type: string; [key: string]: unknown };
const contentOf = (result: unknown) => (result as { content: Content[] }).content;

describe("examples/conformance/server.js", () => {
  it("lists every tool, resource, template and prompt the suite calls, each with a description", async () => {
    const client = await connect(await serve());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "test_simple_text",
      "test_image_content",
      "test_audio_content",
      "test_embedded_resource",
      "test_multiple_content_types",
      "test_tool_with_logging",
      "test_tool_with_progress",
      "test_error_handling",
      "test_reconnection",
      "test_sampling",
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      "json_schema_2020_12_tool",
      // 2026-07-28 (conformance 0.2.0-alpha.12)
      "test_input_required_result_elicitation",
      "test_input_required_result_sampling",
      "test_input_required_result_list_roots",
      "test_input_required_result_request_state",
      "test_input_required_result_tampered_state",
      "test_input_required_result_multiple_inputs",
      "test_input_required_result_multi_round",
      "test_input_required_result_capabilities",
      "test_missing_capability",
      "test_streaming_elicitation",
      "test_logging_tool",
      "test_trigger_tool_change",
      "test_trigger_prompt_change",
      "test_custom_headers",
      // The tasks extension's scenarios (run with --force)
      "greet",
      "slow_compute",
      "failing_job",
      "protocol_error_job",
      "confirm_delete",
      "multi_input",
      "test_tool_with_task",
    ]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
    expect((await client.listResources()).resources.map((r) => [r.uri, r.name])).toEqual([
      ["test://static-text", "static-text"],
      ["test://static-binary", "static-binary"],
      ["test://watched-resource", "watched-resource"],
      // The sep-2640 scenarios' skill: its files are resources too.
      ["skill://pdf-processing/SKILL.md", "pdf-processing"],
      ["skill://pdf-processing/references/FORMS.md", "references/FORMS.md"],
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["test://template/{id}/data"]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      "test_input_required_result_prompt",
      "test_simple_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
    ]);
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
  });

  it("keeps the JSON Schema 2020-12 keywords of json_schema_2020_12_tool as written", async () => {
    const client = await connect(await serve());
    const tool = (await client.listTools()).tools.find((t) => t.name === "json_schema_2020_12_tool")!;
    expect(tool.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { address: { type: "object" } },
      properties: { address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    });
  });

  it("answers the content tools with text, a PNG, a WAV, an embedded resource, a mix, and a tool error", async () => {
    const client = await connect(await serve());
    const call = async (name: string) => contentOf(await client.callTool({ name, arguments: {} }));
    expect(await call("test_simple_text")).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    const [image] = await call("test_image_content");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from(image!.data as string, "base64")
        .subarray(1, 4)
        .toString("ascii"),
    ).toBe("PNG");
    const [audio] = await call("test_audio_content");
    expect(audio).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    expect(
      Buffer.from(audio!.data as string, "base64")
        .subarray(0, 4)
        .toString("ascii"),
    ).toBe("RIFF");
    expect(await call("test_embedded_resource")).toEqual([{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }]);
    expect((await call("test_multiple_content_types")).map((block) => block.type)).toEqual(["text", "image", "resource"]);
    expect(await client.callTool({ name: "test_error_handling", arguments: {} })).toEqual({
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
      isError: true,
    });
  });

  it("sends three log messages during test_tool_with_logging and progress 0, 50, 100 during test_tool_with_progress", async () => {
    const client = await connect(await serve());
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);

    const progress: number[] = [];
    await client.request({ method: "tools/call", params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "progress-test-1" } } }, CallToolResultSchema, {
      onprogress: (update) => void progress.push(update.progress),
    });
    expect(progress).toEqual([0, 50, 100]);
  });

  it("round-trips sampling and elicitation during the call and reports the client's answers", async () => {
    const client = await connect(await serve());
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      expect(request.params).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "Test prompt" } }], maxTokens: 100 });
      return { role: "assistant", content: { type: "text", text: "sampled" }, model: "test-model", stopReason: "endTurn" };
    });
    expect(contentOf(await client.callTool({ name: "test_sampling", arguments: { prompt: "Test prompt" } }))).toEqual([{ type: "text", text: "LLM response: sampled" }]);

    const requests: ElicitRequest["params"][] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      requests.push(request.params);
      return { action: "decline" };
    });
    expect(contentOf(await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } }))).toEqual([{ type: "text", text: "User response: action=decline, content={}" }]);
    await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
    await client.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} });
    expect(requests[0]).toMatchObject({ message: "Who are you?", requestedSchema: { required: ["username", "email"] } });
    const defaults = (requests[1] as { requestedSchema: { properties: Record<string, { type: string; default: unknown }> } }).requestedSchema.properties;
    expect(Object.fromEntries(Object.entries(defaults).map(([name, schema]) => [name, [schema.type, schema.default]]))).toEqual({
      name: ["string", "John Doe"],
      age: ["integer", 30],
      score: ["number", 95.5],
      status: ["string", "active"],
      verified: ["boolean", true],
    });
    expect((requests[2] as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties).toMatchObject({
      untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
      titledSingle: { type: "string", oneOf: [{ const: "value1", title: "First Option" }, {}, {}] },
      legacyEnum: { enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
      untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
      titledMulti: { type: "array", items: { anyOf: [{ const: "value1", title: "First Choice" }, {}, {}] } },
    });
  });

  it("reads the static resources and the template, subscribes, completes, and fills the prompts", async () => {
    const client = await connect(await serve());
    expect((await client.readResource({ uri: "test://static-text" })).contents).toEqual([
      { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." },
    ]);
    expect((await client.readResource({ uri: "test://static-binary" })).contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });
    expect((await client.readResource({ uri: "test://template/123/data" })).contents).toEqual([
      { uri: "test://template/123/data", mimeType: "application/json", text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' },
    ]);
    expect(await client.subscribeResource({ uri: "test://watched-resource" })).toEqual({});
    expect(await client.unsubscribeResource({ uri: "test://watched-resource" })).toEqual({});

    const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "test" } });
    expect(completion.completion.values).toEqual(["test", "testValue1"]);

    const simple = await client.getPrompt({ name: "test_simple_prompt" });
    expect(simple.messages).toEqual([{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }]);
    const withArgs = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "testValue1", arg2: "testValue2" } });
    expect(withArgs.messages[0]!.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" });
    const embedded = await client.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
    expect(embedded.messages[0]!.content).toMatchObject({ type: "resource", resource: { uri: "test://example-resource" } });
    const image = await client.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages.map((message) => message.content.type)).toEqual(["image", "text"]);
  });

  it("over HTTP, test_reconnection closes its SSE stream before answering and the SDK client gets the answer by resuming", async () => {
    const server = await serve("http");
    const client = new Client({ name: "conformance-test-client", version: "1.0.0" });
    opened.push(client);
    const requests: string[] = [];
    const watchingFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      requests.push(`${init?.method ?? "GET"}${headers.has("last-event-id") ? ` last-event-id=${headers.get("last-event-id")}` : ""}`);
      return fetch(input, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!), { fetch: watchingFetch }));
    const result = await client.callTool({ name: "test_reconnection", arguments: {} });
    expect(contentOf(result)[0]!.text).toMatch(/^Reconnection test completed successfully/);
    // The POST stream ended after its priming event (id <stream>_0); the answer came on the resumed GET.
    expect(requests.filter((request) => request.includes("last-event-id"))).toEqual([expect.stringMatching(/^GET last-event-id=p\d+_0$/)]);
  });

  describe("the 2026-07-28 tools and prompt (conformance 0.2.0-alpha.12), asked the way the suite asks: raw requests with _meta", () => {
    type Reply = { result?: Record<string, any>; error?: { code: number; message: string; data?: any } };
    const ALL = { elicitation: {}, sampling: {}, roots: {} };
    async function modern(server: MockMcpServer) {
      let id = 0;
      return async (method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = ALL): Promise<Reply> =>
        JSON.parse(
          (await server.handle(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities }) } })))!,
        );
    }
    const textOf = (reply: Reply) => reply.result!.content[0].text;

    it("test_input_required_result_elicitation asks under the key user_name, and the retry resumes it", async () => {
      const send = await modern(await serve());
      const first = await send("tools/call", { name: "test_input_required_result_elicitation" });
      expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create", params: { message: "What is your name?" } } } });
      const retry = await send("tools/call", {
        name: "test_input_required_result_elicitation",
        requestState: first.result!.requestState,
        inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
      });
      expect(retry.result).toMatchObject({ resultType: "complete" });
      expect(textOf(retry)).toBe("Hello, Ada!");
    });

    it("sampling and roots ask under their keys; three asks at once come in one round", async () => {
      const send = await modern(await serve());
      const sampling = await send("tools/call", { name: "test_input_required_result_sampling" });
      expect(Object.keys(sampling.result!.inputRequests)).toEqual(["capital_question"]);
      expect(sampling.result!.inputRequests.capital_question.method).toBe("sampling/createMessage");
      const roots = await send("tools/call", { name: "test_input_required_result_list_roots" });
      expect(roots.result!.inputRequests).toMatchObject({ client_roots: { method: "roots/list" } });
      const rootsDone = await send("tools/call", {
        name: "test_input_required_result_list_roots",
        requestState: roots.result!.requestState,
        inputResponses: { client_roots: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } },
      });
      expect(textOf(rootsDone)).toBe("Roots: file:///a, file:///b");
      const three = await send("tools/call", { name: "test_input_required_result_multiple_inputs" });
      expect(Object.keys(three.result!.inputRequests).sort()).toEqual(["client_roots", "greeting", "user_name"]);
      const done = await send("tools/call", {
        name: "test_input_required_result_multiple_inputs",
        requestState: three.result!.requestState,
        inputResponses: { user_name: { action: "accept", content: { name: "Ada" } }, greeting: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" }, client_roots: { roots: [] } },
      });
      expect(textOf(done)).toBe("Hi Ada (0 roots)");
    });

    it("test_input_required_result_multi_round asks one question per round", async () => {
      const send = await modern(await serve());
      const name = "test_input_required_result_multi_round";
      const first = await send("tools/call", { name });
      expect(Object.keys(first.result!.inputRequests)).toEqual(["step1"]);
      const second = await send("tools/call", { name, requestState: first.result!.requestState, inputResponses: { step1: { action: "accept", content: { name: "Ada" } } } });
      expect(Object.keys(second.result!.inputRequests)).toEqual(["step2"]);
      const third = await send("tools/call", { name, requestState: second.result!.requestState, inputResponses: { step2: { action: "accept", content: { color: "blue" } } } });
      expect(textOf(third)).toBe("Ada likes blue");
    });

    it("a tampered requestState is refused with -32602; an ask the client did not declare is -32021; only declared asks are made", async () => {
      const send = await modern(await serve());
      const first = await send("tools/call", { name: "test_input_required_result_tampered_state" });
      const state = first.result!.requestState as string;
      const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
      const refused = await send("tools/call", { name: "test_input_required_result_tampered_state", requestState: tampered, inputResponses: { confirm: { action: "accept", content: { ok: true } } } });
      expect(refused.error).toMatchObject({ code: -32602 });
      const missing = await send("tools/call", { name: "test_missing_capability" }, { elicitation: {} });
      expect(missing.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
      const onlyElicitation = await send("tools/call", { name: "test_input_required_result_capabilities" }, { elicitation: {} });
      expect(Object.keys(onlyElicitation.result!.inputRequests)).toEqual(["note"]);
    });

    it("test_input_required_result_prompt asks for context, then uses the retry's answer", async () => {
      const send = await modern(await serve());
      const first = await send("prompts/get", { name: "test_input_required_result_prompt" });
      expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { user_context: { method: "elicitation/create" } } });
      const second = await send("prompts/get", { name: "test_input_required_result_prompt", inputResponses: { user_context: { action: "accept", content: { context: "tests" } } } });
      expect(second.result!.messages).toEqual([{ role: "user", content: { type: "text", text: "Use this context: tests" } }]);
    });
  });
});
