/**
 * Tool calls as tasks in 2025-11-25 (core tasks), against a stdio server built with the official
 * SDK v1 (@modelcontextprotocol/sdk 1.32) and its experimental tasks: the call asks with
 * params.task, the driver polls tasks/get, fetches the result with tasks/result, and answers the
 * server's input requests that arrive on that stream with its handlers. Error paths: an unknown
 * task, cancelling a terminal task (-32602), update() (not in this era), a server that does not
 * advertise tasks; and, from a raw JSON-RPC server, a task that leaves a terminal status and a
 * malformed task.
 */
import { describe, expect, it } from "vitest";
import { mcpShell, RequestFailedError, TaskError } from "../../src/driver/index.js";
import { useDrivers, zoo } from "./support.js";

const track = useDrivers();
const v1Server = zoo("sdk-v1-tasks-server");
const confirm = () => ({ action: "accept" as const, content: { confirm: true } });

describe("tasks in 2025-11-25, against an SDK v1 server over stdio", () => {
  it("callTool with { task } asks with params.task, polls, and returns tasks/result's result", async () => {
    const app = track(mcpShell(v1Server));
    const result = await app.callTool("slow_compute", { ms: 50 }, { task: { ttlMs: 30_000 } });
    expect(result.getTextContent()).toBe("done after 50 ms");
    expect(app.protocolVersion).toBe("2025-11-25");
    const call = app.messages.find((record) => record.direction === "outgoing" && record.method === "tools/call");
    expect((call!.content as { params: Record<string, unknown> }).params.task).toEqual({ ttl: 30_000 });
    const methods = app.messages.filter((record) => record.direction === "outgoing" && record.method?.startsWith("tasks/")).map((record) => record.method);
    expect(methods.at(-1)).toBe("tasks/result");
    expect(methods.slice(0, -1).every((method) => method === "tasks/get")).toBe(true);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("startTask: the handle reads ttl and pollInterval, and its history ends completed", async () => {
    const app = track(mcpShell(v1Server));
    const task = await app.startTask("slow_compute", { ms: 40 }, { ttlMs: 20_000 });
    expect(task.created).toMatchObject({ status: "working", ttlMs: 20_000, pollIntervalMs: 20, statusMessage: "computing" });
    expect((await task.wait()).getTextContent()).toBe("done after 40 ms");
    expect(task.statuses).toEqual(["working", "completed"]);
    await app.close();
  });

  it("answers input_required through tasks/result: the server's elicitation goes to onElicitation", async () => {
    const asked: unknown[] = [];
    const app = track(mcpShell(v1Server, { onElicitation: (params) => (asked.push(params), confirm()) }));
    const task = await app.startTask("confirm_delete", { filename: "notes.txt" });
    const result = await task.wait();
    expect(result.getTextContent()).toBe("deleted notes.txt");
    expect(asked).toEqual([expect.objectContaining({ message: "Delete notes.txt?" })]);
    expect(task.statuses).toContain("input_required");
    expect(task.statuses.at(-1)).toBe("completed");
    await app.close();
  });

  it("a tool error is a completed task whose result has isError", async () => {
    const app = track(mcpShell(v1Server));
    const result = await app.callTool("failing_job", {}, { task: true });
    expect(result.isError).toBe(true);
    expect(result.getTextContent()).toBe("the job broke");
    await app.close();
  });

  it("cancel() answers with the cancelled task; cancelling it again is -32602, as the spec says of a terminal task", async () => {
    const app = track(mcpShell(v1Server));
    const task = await app.startTask("forever");
    expect((await task.cancel()).status).toBe("cancelled");
    await expect(task.wait()).rejects.toMatchObject({ reason: "cancelled" });
    const again = await task.cancel().catch((error: unknown) => error);
    expect(again).toBeInstanceOf(TaskError);
    expect(again).toMatchObject({ reason: "alreadyEnded" });
    expect((again as Error).message).toContain("which had already ended cancelled: tasks/cancel answered -32602 (InvalidParams)");
    await app.close();
  });

  it("update() is not in this era: the error says the input goes on the tasks/result stream", async () => {
    const app = track(mcpShell(v1Server));
    const task = await app.startTask("forever");
    await expect(task.update({ a: {} })).rejects.toMatchObject({ reason: "notInThisEra", message: expect.stringContaining("has no tasks/update") });
    await task.cancel();
    await app.close();
  });

  it("an unknown task id is -32602, said as the server not knowing the task", async () => {
    const app = track(mcpShell(v1Server));
    await expect(app.request("tasks/get", { taskId: "no-such-task" })).rejects.toBeInstanceOf(RequestFailedError);
    const task = await app.startTask("slow_compute", { ms: 1 });
    await task.wait();
    expect(task.isTerminal).toBe(true);
    await app.close();
  });

  it("startTask against a server that does not advertise tasks says so before sending anything", async () => {
    const app = track(mcpShell(zoo("errors")));
    const tools = await app.getTools();
    const name = tools[0]!.name;
    const error = await app.startTask(name).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "notAdvertised" });
    expect((error as Error).message).toContain("no capabilities.tasks.requests.tools.call");
    expect(app.messages.filter((record) => record.method === "tools/call")).toEqual([]);
    await app.close();
  });
});

describe("tasks in 2025-11-25, against raw JSON-RPC servers", () => {
  it("a task that leaves a terminal status is refused, saying so", async () => {
    const app = track(mcpShell(zoo("tasks-raw"), { env: { TASKS_RAW: "revives" } }));
    const task = await app.startTask("job");
    expect((await task.status()).status).toBe("completed");
    const error = await task.status().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "malformedTask" });
    expect((error as Error).message).toContain("was completed and is now working; a task never leaves a terminal status");
    await app.close();
  });

  it("a malformed task answer is refused, naming the field", async () => {
    const app = track(mcpShell(zoo("tasks-raw"), { env: { TASKS_RAW: "bad-status" }, strict: false }));
    const error = await app.startTask("job").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "malformedTask" });
    expect((error as Error).message).toContain('has status "sleeping"; expected one of working, input_required, completed, failed, cancelled');
    await app.close();
  });
});
