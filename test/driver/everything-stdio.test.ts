/**
 * Oracle: the reference server-everything over stdio. The driver speaks to it as a good client:
 * every list, call, read, prompt, completion, progress and log works, all its traffic passes
 * the validator, and it closes in well under a second.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpShell, type McpDriver, type ProgressParams } from "../../src/driver/index.js";
import { everythingCommand, expectNoProcessLeft, useDrivers } from "./support.js";

const track = useDrivers();

describe("server-everything over stdio", () => {
  let app: McpDriver;
  beforeAll(async () => {
    app = mcpShell(everythingCommand);
    await app.initialize();
  });
  afterAll(async () => {
    await app.close();
    await expectNoProcessLeft(app.pid);
  });

  it("initializes: negotiated version, server info, capabilities", () => {
    expect(app.isInitialized()).toBe(true);
    const result = app.getInitializeResult()!;
    expect(result.protocolVersion).toBe("2025-11-25");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(result.serverInfo.name).toBe("mcp-servers/everything");
    expect(result.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {} });
    expect(result.instructions).toEqual(expect.any(String));
  });

  it("supports tools, resources and prompts, as its capabilities say", async () => {
    await expect(app.supportsTools()).resolves.toBe(true);
    await expect(app.supportsResources()).resolves.toBe(true);
    await expect(app.supportsPrompts()).resolves.toBe(true);
  });

  it("lists tools; the client-capability tools are absent when no capability is declared", async () => {
    const names = (await app.getTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation"]));
    expect(names).not.toContain("get-roots-list");
    expect(names).not.toContain("trigger-sampling-request");
    expect(names).not.toContain("trigger-elicitation-request");
    await expect(app.hasTool("echo")).resolves.toBe(true);
    await expect(app.hasTool("no-such-tool")).resolves.toBe(false);
    // Cached: a second look sends no second tools/list.
    const before = app.recorder.byMethod("tools/list").length;
    await app.getTools();
    expect(app.recorder.byMethod("tools/list").length).toBe(before);
  });

  it("lists resources (by name or URI), templates and prompts", async () => {
    const resources = await app.getResources();
    expect(resources.length).toBeGreaterThan(0);
    await expect(app.hasResource("architecture.md")).resolves.toBe(true);
    await expect(app.hasResource("demo://resource/static/document/architecture.md")).resolves.toBe(true);
    await expect(app.hasResource("nope.md")).resolves.toBe(false);
    await expect(app.hasResourceTemplate("Dynamic Text Resource")).resolves.toBe(true);
    await expect(app.hasResourceTemplate("demo://resource/dynamic/blob/{resourceId}")).resolves.toBe(true);
    expect((await app.getPrompts()).map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"]));
    await expect(app.hasPrompt("args-prompt")).resolves.toBe(true);
  });

  it("calls tools: text, structured content, images", async () => {
    const echo = await app.callTool("echo", { message: "hi" });
    expect(echo.getTextContent()).toBe("Echo: hi");
    expect(echo.isError).toBe(false);
    expect(echo.expectSuccess()).toBe(echo);
    expect(echo.toolName).toBe("echo");

    const sum = await app.callTool("get-sum", { a: 2, b: 3 });
    expect(sum.getTextContent()).toBe("The sum of 2 and 3 is 5.");

    const weather = await app.callTool("get-structured-content", { location: "New York" });
    expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });

    const image = await app.callTool("get-tiny-image");
    expect(image.getContentByType("image")[0]).toMatchObject({ type: "image", mimeType: "image/png", data: expect.any(String) });
    expect(image.findContentByType("audio")).toBeUndefined();
  });

  it("reports a failing tool as an isError result (no throw); expectSuccess throws", async () => {
    const result = await app.callTool("get-sum", { a: "not a number" });
    expect(result.isError).toBe(true);
    expect(() => result.expectSuccess()).toThrow(/Tool "get-sum" returned an error result/);
  });

  it("reads text and blob resources", async () => {
    const doc = await app.readResource("demo://resource/static/document/architecture.md");
    expect(doc.uri).toBe("demo://resource/static/document/architecture.md");
    expect(doc.getTextContent()).toEqual(expect.any(String));
    expect(doc.findByUri("demo://resource/static/document/architecture.md")?.mimeType).toBe("text/markdown");
    expect(doc.contents).toBe(doc.content);

    const blob = await app.readResource("demo://resource/dynamic/blob/1");
    expect(blob.hasBlobContent()).toBe(true);
    expect(blob.hasTextContent()).toBe(false);
    expect(Buffer.from(blob.getBlobContent()!, "base64").length).toBeGreaterThan(0);
  });

  it("gets prompts with arguments", async () => {
    const prompt = await app.getPrompt("args-prompt", { city: "Paris", state: "Ile-de-France" });
    expect(prompt.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: "What's weather in Paris, Ile-de-France?" } });
    expect(prompt.getTextContent()).toBe("What's weather in Paris, Ile-de-France?");
  });

  it("completes prompt arguments, with context", async () => {
    const department = await app.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "E" });
    expect(department.completion.values).toEqual(["Engineering"]);
    const name = await app.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "name", value: "" }, { arguments: { department: "Sales" } });
    expect(name.completion.values).toEqual(["David", "Eve", "Frank"]);
  });

  it("passes progress to onProgress and keeps it as notifications", async () => {
    const progress: ProgressParams[] = [];
    const result = await app.callTool("trigger-long-running-operation", { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p) });
    expect(result.getTextContent()).toContain("Long running operation completed");
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(app.notifications.filter((n) => n.method === "notifications/progress")).toHaveLength(3);
  });

  it("sets the logging level and receives log notifications to await", async () => {
    await app.setLoggingLevel("debug");
    await app.callTool("toggle-simulated-logging");
    try {
      const log = await app.waitForNotification("notifications/message", { timeoutMs: 3000 });
      expect(log.params).toMatchObject({ level: expect.any(String), data: expect.stringContaining("message") });
    } finally {
      // Its 5 s logging timer would keep the server alive after stdin closes.
      await app.callTool("toggle-simulated-logging");
    }
  });

  it("answers ping: one ping request on the wire, answered with an empty result", async () => {
    const before = app.messages.length;
    await expect(app.ping()).resolves.toBeUndefined();
    const pings = app.messages.slice(before).filter((record) => record.method === "ping");
    expect(pings.map(({ direction, content }) => ({ direction, content }))).toEqual([
      { direction: "outgoing", content: { jsonrpc: "2.0", id: expect.anything(), method: "ping" } },
      { direction: "incoming", content: { jsonrpc: "2.0", id: pings[0]!.id, result: {} } },
    ]);
  });

  it("recorded everything both ways, and everything passed the validator", async () => {
    const methods = app.recorder.methodCounts();
    expect(methods).toMatchObject({ initialize: 2, "notifications/initialized": 1 });
    expect(methods["tools/call"]).toBeGreaterThan(0);
    expect(app.messages.some((record) => record.direction === "incoming")).toBe(true);
    expect(app.problems).toEqual([]);
    expect(app.recorder.problems).toEqual([]); // ours too
    expect(() => app.assertNoProtocolError()).not.toThrow();
  });
});

describe("server-everything asking the client (roots, sampling, elicitation)", () => {
  it("with the options set, lists the callback tools and they all complete", async () => {
    const sampled: unknown[] = [];
    const app = track(
      mcpShell(everythingCommand, {
        roots: [{ uri: "file:///tmp/project-a", name: "Project A" }],
        onSampling: async (params) => {
          sampled.push(params);
          return { role: "assistant", content: { type: "text", text: "Sampled by the test" }, model: "test-model", stopReason: "endTurn" };
        },
        onElicitation: async () => ({ action: "accept", content: { name: "Ada Lovelace", check: true } }),
      }),
    );
    await app.initialize();
    expect(app.clientCapabilities).toEqual({ roots: { listChanged: true }, sampling: {}, elicitation: {} });

    const names = (await app.getTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"]));

    // The server asks for roots by itself after initialization and logs what it got.
    const rootsLog = await app.waitForNotification("notifications/message", {
      where: (params) => String(params?.data).startsWith("Roots updated"),
    });
    expect(rootsLog.params?.data).toBe("Roots updated: 1 root(s) received from client");

    const roots = await app.callTool("get-roots-list");
    expect(roots.getTextContent()).toContain("URI: file:///tmp/project-a");

    const sampling = await app.callTool("trigger-sampling-request", { prompt: "Say hi", maxTokens: 10 });
    expect(sampling.getTextContent()).toContain("Sampled by the test");
    expect(sampled[0]).toMatchObject({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: expect.stringContaining("Say hi") } }] });

    const elicitation = await app.callTool("trigger-elicitation-request");
    expect(elicitation.content.map((block) => (block.type === "text" ? block.text : "")).join("\n")).toContain("- Name: Ada Lovelace");

    // New roots: the driver says roots/list_changed, the server asks again.
    await app.setRoots([
      { uri: "file:///tmp/project-a", name: "Project A" },
      { uri: "file:///tmp/project-b", name: "Project B" },
    ]);
    await app.waitForNotification("notifications/message", { where: (params) => String(params?.data).startsWith("Roots updated: 2") });

    expect(app.problems).toEqual([]);
    expect(app.recorder.problems).toEqual([]);
    // It exits by itself when its stdin closes: close() neither times out nor kills it.
    await app.close();
    expect(app.exitCode).toBe(0);
  });
});
