/**
 * Tasks in 2026-07-28 (the extension io.modelcontextprotocol/tasks), through `handle()`: a
 * step that answers with a task and scripts its life, what each poll sees, input through
 * tasks/update, cancellation, and what a client without the extension gets.
 */
import { describe, expect, it } from "vitest";
import { modernMock, TASKS, untilTerminal, useMockCleanup } from "./support.js";

useMockCleanup();

describe("a step that answers with a task (2026-07-28)", () => {
  it("answers a flat task, then each poll sees the status the script gives it, then the step's answer", async () => {
    const { server, send } = await modernMock({ tools: { build: { task: { working: ["Queued", "Compiling"], pollIntervalMs: 250 }, returns: "built" } } });
    const created = await send("tools/call", { name: "build" });
    expect(created.result).toMatchObject({ resultType: "task", status: "working", statusMessage: "Queued", ttlMs: 300000, pollIntervalMs: 250 });
    expect(created.result!.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.result).not.toHaveProperty("task");
    expect(created.result).not.toHaveProperty("requestState");
    const taskId = created.result!.taskId as string;
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push((await send("tasks/get", { taskId })).result!);
    expect(polls.map((poll) => [poll.status, poll.statusMessage])).toEqual([
      ["working", "Queued"],
      ["working", "Compiling"],
      ["completed", undefined],
    ]);
    expect(polls[2]).toMatchObject({ resultType: "complete", taskId, result: { content: [{ type: "text", text: "built" }] } });
    expect(polls[2]!.result._meta?.["io.modelcontextprotocol/related-task"]).toBeUndefined();
    const call = server.calls[0]!;
    expect(call).toMatchObject({ outcome: "result", task: { id: taskId } });
    expect(call.task!.polls).toHaveLength(3);
    expect(call.task!.statuses.map((s) => s.status)).toEqual(["working", "working", "completed"]);
  });

  it("fails with the step's throws as a JSON-RPC error, and a tool error is still completed", async () => {
    const { send } = await modernMock({
      tools: { broken: { task: {}, throws: { code: -32000, message: "backend down" } }, flaky: { task: {}, toolError: "no such file" } },
    });
    const failed = await untilTerminal(send, (await send("tools/call", { name: "broken" })).result!.taskId);
    expect(failed.result).toMatchObject({ status: "failed", error: { code: -32000, message: "backend down" } });
    expect(failed.result).not.toHaveProperty("result");
    const toolError = await untilTerminal(send, (await send("tools/call", { name: "flaky" })).result!.taskId);
    expect(toolError.result).toMatchObject({ status: "completed", result: { isError: true } });
  });

  it("asks through inputRequests, answered by tasks/update, a key at a time", async () => {
    const ask = (message: string) => ({ method: "elicitation/create" as const, params: { message, requestedSchema: { type: "object", properties: {} } } });
    const { server, send } = await modernMock({ tools: { deploy: { task: { inputMessage: "Waiting for approval" }, asks: [ask("Approve?"), ask("Really?")], returns: "deployed" } } });
    const { taskId } = (await send("tools/call", { name: "deploy" })).result!;
    const waiting = (await send("tasks/get", { taskId })).result!;
    expect(waiting).toMatchObject({ status: "input_required", statusMessage: "Waiting for approval" });
    expect(Object.keys(waiting.inputRequests)).toEqual(["elicitation-1", "elicitation-2"]);
    expect(waiting.inputRequests["elicitation-1"]).toEqual(ask("Approve?"));
    const ack = await send("tasks/update", { taskId, inputResponses: { "elicitation-1": { action: "accept", content: {} }, stray: { action: "accept" } } });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    const half = (await send("tasks/get", { taskId })).result!;
    expect(half.status).toBe("input_required");
    expect(Object.keys(half.inputRequests)).toEqual(["elicitation-2"]);
    await send("tasks/update", { taskId, inputResponses: { "elicitation-2": { action: "decline" } } });
    const done = await untilTerminal(send, taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { content: [{ text: "deployed" }] } });
    expect(server.calls[0]!.exchanges.map((e) => e.result)).toEqual([{ action: "accept", content: {} }, { action: "decline" }]);
    expect(server.calls[0]!.task!.updates.map((u) => u.accepted)).toEqual([["elicitation-1"], ["elicitation-2"]]);
  });

  it("cancels with an empty acknowledgement, and again on a terminal task", async () => {
    const { server, send } = await modernMock({ tools: { slow: { task: {}, hang: true } } });
    const { taskId } = (await send("tools/call", { name: "slow" })).result!;
    const ack = await send("tasks/cancel", { taskId });
    expect(ack.result).not.toHaveProperty("status");
    expect(ack.result!.resultType).toBe("complete");
    expect((await send("tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    expect((await send("tasks/cancel", { taskId })).result!.resultType).toBe("complete");
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled" });
    expect(server.calls[0]!.task!.cancels.map((c) => c.status)).toEqual(["working", "cancelled"]);
  });

  it("a client without the extension gets the step's answer, -32021 from the task methods and from a tool that needs a task", async () => {
    const { send } = await modernMock({ tools: { build: { task: { workingMs: 5 }, returns: "built" }, batch: { execution: { taskSupport: "required" }, responses: { returns: "ok" } } } });
    const plain = await send("tools/call", { name: "build" }, { extension: false });
    expect(plain.result).toMatchObject({ resultType: "complete", content: [{ text: "built" }] });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const refused = await send(method, { taskId: "x", inputResponses: {} }, { extension: false });
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    }
    const required = await send("tools/call", { name: "batch" }, { extension: false });
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    expect((await send("tools/call", { name: "batch" })).result).toMatchObject({ resultType: "task" });
  });

  it("tasks/result and tasks/list do not exist in 2026-07-28; an unknown task id is -32602", async () => {
    const { send } = await modernMock({ tools: {} });
    expect((await send("tasks/result", { taskId: "x" })).error!.code).toBe(-32601);
    expect((await send("tasks/list", {})).error!.code).toBe(-32601);
    const unknown = await send("tasks/get", { taskId: "nope" });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(unknown.error!.message).toContain("Failed to retrieve task");
  });

  it("server/discover advertises the extension and no capabilities.tasks", async () => {
    const { send } = await modernMock({ tools: {} });
    const discovered = await send("server/discover");
    expect(discovered.result!.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(discovered.result!.capabilities.tasks).toBeUndefined();
  });
});

describe("assertTask: what the client did with a task", () => {
  it("passes when the agent polled as expected and never cancelled; a failure lists the calls and their tasks", async () => {
    const { server, send } = await modernMock({ tools: { build: { task: { working: 2 }, returns: "built" } } });
    const { taskId } = (await send("tools/call", { name: "build" })).result!;
    for (let i = 0; i < 3; i++) await send("tasks/get", { taskId });
    expect(server.assertTask("build", { polls: 3, cancelled: false, status: "completed", updates: 0 }).task!.id).toBe(taskId);
    expect(() => server.assertTask("build", { polls: 2, cancelled: true })).toThrow(
      new RegExp(`polled 3 times, expected 2 times; never cancelled, expected a tasks/cancel\\.\\nCalls:\\n  #0 task ${taskId}: working → completed; 3 polls, 0 updates, 0 cancels`),
    );
    expect(() => server.assertTask("other", { polls: 1 })).toThrow('Expected a call to "other" answered with a task, but none was.\nNo call to it was recorded.');
    expect(() => server.assertTask("build", { poll: 1 } as never)).toThrow('unknown option "poll"; did you mean "polls"?');
  });
});

describe("a fixture file's step answers with a task", () => {
  it("a fake call's step with task makes a task whose result is the step's", async () => {
    const { server, send } = await modernMock({
      fixtures: [{ scope: "shared", tools: [{ name: "export_report", calls: [{ anyArgs: true, step: { task: { working: 1 }, returns: "report.pdf" } }] }] }],
      fakesOptions: { logger: () => undefined },
    });
    const created = await send("tools/call", { name: "export_report", arguments: {} });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const done = await untilTerminal(send, created.result!.taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { content: [{ text: "report.pdf" }] } });
    expect(server.calls[0]).toMatchObject({ outcome: "result", task: { id: created.result!.taskId } });
  });

  it("a malformed task in a fixture step is refused when loaded, naming the key", async () => {
    await expect(modernMock({ fixtures: [{ scope: "shared", tools: [{ name: "x", calls: [{ anyArgs: true, step: { task: { working: -1 }, returns: "x" } }] }] }] })).rejects.toThrow(/task/);
  });
});
