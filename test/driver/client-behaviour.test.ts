/**
 * The driver as a good client: what it answers when the server asks (roots, sampling,
 * elicitation, ping: never a silent drop), the capabilities it declares, paging through lists
 * and refreshing them on list_changed.
 */
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, JsonRpcFailure, mcpAttach, mcpShell, ProtocolError, RpcError, type McpDriver } from "../../src/driver/index.js";
import { mockMcp } from "../../src/index.js";
import { useDrivers, zoo } from "./support.js";

const track = useDrivers();

/** Has the zoo server send `method` to the client and returns how the client answered. */
async function ask(app: McpDriver, method: string, params: Record<string, unknown> = {}) {
  const result = await app.callTool("ask", { method, params });
  return JSON.parse(result.getTextContent()!) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

function initializeRequest(app: McpDriver) {
  const record = app.messages.find((r) => r.direction === "outgoing" && r.method === "initialize" && "params" in r.content);
  return (record!.content as { params: Record<string, unknown> }).params;
}

describe("answering server requests", () => {
  it("by default: ping answered; roots, sampling and elicitation refused with an error naming the option", async () => {
    const app = track(mcpShell(zoo("asks-client")));
    await app.initialize();
    expect(initializeRequest(app)).toMatchObject({
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "mcp-testkit" },
    });

    expect(await ask(app, "ping")).toEqual({ result: {} });

    const roots = await ask(app, "roots/list");
    expect(roots.error?.code).toBe(-32601);
    expect(roots.error?.message).toContain("pass roots: [");

    const sampling = await ask(app, "sampling/createMessage", { messages: [], maxTokens: 5 });
    expect(sampling.error?.code).toBe(-32601);
    expect(sampling.error?.message).toContain("pass onSampling:");

    const elicitation = await ask(app, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } });
    expect(elicitation.error?.code).toBe(-32601);
    expect(elicitation.error?.message).toContain("pass onElicitation:");

    const unknown = await ask(app, "made/up");
    expect(unknown.error).toMatchObject({ code: -32601, message: expect.stringContaining('"made/up"') });
    await app.close();
  });

  it("with options: declares the capabilities and answers with the handlers' results", async () => {
    const app = track(
      mcpShell(zoo("asks-client"), {
        roots: [],
        onSampling: (params) => ({ role: "assistant", content: { type: "text", text: `max ${params.maxTokens}` }, model: "m" }),
        onElicitation: (params, context) => ({ action: "accept", content: { asked: params.message, method: context.method } }),
        capabilities: { experimental: { custom: {} } },
        clientInfo: { name: "my-suite", version: "9.9.9" },
      }),
    );
    await app.initialize();
    expect(initializeRequest(app)).toMatchObject({
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {}, experimental: { custom: {} } },
      clientInfo: { name: "my-suite", version: "9.9.9" },
    });
    expect(await ask(app, "roots/list")).toEqual({ result: { roots: [] } });
    await app.setRoots([{ uri: "file:///work", name: "work" }]);
    expect(await ask(app, "roots/list")).toEqual({ result: { roots: [{ uri: "file:///work", name: "work" }] } });
    expect(app.messages.some((r) => r.direction === "outgoing" && r.method === "notifications/roots/list_changed")).toBe(true);

    const sampling = await ask(app, "sampling/createMessage", { messages: [], maxTokens: 7 });
    expect(sampling.result).toMatchObject({ role: "assistant", content: { text: "max 7" }, model: "m" });
    const elicitation = await ask(app, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } });
    expect(elicitation.result).toEqual({ action: "accept", content: { asked: "Name?", method: "elicitation/create" } });
    await app.close();
  });

  it("a handler that throws answers with a JSON-RPC error carrying its message", async () => {
    const app = track(
      mcpShell(zoo("asks-client"), {
        onSampling: () => {
          throw new Error("no model in this test");
        },
      }),
    );
    const answer = await ask(app, "sampling/createMessage", { messages: [], maxTokens: 5 });
    expect(answer.error).toEqual({ code: -32603, message: "no model in this test" });
    await app.close();
  });

  it("a handler that throws an RpcError answers with its code, message and data (JsonRpcFailure is the same class)", async () => {
    expect(JsonRpcFailure).toBe(RpcError);
    const app = track(
      mcpShell(zoo("asks-client"), {
        onSampling: () => {
          throw new RpcError(-32001, "the user declined", { reason: "test" });
        },
        onElicitation: () => {
          throw new JsonRpcFailure(-32002, "no form today");
        },
      }),
    );
    expect((await ask(app, "sampling/createMessage", { messages: [], maxTokens: 5 })).error).toEqual({ code: -32001, message: "the user declined", data: { reason: "test" } });
    const elicitation = await ask(app, "elicitation/create", { message: "name?", requestedSchema: { type: "object", properties: {} } });
    expect(elicitation.error).toEqual({ code: -32002, message: "no form today" });
    await app.close();
  });

  it("a server request with invalid params is refused with -32602 and the problems", async () => {
    const app = track(mcpShell(zoo("asks-client"), { onSampling: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }) }));
    const answer = await ask(app, "sampling/createMessage", { messages: "not a list" });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain("$.params.messages");
    expect(app.problems.some((problem) => problem.method === "sampling/createMessage")).toBe(true);
    await app.close();
  });

  it("initialize params override the defaults; initialize twice returns the same result", async () => {
    const app = track(mcpShell(zoo("asks-client")));
    const first = await app.initialize({ protocolVersion: "2025-06-18" });
    expect(first.protocolVersion).toBe("2025-06-18");
    expect(await app.initialize()).toBe(first);
    expect(app.recorder.byMethod("initialize")).toHaveLength(2); // one request, one response
    await app.close();
  });
});

describe("lists", () => {
  it("follows nextCursor over every page", async () => {
    const app = track(mcpShell(zoo("paginated")));
    const tools = await app.getTools();
    expect(tools.map((tool) => tool.name)).toEqual(["t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    const requests = app.messages.filter((r) => r.direction === "outgoing" && r.method === "tools/list");
    expect(requests.map((r) => (r.content as { params?: { cursor?: string } }).params?.cursor)).toEqual([undefined, "3", "6"]);
    await app.close();
  });

  it("refreshes a cached list when the server says it changed", async () => {
    const app = track(mcpShell(zoo("paginated")));
    expect(await app.hasTool("t8")).toBe(false);
    await app.callTool("add");
    await app.waitForNotification("notifications/tools/list_changed");
    expect(await app.hasTool("t8")).toBe(true);
    expect((await app.getTools()).length).toBe(8);
    await expect(app.getTools({ refresh: true })).resolves.toHaveLength(8);
    await app.close();
  });

  it("a server that repeats a cursor fails with a ProtocolError instead of looping", async () => {
    const app = track(mcpShell(zoo("paginated"), { env: { ZOO_REPEAT_CURSOR: "1" } }));
    const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('tools/list: the server returned nextCursor "3" a second time');
    await app.close();
  });
});

describe("notifications", () => {
  it("waitForNotification times out with what did arrive", async () => {
    const app = track(mcpShell(zoo("paginated")));
    await app.callTool("add");
    await expect(app.waitForNotification("notifications/message", { timeoutMs: 100 })).rejects.toThrow(
      /Waited 100 ms for a notifications\/message notification; got 0\. Notifications received: notifications\/tools\/list_changed ×1\./,
    );
    const seen: string[] = [];
    const stop = app.onNotification("*", (n) => seen.push(n.method));
    await app.callTool("add");
    stop();
    await app.callTool("add");
    await app.waitForNotifications("notifications/tools/list_changed", 3);
    expect(seen).toEqual(["notifications/tools/list_changed"]);
    app.clearNotifications();
    expect(app.notifications).toEqual([]);
    await app.close();
  });

  it("a `where` that throws fails its wait with that error; close() fails the waits still open at once", async () => {
    await using mock = await mockMcp();
    // Legacy: the session gets the mock's broadcasts (2026-07-28 sends notifications only on a listen).
    const app = track(mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" }));
    await app.initialize();
    const broken = app.waitForNotification("notifications/message", {
      where: () => {
        throw new Error("where is broken");
      },
      timeoutMs: 60_000,
    });
    const open = app.waitForNotification("notifications/progress", { timeoutMs: 5_000 }).catch((error: unknown) => error);
    mock.notify("notifications/message", { level: "info", data: "hello" });
    await expect(broken).rejects.toThrow("where is broken");
    await app.close();
    // Failed by close(), not by its own 5 s timeout (which would say so in a different error).
    const error = await open;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toContain("close() was called while waiting for a notifications/progress notification.");
  });
});
