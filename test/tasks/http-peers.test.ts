/**
 * Tasks over Streamable HTTP with real peers: SDK v2 (2.4.0, which has no task runtime of its
 * own) polls, updates and cancels a 2026-07-28 task through its generic request(), its
 * Mcp-Name taken from the task id; a mismatched Mcp-Name is refused; task status arrives on a
 * subscriptions/listen stream that names the task; and tasks stay with whoever made them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { modernRequest, postModern, useV2Cleanup, v2Http } from "../modern/support.js";
import { TASKS } from "./support.js";

useV2Cleanup();
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closing of open.splice(0).reverse()) await closing.close();
});

async function serve(options: MockMcpOptions): Promise<MockMcpServer> {
  const server = await mockMcp(options);
  open.push(server);
  return server;
}

const WITH_TASKS = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [TASKS]: {} } } };

/** A raw 2026-07-28 POST declaring the extension (extra headers: a test id, a wrong Mcp-Name). */
async function post(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string | null> = {}): Promise<{ status: number; body: any }> {
  const request = modernRequest(method, params, WITH_TASKS);
  const taskHeaders: Record<string, string> = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await postModern(url, request, { ...taskHeaders, ...headers });
  return { status: response.status, body: await response.json() };
}

const anyResult = z.looseObject({});

describe("2026-07-28 tasks over Streamable HTTP", () => {
  it("SDK v2 polls, answers the task's input and sees the result; its Mcp-Name is the task id", async () => {
    const server = await serve({
      tools: { deploy: { task: { working: 1 }, asks: [{ method: "elicitation/create", params: { message: "Approve?", requestedSchema: { type: "object", properties: {} } } }], returns: "deployed" } },
    });
    const client = await v2Http(server.url!, { capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } });
    const created = await post(server.url!, "tools/call", { name: "deploy", arguments: {} });
    expect(created.body.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.body.result.taskId as string;
    const request = (method: string, params: Record<string, unknown>) => (client as unknown as { request(r: object, s: typeof anyResult): Promise<any> }).request({ method, params }, anyResult);
    expect(await request("tasks/get", { taskId })).toMatchObject({ taskId, status: "working" });
    const waiting = await request("tasks/get", { taskId });
    expect(waiting).toMatchObject({ status: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    expect(await request("tasks/update", { taskId, inputResponses: { "elicitation-1": { action: "accept", content: {} } } })).not.toHaveProperty("status");
    expect(await request("tasks/get", { taskId })).toMatchObject({ status: "completed", result: { content: [{ text: "deployed" }] } });
    expect(server.calls[0]!.task).toMatchObject({ polls: [{ status: "working" }, { status: "input_required" }, { status: "completed" }], updates: [{ accepted: ["elicitation-1"] }] });
  });

  it("a tasks/get whose Mcp-Name is not its taskId is refused (400, -32020)", async () => {
    const server = await serve({ tools: { slow: { task: {}, hang: true } } });
    const { taskId } = (await post(server.url!, "tools/call", { name: "slow", arguments: {} })).body.result;
    const refused = await post(server.url!, "tasks/get", { taskId }, { "mcp-name": "another-task" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32020 });
    expect(refused.body.error.message).toContain("Mcp-Name");
  });

  it("a client without the extension gets the step's plain answer from SDK v2's callTool", async () => {
    const server = await serve({ tools: { build: { task: { workingMs: 10 }, returns: "built" } } });
    const client = await v2Http(server.url!);
    const result = await client.callTool({ name: "build", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "built" }]);
  });

  it("status notifications arrive on a subscriptions/listen stream naming the task", async () => {
    const server = await serve({ tools: { build: { task: { workingMs: 400 }, returns: "built" } } });
    const { taskId } = (await post(server.url!, "tools/call", { name: "build", arguments: {} })).body.result;
    const controller = new AbortController();
    const listen = modernRequest("subscriptions/listen", { notifications: { taskIds: [taskId] } }, WITH_TASKS);
    const response = await postModern(server.url!, listen, {}, controller.signal);
    const reader = response.body!.getReader();
    let text = "";
    for (let i = 0; i < 50 && !text.includes('"status":"completed"'); i++) {
      const chunk = await Promise.race([reader.read(), new Promise<{ done: true }>((resolve) => setTimeout(() => resolve({ done: true }), 2000))]);
      if (chunk.done) break;
      text += new TextDecoder().decode((chunk as { value: Uint8Array }).value);
    }
    controller.abort();
    expect(text).toContain("notifications/subscriptions/acknowledged");
    expect(text).toContain(`"taskIds":["${taskId}"]`);
    expect(text).toContain('"method":"notifications/tasks"');
    expect(text).toContain('"status":"completed"');
    expect(text).toContain('"text":"built"');
  });

  it("listening for task status without the extension is -32021", async () => {
    const server = await serve({ tools: {} });
    const listen = modernRequest("subscriptions/listen", { notifications: { taskIds: ["x"] } });
    const response = await postModern(server.url!, listen);
    const body = (await response.json()) as { error?: unknown };
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });

  it("a task is seen only by the test id that made it, and another's cancel changes nothing", async () => {
    const server = await serve({ tools: { slow: { task: {}, hang: true } } });
    const { taskId } = (await post(server.url!, "tools/call", { name: "slow", arguments: {} }, { "x-test-id": "alice" })).body.result;
    for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
      const foreign = await post(server.url!, method, { taskId, inputResponses: {} }, { "x-test-id": "bob" });
      expect(foreign.body.error).toMatchObject({ code: -32602 });
    }
    expect((await post(server.url!, "tasks/get", { taskId }, { "x-test-id": "alice" })).body.result.status).toBe("working");
    expect(server.calls[0]!.task!.cancels).toEqual([]);
  });
});

describe("2025-11-25 tasks over Streamable HTTP", () => {
  it("another session cannot see, list or cancel a session's task", async () => {
    const server = await serve({ tools: { slow: { task: {}, hang: true } } });
    const connect = async () => {
      const client = new Client({ name: "agent", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
      open.push(client);
      return client;
    };
    const [owner, other] = [await connect(), await connect()];
    const created = await owner.request({ method: "tools/call", params: { name: "slow", arguments: {}, task: {} } }, CreateTaskResultSchema);
    const taskId = created.task.taskId;
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(other.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await owner.experimental.tasks.getTask(taskId)).status).toBe("working");
  });
});
