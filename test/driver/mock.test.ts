/**
 * The driver drives a mock the same way as a real server: `mcpAttach(mock.connectInMemory())`.
 * The mock's scripted faults show the driver's behaviour from the other side (its call record
 * sees what the driver sent, including cancellations and answers to server requests).
 */
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { mcpAttach, ProtocolError, RequestTimeoutError, ToolCallError, ConnectionClosedError } from "../../src/driver/index.js";

describe("driving a mock in memory", () => {
  it("one API: lists, calls, reads, prompts, completion, pagination", async () => {
    await using mock = await mockMcp({
      pageSize: 2,
      tools: { echo: { returns: "hi" }, a: { returns: 1 }, b: { returns: 2 }, c: { returns: 3 }, d: { returns: 4 } },
      resources: { "notes://today": "Ship the docs.", "notes://tomorrow": "Rest." },
      prompts: { review: { arguments: [{ name: "language", required: true }], messages: [{ role: "user", content: "Review {{language}}." }], complete: { language: ["python", "perl"] } } },
    });
    await using app = mcpAttach(mock.connectInMemory(), { name: "the mock" });
    expect(app.kind).toBe("attached");
    expect((await app.getTools()).map((tool) => tool.name)).toEqual(["echo", "a", "b", "c", "d"]);
    expect(app.recorder.byMethod("tools/list").filter((r) => r.direction === "outgoing")).toHaveLength(3);
    expect((await app.callTool("echo")).getTextContent()).toBe("hi");
    expect(await app.hasResource("notes://today")).toBe(true);
    expect((await app.readResource("notes://today")).getTextContent()).toBe("Ship the docs.");
    expect((await app.getPrompt("review", { language: "Rust" })).getTextContent()).toBe("Review Rust.");
    const completion = await app.complete({ type: "ref/prompt", name: "review" }, { name: "language", value: "p" });
    expect(completion.completion.values).toEqual(["python", "perl"]);
    mock.assertCalled("echo", { times: 1 });
    expect(app.problems).toEqual([]);
  });

  it("a step function that returns an invalid step fails the call with a message that names the prefix once", async () => {
    await using mock = await mockMcp({ tools: { typo: (() => ({ retruns: "x" })) as never } });
    await using app = mcpAttach(mock.connectInMemory());
    const error = await app.callTool("typo").then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toBe(
      '[mcp-testkit] Tool "typo" failed: the server answered tools/call with JSON-RPC error -32603 (InternalError): "Step function for tool \\"typo\\" returned an invalid step: The step function of tool \\"typo\\" has unknown key \\"retruns\\"; did you mean \\"returns\\"? A step takes \\"returns\\", \\"content\\", \\"toolError\\", \\"throws\\", \\"hang\\", \\"result\\", \\"disconnect\\", \\"raw\\", \\"inputRequired\\", \\"structuredContent\\", \\"delayMs\\", \\"repeat\\", \\"stream\\", \\"asks\\", \\"broadcast\\", \\"endSubscriptions\\", \\"task\\"."',
    );
    expect(error?.message.split("[mcp-testkit]")).toHaveLength(2);
  });

  it("scripted failures: tool error result, JSON-RPC error, malformed result", async () => {
    await using mock = await mockMcp({
      tools: {
        flaky: [{ toolError: "rate limited" }, { throws: { code: -32000, message: "backend down", data: { retryAfter: 2 } } }, { result: { content: "not an array" } }],
      },
    });
    await using app = mcpAttach(mock.connectInMemory());
    const first = await app.callTool("flaky");
    expect(first).toMatchObject({ isError: true });
    expect(() => first.expectSuccess()).toThrow(/rate limited/);
    const second = await app.callTool("flaky").catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ToolCallError);
    expect(second).toMatchObject({ toolName: "flaky", code: -32000, serverMessage: "backend down", data: { retryAfter: 2 } });
    const malformed = (await app.callTool("flaky").catch((e: unknown) => e)) as ProtocolError;
    expect(malformed).toBeInstanceOf(ProtocolError);
    expect(malformed.message).toMatch(/tools\/call "flaky" .*\n.*\$\.result\.content: expected an array/);
  });

  it("a hanging tool times out; the mock sees the cancellation", async () => {
    await using mock = await mockMcp({ tools: { slow: { hang: true } } });
    await using app = mcpAttach(mock.connectInMemory(), { requestTimeout: 100 });
    await expect(app.callTool("slow")).rejects.toBeInstanceOf(RequestTimeoutError);
    await mock.waitForCalls(1);
    await expect.poll(() => mock.calls[0]?.outcome).toBe("cancelled");
  });

  it("list_changed from the mock refreshes the cached tools", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } } });
    // list_changed reaches a legacy session; in 2026-07-28 it comes on subscriptions/listen (test/driver/modern.test.ts).
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    expect(await app.hasTool("two")).toBe(false);
    await mock.setTool("two", { returns: 2 });
    await app.waitForNotification("notifications/tools/list_changed");
    expect(await app.hasTool("two")).toBe(true);
  });

  it("answers the mock's sampling, elicitation and roots requests, and subscriptions notify", async () => {
    await using mock = await mockMcp({
      tools: {
        ask: async (call) => {
          const sample = await call.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
          const roots = await call.listRoots();
          const elicit = await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
          return { returns: JSON.stringify({ sample, roots, elicit }) };
        },
      },
      resources: { "notes://today": "v1" },
    });
    // Server requests and resources/subscribe are the legacy era's (2026-07-28: test/driver/modern.test.ts).
    await using app = mcpAttach(mock.connectInMemory(), {
      versionNegotiation: "legacy",
      roots: [{ uri: "file:///repo" }],
      onSampling: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "calc" }),
      onElicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const answer = JSON.parse((await app.callTool("ask")).getTextContent()!);
    expect(answer).toEqual({
      sample: { role: "assistant", content: { type: "text", text: "4" }, model: "calc" },
      roots: [{ uri: "file:///repo" }],
      elicit: { action: "accept", content: { name: "Ada" } },
    });

    await app.subscribeResource("notes://today");
    await mock.setResource("notes://today", "v2");
    const updated = await app.waitForNotification("notifications/resources/updated");
    expect(updated.params).toEqual({ uri: "notes://today" });
    expect((await app.readResource("notes://today")).getTextContent()).toBe("v2");
  });

  it("a notification wait with arguments it cannot use fails at once, naming what it takes", async () => {
    await using mock = await mockMcp({ tools: { one: { returns: 1 } } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    const list = "notifications/tools/list_changed";
    await expect(app.waitForNotification(list, { timeout: 50 } as never)).rejects.toThrow(
      'waitForNotification()\'s options has unknown key "timeout"; did you mean "timeoutMs"? It takes "timeoutMs", "where".',
    );
    await expect(app.waitForNotification(list, { where: "uri" } as never)).rejects.toThrow('"where" must be a function, got "uri"');
    await expect(app.waitForNotifications(list, -1)).rejects.toThrow("waitForNotifications(): the count must be a whole number >= 0, got number -1.");
    await expect(app.waitForNotification(undefined as never)).rejects.toThrow('waitForNotification(): the method must be a notification method such as "notifications/message", got nothing.');
    // The bad waits left nothing behind: a good one still resolves.
    await app.initialize();
    const waiting = app.waitForNotification(list, { timeoutMs: 2_000 });
    await mock.setTool("two", { returns: 2 });
    expect((await waiting).method).toBe(list);
  });

  it("a mock closing under a call rejects it with ConnectionClosedError", async () => {
    const mock = await mockMcp({ tools: { slow: { hang: true } } });
    await using app = mcpAttach(mock.connectInMemory(), { requestTimeout: 5000 });
    await app.initialize();
    const call = app.callTool("slow").catch((e: unknown) => e);
    await mock.waitForCalls(1);
    await mock.close();
    const error = (await call) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toContain('The connection to the attached transport closed before tools/call "slow"');
  });
});
