/**
 * Tasks in 2025-11-25 (experimental, in the core protocol): SDK v1's experimental tasks client
 * (callToolStream, getTask, listTasks, cancelTask) against the mock over memory and Streamable
 * HTTP, and the raw JSON-RPC the spec shows, every field checked.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closing of open.splice(0).reverse()) await closing.close();
});

async function serve(options: MockMcpOptions, transport: "memory" | "http" = "memory"): Promise<{ server: MockMcpServer; client: Client }> {
  const server = await mockMcp({ transport, ...options });
  open.push(server);
  const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok: true } }));
  await client.connect(transport === "memory" ? await server.connectInMemory() : new StreamableHTTPClientTransport(new URL(server.url!)));
  open.push(client);
  return { server, client };
}

/** Everything SDK v1's callToolStream yields, in order. */
async function streamed(client: Client, name: string): Promise<Array<Record<string, any>>> {
  const seen: Array<Record<string, any>> = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
    seen.push(message as Record<string, any>);
    if (seen.length > 50) break;
  }
  return seen;
}

const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

describe("2025-11-25 tasks with SDK v1's experimental tasks client", () => {
  for (const transport of ["memory", "http"] as const) {
    it(`a task created, polled and its result fetched (${transport})`, async () => {
      const { server, client } = await serve({ tools: { build: { task: { working: 2, message: "Compiling" }, returns: "built" } } }, transport);
      expect(client.getServerCapabilities()?.tasks).toEqual(TASKS_CAPABILITY);
      const listed = await client.listTools();
      expect(listed.tools[0]).toMatchObject({ name: "build", execution: { taskSupport: "optional" } });
      const seen = await streamed(client, "build");
      expect(seen[0]).toMatchObject({ type: "taskCreated", task: { status: "working", statusMessage: "Compiling", ttl: 60_000, pollInterval: 100 } });
      expect(seen.at(-1)).toMatchObject({ type: "result", result: { content: [{ type: "text", text: "built" }] } });
      const taskId = seen[0]!.task.taskId as string;
      expect(server.calls[0]).toMatchObject({ outcome: "result", task: { id: taskId } });
      const task = await client.experimental.tasks.getTask(taskId);
      expect(task).toMatchObject({ taskId, status: "completed" });
      const listing = await client.experimental.tasks.listTasks();
      expect(listing.tasks.map((t) => t.taskId)).toEqual([taskId]);
    });
  }

  it("input_required: the ask goes to the client on the tasks/result stream, and the task goes on with the answer", async () => {
    const { server, client } = await serve({
      tools: {
        deploy: {
          task: { inputMessage: "Waiting for approval" },
          asks: [{ method: "elicitation/create", params: { message: "Approve?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } }],
          returns: "deployed",
        },
      },
    });
    const seen = await streamed(client, "deploy");
    expect(seen.at(-1)).toMatchObject({ type: "result", result: { content: [{ text: "deployed" }] } });
    expect(server.calls[0]!.exchanges).toMatchObject([{ method: "elicitation/create", result: { action: "accept", content: { ok: true } } }]);
    expect(server.calls[0]!.task!.statuses.map((s) => s.status)).toContain("input_required");
  });

  it("a failed task ends the stream with an error; cancelTask cancels a working task, then -32602", async () => {
    const { server, client } = await serve({ tools: { broken: { task: {}, throws: { code: -32000, message: "backend down" } }, slow: { task: {}, hang: true } } });
    const seen = await streamed(client, "broken");
    expect(seen.at(-1)).toMatchObject({ type: "error" });
    const failed = await client.experimental.tasks.getTask(seen[0]!.task.taskId);
    expect(failed).toMatchObject({ status: "failed", statusMessage: "backend down" });
    const created = await client.request({ method: "tools/call", params: { name: "slow", arguments: {}, task: { ttl: 10_000 } } }, CreateTaskResultSchema);
    const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled).toMatchObject({ taskId: created.task.taskId, status: "cancelled" });
    await expect(client.experimental.tasks.cancelTask(created.task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect(server.calls.map((call) => call.outcome)).toEqual(["protocol-error", "cancelled"]);
  });
});

describe("2025-11-25 tasks as raw JSON-RPC", () => {
  async function session(options: MockMcpOptions) {
    const server = await mockMcp({ transport: "memory", ...options });
    open.push(server);
    let id = 0;
    const send = async (method: string, params: Record<string, unknown> = {}) =>
      JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })))!) as { result?: any; error?: any };
    await send("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    return { server, send };
  }

  it("the create result wraps the task; tasks/get answers it flat; tasks/cancel answers the cancelled task, then -32602", async () => {
    const { send } = await session({ tools: { slow: { task: { pollIntervalMs: 500 }, hang: true } } });
    const created = await send("tools/call", { name: "slow", arguments: {}, task: { ttl: 30_000 } });
    expect(Object.keys(created.result).sort()).toEqual(["task"]);
    const task = created.result.task;
    expect(Object.keys(task).sort()).toEqual(["createdAt", "lastUpdatedAt", "pollInterval", "status", "taskId", "ttl"]);
    expect(task).toMatchObject({ status: "working", ttl: 30_000, pollInterval: 500 });
    expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
    const got = await send("tasks/get", { taskId: task.taskId });
    expect(got.result).toMatchObject({ taskId: task.taskId, status: "working", ttl: 30_000, pollInterval: 500 });
    const cancelled = await send("tasks/cancel", { taskId: task.taskId });
    expect(cancelled.result).toMatchObject({ taskId: task.taskId, status: "cancelled", statusMessage: "The task was cancelled by request." });
    const again = await send("tasks/cancel", { taskId: task.taskId });
    expect(again.error).toMatchObject({ code: -32602, data: { status: "cancelled" } });
    expect(again.error.message).toContain("terminal task cannot be cancelled");
  });

  it("tasks/result answers the original result with the related-task _meta", async () => {
    const { send } = await session({ tools: { build: { task: {}, returns: "built" } } });
    const { taskId } = (await send("tools/call", { name: "build", arguments: {}, task: {} })).result.task;
    const result = await send("tasks/result", { taskId });
    expect(result.result).toEqual({ content: [{ type: "text", text: "built" }], _meta: { "io.modelcontextprotocol/related-task": { taskId } } });
  });

  it("a tool that forbids tasks refuses params.task, a tool that requires one refuses a call without (-32601)", async () => {
    const { send } = await session({
      tools: { plain: { execution: { taskSupport: "forbidden" }, responses: { returns: "x" } }, batch: { execution: { taskSupport: "required" }, responses: { returns: "y" } } },
    });
    const forbidden = await send("tools/call", { name: "plain", arguments: {}, task: {} });
    expect(forbidden.error).toMatchObject({ code: -32601, data: { taskSupport: "forbidden" } });
    const required = await send("tools/call", { name: "batch", arguments: {} });
    expect(required.error).toMatchObject({ code: -32601, data: { taskSupport: "required" } });
    expect(required.error.message).toContain("params.task");
    expect((await send("tools/call", { name: "batch", arguments: {}, task: {} })).result.task.status).toBe("working");
  });

  it("tasks/update is 2026-07-28's only", async () => {
    const { send } = await session({ tools: {} });
    const refused = await send("tasks/update", { taskId: "x", inputResponses: {} });
    expect(refused.error.code).toBe(-32601);
    expect(refused.error.message).toContain("2026-07-28");
  });
});
