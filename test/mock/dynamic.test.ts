/**
 * Changing the catalog during a test: `setTool`, `removeTool`, `setResource`, `removeResource`,
 * `setPrompt`, `removePrompt`. Each change tells every connected client the list changed, and
 * what is added after a client connected works for that client.
 */
import { describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { connect, mock, request, rpc, useCleanup } from "./support.js";

useCleanup();

/** Counts the list_changed notifications a client receives, by kind. */
function watch(client: Client) {
  const seen: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.push("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push("prompts"));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`updated ${n.params.uri}`));
  return seen;
}

const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;

describe("tools", () => {
  it("setTool adds a tool, tells every client, and the tool works at once", async () => {
    const server = await mock({ tools: { old: { returns: "old" } } });
    const a = await connect(server);
    const b = await connect(server);
    const seenA = watch(a);
    const seenB = watch(b);

    await server.setTool("new_tool", { description: "Added later", responses: [{ returns: "hi" }] });
    await expect.poll(() => [seenA, seenB]).toEqual([["tools"], ["tools"]]);
    expect((await a.listTools()).tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["old", "Mock tool: old"],
      ["new_tool", "Added later"],
    ]);
    expect(text(await b.callTool({ name: "new_tool" }))).toBe("hi");
    expect(server.callsTo("new_tool")).toHaveLength(1);
  });

  it("a replaced tool starts its new script from the first step (its call index keeps counting)", async () => {
    const server = await mock({ tools: { t: [{ returns: "a1" }, { returns: "a2" }] } });
    const client = await connect(server);
    expect(text(await client.callTool({ name: "t" }))).toBe("a1");
    expect(text(await client.callTool({ name: "t" }))).toBe("a2");
    await server.setTool("t", [{ returns: "b1" }, { returns: "b2" }]);
    expect(text(await client.callTool({ name: "t" }))).toBe("b1");
    expect(text(await client.callTool({ name: "t" }))).toBe("b2");
    expect(server.callsTo("t").map((call) => call.index)).toEqual([0, 1, 2, 3]);
  });

  it("replacing a tool also tells clients, and its new definition is listed", async () => {
    const server = await mock({ tools: { t: { description: "v1" } } });
    const client = await connect(server);
    const seen = watch(client);
    await server.setTool("t", { description: "v2", annotations: { destructiveHint: true } });
    await expect.poll(() => seen).toEqual(["tools"]);
    expect((await client.listTools()).tools).toEqual([{ name: "t", description: "v2", inputSchema: { type: "object" }, annotations: { destructiveHint: true } }]);
  });

  it("removeTool tells clients, and the tool is then unknown (-32602, still recorded)", async () => {
    const server = await mock({ tools: { keep: {}, drop: {} } });
    const client = await connect(server);
    const seen = watch(client);
    expect(await server.removeTool("drop")).toBe(true);
    await expect.poll(() => seen).toEqual(["tools"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["keep"]);
    const error = await client.callTool({ name: "drop" }).catch((e: { code: number; message: string }) => e);
    expect(error).toMatchObject({ code: -32602, message: "MCP error -32602: Unknown tool: drop" });
    expect(server.calls.map((call) => call.outcome)).toEqual(["unknown-tool"]);
  });

  it("removing a tool that is not there returns false and tells no one", async () => {
    const server = await mock({ tools: { keep: {} } });
    const client = await connect(server);
    const seen = watch(client);
    expect(await server.removeTool("ghost")).toBe(false);
    await client.ping();
    expect(seen).toEqual([]);
  });

  it("works with the SDK client's own listChanged refresh", async () => {
    const server = await mock({ tools: { first: {} } });
    const refreshed: string[][] = [];
    const client = await connect(server, {
      clientOptions: {
        listChanged: { tools: { debounceMs: 0, onChanged: (error: Error | null, tools: Tool[] | null) => void refreshed.push(error ? [error.message] : (tools ?? []).map((t) => t.name)) } },
      },
    });
    await server.setTool("second", { returns: "2" });
    await expect.poll(() => refreshed).toEqual([["first", "second"]]);
    expect(text(await client.callTool({ name: "second" }))).toBe("2");
  });

  it("a tool registered after connecting works even for a tools-less start", async () => {
    const server = await mock();
    const client = await connect(server);
    expect((await client.listTools()).tools).toEqual([]);
    await server.setTool("late", (call) => ({ returns: `late ${String(call.arguments.x)}` }));
    expect(text(await client.callTool({ name: "late", arguments: { x: 1 } }))).toBe("late 1");
  });
});

describe("resources", () => {
  it("setResource adds a resource or template (resources list_changed); removeResource removes it", async () => {
    const server = await mock();
    const client = await connect(server);
    const seen = watch(client);
    await server.setResource("notes://new", "fresh");
    await server.setResource("db://users/{id}", { text: "user {id}" });
    await expect.poll(() => seen).toEqual(["resources", "resources"]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["notes://new"]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)).toEqual(["db://users/{id}"]);
    expect((await client.readResource({ uri: "notes://new" })).contents).toEqual([{ uri: "notes://new", mimeType: "text/plain", text: "fresh" }]);
    expect((await client.readResource({ uri: "db://users/7" })).contents[0]).toMatchObject({ text: "user 7" });

    expect(await server.removeResource("notes://new")).toBe(true);
    expect(await server.removeResource("db://users/{id}")).toBe(true);
    expect(await server.removeResource("notes://new")).toBe(false);
    await expect.poll(() => seen).toEqual(["resources", "resources", "resources", "resources"]);
    const gone = await client.readResource({ uri: "notes://new" }).catch((e: { code: number }) => e);
    expect(gone).toMatchObject({ code: -32002 });
  });

  it("replacing a resource sends updated to its subscribers, not list_changed", async () => {
    const server = await mock({ resources: { "notes://today": "v1" } });
    const client = await connect(server);
    const seen = watch(client);
    await client.subscribeResource({ uri: "notes://today" });
    await server.setResource("notes://today", "v2");
    await expect.poll(() => seen).toEqual(["updated notes://today"]);
  });
});

describe("prompts", () => {
  it("setPrompt adds or replaces a prompt and removePrompt removes it, each telling clients", async () => {
    const server = await mock({ prompts: { greet: "Hello" } });
    const client = await connect(server);
    const seen = watch(client);
    await server.setPrompt("bye", "Goodbye");
    await server.setPrompt("greet", "Hi there");
    await expect.poll(() => seen).toEqual(["prompts", "prompts"]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet", "bye"]);
    expect((await client.getPrompt({ name: "greet" })).messages[0]!.content).toEqual({ type: "text", text: "Hi there" });
    expect(await server.removePrompt("bye")).toBe(true);
    expect(await server.removePrompt("bye")).toBe(false);
    await expect.poll(() => seen).toEqual(["prompts", "prompts", "prompts"]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
  });
});

describe("who is told", () => {
  it("every connected client that initialized; not closed clients, not handle() (it has no way back)", async () => {
    const server = await mock();
    const a = await connect(server);
    const b = await connect(server);
    const closed = await connect(server);
    const seenA = watch(a);
    const seenB = watch(b);
    const seenClosed = watch(closed);
    await closed.close();
    await request(server, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } });

    await server.setTool("t", {});
    await server.setPrompt("p", "x");
    await server.setResource("r://x", "x");
    const all = ["tools", "prompts", "resources"];
    await expect.poll(() => [seenA, seenB]).toEqual([all, all]);
    expect(seenClosed).toEqual([]);
  });

  it("a transport connected but not yet initialized is not told", async () => {
    const server = await mock();
    const transport = await server.connectInMemory();
    const received: unknown[] = [];
    transport.onmessage = (message) => void received.push(message);
    await transport.start();
    await server.setTool("t", {});
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await expect.poll(() => received).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await transport.close();
  });

  it("after initialize through handle() the direct session still works with the new tools", async () => {
    const server = await mock();
    await rpc(server, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    await server.setTool("t", { returns: "direct" });
    expect((await request(server, "tools/call", { name: "t" })).result).toEqual({ content: [{ type: "text", text: "direct" }] });
  });
});
