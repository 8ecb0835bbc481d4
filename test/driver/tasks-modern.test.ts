/**
 * Tool calls as tasks in 2026-07-28 (the extension io.modelcontextprotocol/tasks), against a
 * server built with the official SDK v2 (@modelcontextprotocol/server 2.4.0) over Streamable
 * HTTP and stdio: callTool with { task } polls to the result, answers input requests with the
 * driver's handlers through tasks/update, and startTask's handle gives status, wait, update,
 * cancel and the status history. Error paths: a failed task, a cancelled one, an unknown task,
 * the deadline, a server that answers at once, bad options.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mcpConnect, mcpShell, TaskError, TASKS_EXTENSION, type TaskStatusChange } from "../../src/driver/index.js";
import { useSdkV2TasksHttp } from "../support/sdk-v2-tasks-http.js";
import { useDrivers } from "./support.js";

const track = useDrivers();
const startServer = useSdkV2TasksHttp();
const fixture = fileURLToPath(new URL("./servers/sdk-v2-tasks-server.mjs", import.meta.url));
const confirm = () => ({ action: "accept" as const, content: { confirm: true } });

describe("tasks in 2026-07-28, against an SDK v2 server over HTTP", () => {
  it("callTool with { task } polls as the server asks and returns the tool's result", async () => {
    const { url } = await startServer();
    const changes: TaskStatusChange[] = [];
    const app = track(mcpConnect(url));
    const result = await app.callTool("slow_compute", { ms: 80 }, { task: { onStatus: (change) => changes.push(change) } });
    expect(result.getTextContent()).toBe("done after 80 ms");
    expect(changes.map((change) => change.status)).toEqual(["working", "completed"]);
    expect(changes[0]!.statusMessage).toBe("computing");
    // The call, then polls until it completed: each request opted in to the extension in its _meta.
    const sent = app.messages.filter((record) => record.direction === "outgoing" && (record.method === "tools/call" || record.method?.startsWith("tasks/")));
    expect(sent[0]!.method).toBe("tools/call");
    expect(sent.slice(1).every((record) => record.method === "tasks/get")).toBe(true);
    for (const record of sent) {
      const meta = (record.content as unknown as { params: { _meta: Record<string, { extensions?: Record<string, unknown> }> } }).params._meta;
      expect(meta["io.modelcontextprotocol/clientCapabilities"]!.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    }
    expect(app.problems).toEqual([]);
  });

  it("startTask gives a handle: status(), wait(), history and polls", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url));
    const task = await app.startTask("slow_compute", { ms: 60 });
    expect(task.created).toMatchObject({ status: "working", ttlMs: 60_000, pollIntervalMs: 20 });
    expect((await task.status()).taskId).toBe(task.taskId);
    const result = await task.wait();
    expect(result.getTextContent()).toBe("done after 60 ms");
    expect(task.statuses).toEqual(["working", "completed"]);
    expect(task.polls).toBeGreaterThanOrEqual(2);
    expect(task.last.status).toBe("completed");
    // Waiting again gives the same result, with no new request.
    const polls = task.polls;
    expect((await task.wait()).getTextContent()).toBe("done after 60 ms");
    expect(task.polls).toBe(polls);
  });

  it("answers a task's input requests with the driver's handlers (tasks/update), then returns the result", async () => {
    const { url } = await startServer();
    const asked: unknown[] = [];
    const app = track(mcpConnect(url, { onElicitation: (params) => (asked.push(params), confirm()) }));
    const task = await app.startTask("confirm_delete", { filename: "notes.txt" });
    const result = await task.wait();
    expect(result.getTextContent()).toBe("deleted notes.txt");
    expect(asked).toEqual([expect.objectContaining({ message: "Delete notes.txt?" })]);
    expect(task.statuses).toEqual(["input_required", "completed"]);
    const update = app.messages.find((record) => record.direction === "outgoing" && record.method === "tasks/update");
    expect((update!.content as { params: Record<string, unknown> }).params).toMatchObject({ taskId: task.taskId, inputResponses: { confirm: confirm() } });
  });

  it("a call's own onServerRequest answers the task's input before the driver's handlers", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url, { onElicitation: confirm }));
    const result = await app.callTool("confirm_delete", { filename: "keep.txt" }, { task: true, onServerRequest: () => ({ action: "accept", content: { confirm: false } }) });
    expect(result.getTextContent()).toBe("kept keep.txt");
  });

  it("update() sends input yourself, and wait() does not answer that key again", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url, { onElicitation: () => ({ action: "decline" as const }) }));
    const task = await app.startTask("confirm_delete", { filename: "a.txt" });
    expect(task.last.status).toBe("input_required");
    await task.update({ confirm: { action: "accept", content: { confirm: true } } });
    expect((await task.wait()).getTextContent()).toBe("deleted a.txt");
    expect(app.messages.filter((record) => record.direction === "outgoing" && record.method === "tasks/update")).toHaveLength(1);
  });

  it("a tool error is a completed task whose result has isError; a protocol error fails the task", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url));
    const toolError = await app.callTool("failing_job", {}, { task: true });
    expect(toolError.isError).toBe(true);
    expect(toolError.getTextContent()).toBe("the job broke");
    const failed = await app.callTool("protocol_error_job", {}, { task: true }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TaskError);
    expect(failed).toMatchObject({ reason: "failed", toolName: "protocol_error_job", error: { code: -32603, message: "the worker crashed" } });
    expect((failed as TaskError).message).toContain("failed with JSON-RPC error -32603 (InternalError)");
  });

  it("cancel(): the task ends cancelled, and wait() says so", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url));
    const task = await app.startTask("forever");
    const after = await task.cancel();
    expect(after.status).toBe("cancelled");
    const waited = await task.wait().catch((error: unknown) => error);
    expect(waited).toMatchObject({ name: "TaskError", reason: "cancelled", taskId: task.taskId });
    expect(task.statuses).toEqual(["working", "cancelled"]);
  });

  it("the deadline: wait() stops and says how far the task got; callTool cancels the task it started", async () => {
    const { url, store } = await startServer();
    const app = track(mcpConnect(url));
    const task = await app.startTask("forever", {}, { deadlineMs: 120 });
    const waited = await task.wait().catch((error: unknown) => error);
    expect(waited).toMatchObject({ reason: "deadline", taskId: task.taskId });
    expect((waited as Error).message).toMatch(/was still working after 120 ms \(\d+ polls; statuses seen: working\)/);
    expect(store.get(task.taskId)!.status).toBe("working");

    const called = await app.callTool("forever", {}, { task: { deadlineMs: 100 } }).catch((error: unknown) => error);
    expect(called).toMatchObject({ reason: "deadline" });
    const cancelled = [...store.values()].filter((entry) => entry.status === "cancelled");
    expect(cancelled).toHaveLength(1);
  });

  it("an unknown task: the error says the server does not know it, and why that may be", async () => {
    const { url, store } = await startServer();
    const app = track(mcpConnect(url));
    const task = await app.startTask("forever");
    store.delete(task.taskId); // the server forgot it (as at the end of its TTL)
    const error = await task.status().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "TaskError", reason: "unknownTask", method: "tasks/get" });
    expect((error as Error).message).toContain(`The server does not know task ${task.taskId} of tool "forever"`);
    expect((error as Error).message).toContain("It may have expired (it said it keeps the task 60000 ms from");
  });

  it("startTask refuses a server's answer with no task; callTool with { task } takes it as the result", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url));
    const refused = await app.startTask("greet", { name: "Ada" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ reason: "noTask", result: { content: [{ type: "text", text: "Hello, Ada!" }] } });
    expect((refused as Error).message).toContain("the server answered the call at once, with no task");
    expect((await app.callTool("greet", { name: "Ada" }, { task: true })).getTextContent()).toBe("Hello, Ada!");
  });

  it("refuses bad task options before anything is sent, naming the closest key", async () => {
    const { url } = await startServer();
    const app = track(mcpConnect(url));
    await expect(app.callTool("slow_compute", { ms: 1 }, { task: { deadline: 5 } as never })).rejects.toThrow(/unknown key "deadline"; did you mean "deadlineMs"\?/);
    await expect(app.startTask("slow_compute", { ms: 1 }, { pollIntervalMs: 0 })).rejects.toThrow(/"pollIntervalMs" must be a number of ms from 1/);
    await expect(app.startTask("slow_compute", { ms: 1 }, { ttlMs: 1.5 })).rejects.toThrow(/"ttlMs" must be a whole number of ms above 0/);
    expect(app.messages.filter((record) => record.method === "tools/call")).toEqual([]);
  });
});

describe("tasks in 2026-07-28, against an SDK v2 server over stdio", () => {
  it("runs a task to its result and answers its input", async () => {
    const app = track(mcpShell(`"${process.execPath}" "${fixture}" stdio`, { onElicitation: confirm }));
    expect((await app.callTool("slow_compute", { ms: 30 }, { task: true })).getTextContent()).toBe("done after 30 ms");
    expect((await app.callTool("confirm_delete", { filename: "b.txt" }, { task: true })).getTextContent()).toBe("deleted b.txt");
    expect(app.era).toBe("modern");
    expect(app.problems).toEqual([]);
    await app.close();
  });
});
