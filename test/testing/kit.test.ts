/**
 * The per-test kit (`mcp-testkit/testing`) under Vitest, as usage examples. This config has no
 * Vitest globals, so most kits here get Vitest's hooks explicitly, as a user without globals would.
 */
import { AssertionError } from "node:assert";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpTestkitError } from "../../src/errors.js";
import type { MockMcpServer } from "../../src/mock/mock-mcp.js";
import { createTestKit, mcpTestKit, type McpTestKit, type SingleTestKit, type TestHooks } from "../../src/testing/index.js";

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

function text(result: CallToolResult): string | undefined {
  const block = result.content[0];
  return block?.type === "text" ? block.text : undefined;
}

const activeTimeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("mcpTestKit: a fresh server and client for each test", () => {
  const kit = mcpTestKit(
    { tools: { search: { returns: "found" }, fetch: { returns: "page" }, slow: { hang: true }, turns: [{ returns: "first" }, { returns: "second" }] } },
    { beforeEach, afterEach },
  );

  // Set by one test, checked by the next: Vitest runs a file's tests in order.
  let previous: { server: MockMcpServer; client: Client; pending: Promise<unknown> } | undefined;

  it("connects and initializes an SDK client before the test body runs", async () => {
    expect(kit.client.getServerVersion()).toEqual({ name: "test-server", version: "1.0.0" });
    // The mock advertises everything it can do, so resources and prompts added later still work.
    expect(kit.client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
    });
    expect(kit.transport.mockSessionId).toEqual(expect.any(String));
    // The client connects in memory, so the kit's mock listens on no port unless asked to.
    expect(kit.server.url).toBeUndefined();
    const result = await kit.client.callTool({ name: "search", arguments: { q: "bug" } });
    expect(result.content).toEqual([{ type: "text", text: "found" }]);
    expect(kit.server.calls[0]).toMatchObject({ tool: "search", arguments: { q: "bug" }, sessionId: kit.transport.mockSessionId });
  });

  it("(1 of 2) changes the server and leaves a call hanging", async () => {
    await kit.server.setTool("extra", { returns: "x" });
    await kit.assertToolReturns("turns", {}, (result) => text(result) === "first");
    const pending = kit.client.callTool({ name: "slow", arguments: {} });
    pending.catch(() => undefined); // rejected when the kit closes the client, checked below
    await kit.server.waitForCalls(1, { tool: "slow" });
    previous = { server: kit.server, client: kit.client, pending };
  });

  it("(2 of 2) starts from the options again, and the previous test's client and server are closed", async () => {
    expect(previous).toBeDefined();
    const { server, client, pending } = previous!;
    expect(kit.server).not.toBe(server);
    expect(kit.client).not.toBe(client);
    // Fresh: the tool set in the previous test is gone, and the record is empty.
    expect((await kit.client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch", "slow", "turns"]);
    expect(kit.server.calls).toEqual([]);
    expect(kit.server.messages.map((message) => ("method" in message ? message.method : "response"))).toEqual(["initialize", "notifications/initialized", "tools/list"]);
    // Scripts start over: the previous test's call took the first step.
    await kit.assertToolReturns("turns", {}, (result) => text(result) === "first");
    // The previous client was closed first (its hanging call ended as "disconnected"), then its server.
    await expect(pending).rejects.toThrow("Connection closed");
    expect(server.callsTo("slow").map((call) => call.outcome)).toEqual(["disconnected"]);
    expect(client.transport).toBeUndefined();
    await expect(client.ping()).rejects.toThrow("Not connected");
    await expect(server.connectInMemory()).rejects.toThrow(new McpTestkitError("connectInMemory() was called after close(); create a new mock with mockMcp()."));
  });

  it("assertToolExists passes with the tool's definition", async () => {
    const tool = await kit.assertToolExists("fetch");
    expect(tool).toMatchObject({ name: "fetch", inputSchema: { type: "object" } });
  });

  it("assertToolExists fails with an AssertionError that lists the tools present", async () => {
    const error = await rejection(kit.assertToolExists("echo"));
    expect(error).toBeInstanceOf(AssertionError);
    expect(error.message).toBe('Expected tool "echo" to exist, but the server has: search, fetch, slow, turns');
    // The stack points at the caller, not at the kit's internals.
    expect(error.stack).not.toMatch(/tool-assertions\.ts/);
  });

  it("assertToolExists names the closest tool when the name is a likely typo", async () => {
    const error = await rejection(kit.assertToolExists("serch"));
    expect(error.message).toBe('Expected tool "serch" to exist, but the server has: search, fetch, slow, turns; did you mean "search"?');
  });

  it("assertToolReturns passes when the check returns true or nothing, and returns the result", async () => {
    const result = await kit.assertToolReturns("search", { q: "bug" }, (r) => text(r) === "found");
    expect(result).toEqual({ content: [{ type: "text", text: "found" }] });
    await kit.assertToolReturns("search", {}, (r) => {
      expect(text(r)).toBe("found");
    });
    await kit.assertToolReturns("search", {}, async (r) => text(r) === "found");
    kit.server.assertCalled("search", { times: 3 });
  });

  it("assertToolReturns fails when the check returns false, showing the result", async () => {
    const error = await rejection(kit.assertToolReturns("fetch", {}, (r) => text(r) === "nope"));
    expect(error).toBeInstanceOf(AssertionError);
    expect(error.message).toBe('Expected tool "fetch" to return a result that passes the check, but the check returned false\n' + 'Result: {"content":[{"type":"text","text":"page"}]}');
  });

  it("assertToolReturns fails when the check throws, with the thrown error as cause", async () => {
    const error = await rejection(kit.assertToolReturns("fetch", {}, (r) => expect(text(r)).toBe("nope")));
    expect(error).toBeInstanceOf(AssertionError);
    expect(error.message).toBe(
      "Expected tool \"fetch\" to return a result that passes the check, but the check threw: expected 'page' to be 'nope' // Object.is equality\n" +
        'Result: {"content":[{"type":"text","text":"page"}]}',
    );
    expect((error.cause as Error).message).toBe("expected 'page' to be 'nope' // Object.is equality");
  });

  it("assertToolReturns fails when the call fails, whatever the check says", async () => {
    await kit.server.setTool("broken", { toolError: "upstream down" });
    const toolError = await rejection(kit.assertToolReturns("broken", {}, () => true));
    expect(toolError).toBeInstanceOf(AssertionError);
    expect(toolError.message).toBe(
      'Expected tool "broken" to return a result that passes the check, but it returned a tool error: upstream down\n' + 'Result: {"content":[{"type":"text","text":"upstream down"}],"isError":true}',
    );
    const unknown = await rejection(kit.assertToolReturns("nope", {}, () => true));
    expect(unknown).toBeInstanceOf(AssertionError);
    expect(unknown.message).toBe('Expected tool "nope" to return a result that passes the check, but the call failed with JSON-RPC error -32602: Unknown tool: nope');
  });

  it("assertToolFails passes on a tool error or a JSON-RPC error, and returns the failure", async () => {
    await kit.server.setTool("broken", { toolError: "upstream down" });
    await kit.server.setTool("limited", { throws: { code: -32000, message: "rate_limited", data: { retryAfter: 3 } } });
    expect(await kit.assertToolFails("broken", {}, "upstream down")).toEqual({
      kind: "tool-error",
      message: "upstream down",
      result: { content: [{ type: "text", text: "upstream down" }], isError: true },
    });
    expect(await kit.assertToolFails("limited", {}, /rate/)).toEqual({
      kind: "protocol-error",
      message: "rate_limited",
      code: -32000,
      data: { retryAfter: 3 },
    });
    expect(await kit.assertToolFails("nope", {})).toMatchObject({ kind: "protocol-error", code: -32602, message: "Unknown tool: nope" });
  });

  it("assertToolFails fails when the tool succeeds or fails differently", async () => {
    await kit.server.setTool("limited", { throws: "rate_limited" });
    const succeeded = await rejection(kit.assertToolFails("search", { q: "x" }));
    expect(succeeded).toBeInstanceOf(AssertionError);
    expect(succeeded.message).toBe('Expected tool "search" to fail, but it returned a result\nResult: {"content":[{"type":"text","text":"found"}]}');
    const differently = await rejection(kit.assertToolFails("limited", {}, "timeout"));
    expect(differently).toBeInstanceOf(AssertionError);
    expect(differently.message).toBe('Expected tool "limited" to fail with "timeout", but it failed with JSON-RPC error -32603: rate_limited');
    const byPattern = await rejection(kit.assertToolFails("limited", {}, /^time/));
    expect(byPattern.message).toBe('Expected tool "limited" to fail with /^time/, but it failed with JSON-RPC error -32603: rate_limited');
  });

  it("serves resources and prompts registered inside the test (the kit was built with none)", async () => {
    const resourceLists: unknown[] = [];
    const promptLists: unknown[] = [];
    kit.client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => void resourceLists.push(n.method));
    kit.client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => void promptLists.push(n.method));

    await kit.server.setResource("notes://today", "Ship the docs.");
    await kit.server.setResource("files://{name}", { read: (_uri, { name }) => `contents of ${name}` });
    await kit.server.setPrompt("greet", {
      arguments: [{ name: "who", required: true }],
      messages: (args) => [{ role: "user", content: `Hello, ${args.who}` }],
    });

    expect((await kit.client.listResources()).resources).toEqual([{ uri: "notes://today", name: "notes://today", mimeType: "text/plain" }]);
    expect((await kit.client.readResource({ uri: "notes://today" })).contents).toEqual([{ uri: "notes://today", mimeType: "text/plain", text: "Ship the docs." }]);
    expect((await kit.client.readResource({ uri: "files://a.txt" })).contents).toMatchObject([{ uri: "files://a.txt", text: "contents of a.txt" }]);
    expect((await kit.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    expect((await kit.client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada" } }]);
    // One per new entry: the resource, then the template.
    expect(resourceLists).toEqual(["notifications/resources/list_changed", "notifications/resources/list_changed"]);
    expect(promptLists).toEqual(["notifications/prompts/list_changed"]);
  });
});

describe("mcpTestKit with a strict client: resources and prompts added in the test (tnsai's kit fails here)", () => {
  // A strict client refuses methods the server did not advertise at initialize, as tnsai's client does.
  const kit = mcpTestKit({ client: { enforceStrictCapabilities: true } }, { beforeEach, afterEach });

  it("reads a resource and gets a prompt registered after the client initialized", async () => {
    await kit.server.setResource("notes://today", "Ship the docs.");
    await kit.server.setPrompt("greet", "Hello");
    expect((await kit.client.readResource({ uri: "notes://today" })).contents).toEqual([{ uri: "notes://today", mimeType: "text/plain", text: "Ship the docs." }]);
    expect((await kit.client.getPrompt({ name: "greet" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello" } }]);
  });

  it("would fail if the server advertised only what it had at initialize (the control)", async () => {
    await using narrow = await createTestKit({ capabilities: { tools: {} }, client: { enforceStrictCapabilities: true } });
    await narrow.server.setResource("notes://today", "Ship the docs.");
    await expect(narrow.client.readResource({ uri: "notes://today" })).rejects.toThrow("Server does not support resources (required for resources/read)");
  });
});

describe("mcpTestKit with client options", () => {
  const kit = mcpTestKit(
    {
      serverInfo: { name: "weather", version: "2.0.0" },
      client: { info: { name: "my-agent", version: "0.3.0" }, capabilities: { sampling: {} } },
      tools: {
        summarize: async (call) => {
          const answer = await call.sample({ messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 50 });
          return { returns: (answer.content as { text: string }).text };
        },
      },
    },
    { beforeEach, afterEach },
  );

  it("uses the given serverInfo, clientInfo and capabilities, so the test can answer sampling", async () => {
    expect(kit.client.getServerVersion()).toEqual({ name: "weather", version: "2.0.0" });
    expect(kit.server.messages[0]).toMatchObject({
      method: "initialize",
      params: { clientInfo: { name: "my-agent", version: "0.3.0" }, capabilities: { sampling: {} } },
    });
    kit.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "All sunny." },
      model: "fake-model",
    }));
    await kit.assertToolReturns("summarize", {}, (result) => text(result) === "All sunny.");
    expect(kit.server.calls[0]!.exchanges.map((exchange) => exchange.method)).toEqual(["sampling/createMessage"]);
  });
});

describe("mcpTestKit with the runner's global hooks", () => {
  // As under Jest, or Vitest with `globals: true`: no hooks passed.
  const globals = globalThis as { beforeEach?: unknown; afterEach?: unknown };
  globals.beforeEach = beforeEach;
  globals.afterEach = afterEach;
  let kit: McpTestKit;
  try {
    kit = mcpTestKit({ tools: { search: { returns: "found" } } });
  } finally {
    delete globals.beforeEach;
    delete globals.afterEach;
  }

  it("takes globalThis.beforeEach and afterEach", async () => {
    await kit.assertToolExists("search");
    expect(kit.server.calls).toEqual([]);
  });
});

describe("mcpTestKit misuse", () => {
  it("says which hooks are missing when there are no hooks and no runner globals", () => {
    expect((globalThis as { beforeEach?: unknown }).beforeEach).toBeUndefined();
    expect(() => mcpTestKit({})).toThrow(
      new McpTestkitError(
        "mcpTestKit() needs beforeEach and afterEach hooks to give each test a fresh server and client, but none were given and there is no global beforeEach/afterEach. " +
          'Pass your runner\'s hooks: mcpTestKit(options, { beforeEach, afterEach }), importing them from "node:test" or "vitest", ' +
          "or enable your runner's globals (Jest has them; Vitest with test.globals: true). " +
          "For a single test, use `await using kit = await createTestKit(options)` instead.",
      ),
    );
    expect(() => mcpTestKit({}, { beforeEach })).toThrow(McpTestkitError);
    expect(() => mcpTestKit({}, { beforeEach })).toThrow(
      /^\[mcp-testkit\] mcpTestKit\(\) was given hooks without afterEach; it needs both beforeEach and afterEach functions\. Pass your runner's hooks/,
    );
  });

  /** Hooks the test runs by hand, to see the kit between and across tests. */
  function handHooks() {
    const before: Array<() => Promise<void>> = [];
    const after: Array<() => Promise<void>> = [];
    const hooks: TestHooks = { beforeEach: (fn) => before.push(fn), afterEach: (fn) => after.push(fn) };
    return { hooks, before, after };
  }

  it("registers hook functions with no parameters (so Jest and node:test do not wait for a done callback)", () => {
    const { hooks, before, after } = handHooks();
    mcpTestKit({}, hooks);
    expect([before.length, after.length]).toEqual([1, 1]);
    expect([before[0]!.length, after[0]!.length]).toEqual([0, 0]);
  });

  it("throws a clear error when a member is used outside a test", async () => {
    const { hooks, before, after } = handHooks();
    const kit = mcpTestKit({}, hooks);
    const outside = (member: string) =>
      new McpTestkitError(
        `kit.${member} is only available while a test runs: mcpTestKit() creates the mock server and client before each test and closes them after it. Use it inside a test, or in a beforeEach registered after mcpTestKit().`,
      );
    expect(() => kit.server).toThrow(outside("server"));
    expect(() => kit.client).toThrow(outside("client"));
    expect(() => kit.transport).toThrow(outside("transport"));
    await expect(kit.assertToolExists("x")).rejects.toThrow(outside("assertToolExists"));

    await before[0]!();
    expect(kit.client.getServerVersion()).toEqual({ name: "test-server", version: "1.0.0" });
    await after[0]!();
    expect(() => kit.server).toThrow(outside("server"));
    await after[0]!(); // a second close is harmless
  });

  it("refuses to serve two tests at once", async () => {
    const { hooks, before, after } = handHooks();
    const kit = mcpTestKit({}, hooks);
    await before[0]!();
    const first = kit.server;
    await expect(before[0]!()).rejects.toThrow(
      new McpTestkitError(
        "mcpTestKit() is still serving another test: one kit gives one test at a time its server and client, so tests that share it cannot run concurrently. Use createTestKit() in each concurrent test.",
      ),
    );
    expect(kit.server).toBe(first);
    await after[0]!();
  });

  it("passes the mock's own option errors through, before any hook runs a test", async () => {
    const { hooks, before } = handHooks();
    mcpTestKit({ tools: { bad: { retruns: 1 } as never } }, hooks);
    await expect(before[0]!()).rejects.toThrow(McpTestkitError);
    await expect(before[0]!()).rejects.toThrow(/has unknown key "retruns"/);
  });
});

describe("the kit's options, misspelt", () => {
  it("mcpTestKit() refuses a key neither it nor mockMcp() reads where it is called, naming the closest one", () => {
    const hooks: TestHooks = { beforeEach: () => undefined, afterEach: () => undefined };
    expect(() => mcpTestKit({ testID: true } as never, hooks)).toThrow(
      'mcpTestKit() options has unknown key "testID"; did you mean "testId"? mcpTestKit() takes "client", "testId", "traceDir" and "keepTraces", and mockMcp()\'s options: "tools",',
    );
  });

  it("createTestKit() does the same, before any server starts", async () => {
    await expect(createTestKit({ tool: {} } as never)).rejects.toThrow('createTestKit() options has unknown key "tool"; did you mean "tools"?');
    await expect(createTestKit("tools" as never)).rejects.toThrow("createTestKit() takes an options object");
  });
});

describe("createTestKit: one kit for one test, without hooks", () => {
  it("works with await using and closes the client and the server at the end of the block", async () => {
    let held: SingleTestKit;
    let client: Client;
    let server: MockMcpServer;
    {
      await using kit = await createTestKit({ tools: { echo: (call) => ({ returns: call.arguments.text }) } });
      held = kit;
      client = kit.client;
      server = kit.server;
      await kit.assertToolExists("echo");
      await kit.assertToolReturns("echo", { text: "hi" }, (result) => text(result) === "hi");
      kit.server.assertCalled("echo", { times: 1, with: { text: "hi" } });
    }
    expect(() => held.server).toThrow(new McpTestkitError("kit.server was used after the kit was closed; create a new one with createTestKit()."));
    await expect(held.assertToolExists("echo")).rejects.toThrow(new McpTestkitError("kit.assertToolExists was used after the kit was closed; create a new one with createTestKit()."));
    await expect(client.ping()).rejects.toThrow("Not connected");
    await expect(server.handle("{}")).rejects.toThrow("handle() was called after close()");
    await held.close(); // closing again is harmless
  });

  it("leaves no timer behind, even with a call still hanging when it closes", async () => {
    const baseline = activeTimeouts();
    const kit = await createTestKit({ tools: { slow: { hang: true } } });
    const pending = kit.client.callTool({ name: "slow", arguments: {} });
    await kit.server.waitForCalls(1);
    // The SDK client arms a request timeout for the hanging call.
    expect(activeTimeouts()).toBe(baseline + 1);
    await kit.close();
    await expect(pending).rejects.toThrow("Connection closed");
    expect(activeTimeouts()).toBe(baseline);
  });

  it("rejects with the client's error when initialize fails, leaving nothing open", async () => {
    const baseline = activeTimeouts();
    await expect(createTestKit({ protocolVersions: ["1999-01-01"] })).rejects.toThrow("Server's protocol version is not supported: 1999-01-01");
    expect(activeTimeouts()).toBe(baseline);
  });

  it("lists every tool across pages, in assertToolExists and in its message", async () => {
    await using kit = await createTestKit({ pageSize: 1, tools: { a: { returns: "" }, b: { returns: "" }, c: { returns: "" } } });
    expect(await kit.assertToolExists("c")).toMatchObject({ name: "c" });
    expect((await rejection(kit.assertToolExists("d"))).message).toBe('Expected tool "d" to exist, but the server has: a, b, c');
  });

  it("says so when the server has no tools at all", async () => {
    await using kit = await createTestKit();
    expect((await rejection(kit.assertToolExists("echo"))).message).toBe('Expected tool "echo" to exist, but the server has no tools');
  });
});
