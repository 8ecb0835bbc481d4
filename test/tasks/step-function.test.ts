/**
 * `call.task` in a step function, and the races and hostile input tasks must survive: a cancel
 * while the task completes, a poll after the TTL, an update for a task that no longer waits,
 * unknown ids, huge and malformed inputResponses, a tampered requestState, the cap on live tasks.
 */
import { describe, expect, it } from "vitest";
import type { ToolCallContext } from "../../src/index.js";
import { modernMock, untilTerminal, useMockCleanup } from "./support.js";

useMockCleanup();

const nameSchema = { type: "object", properties: { name: { type: "string" } } };

describe("call.task in a step function (2026-07-28)", () => {
  it("start() answers with a task at once; status, asks and the return value drive it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { server, send } = await modernMock({
      tools: {
        migrate: async (call: ToolCallContext) => {
          if (!call.task.possible) return { returns: "migrated at once" };
          call.task.start({ message: "Starting", pollIntervalMs: 50 });
          await gate;
          call.task.setMessage("Half way");
          const answer = await call.elicit({ message: "Your name?", requestedSchema: nameSchema });
          return { returns: `migrated for ${(answer.content as { name: string }).name}` };
        },
      },
    });
    const created = (await send("tools/call", { name: "migrate" })).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", statusMessage: "Starting", pollIntervalMs: 50 });
    const taskId = created.taskId as string;
    expect((await send("tasks/get", { taskId })).result!.status).toBe("working");
    release();
    let waiting: Record<string, any> = {};
    for (let i = 0; i < 100 && waiting.status !== "input_required"; i++) waiting = (await send("tasks/get", { taskId })).result!;
    expect(waiting).toMatchObject({ status: "input_required", statusMessage: "Half way", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    await send("tasks/update", { taskId, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } } });
    const done = await untilTerminal(send, taskId);
    expect(done.result).toMatchObject({ status: "completed", result: { content: [{ text: "migrated for Ada" }] } });
    expect(server.calls[0]).toMatchObject({ outcome: "result", exchanges: [{ method: "elicitation/create", result: { action: "accept" } }] });
    // A client without the extension: no task possible, the function answers as usual.
    expect((await send("tools/call", { name: "migrate" }, { extension: false })).result).toMatchObject({ content: [{ text: "migrated at once" }] });
  });

  it("the function sees tasks/cancel through its signal; the task stays cancelled whatever it returns", async () => {
    let aborted = false;
    const { server, send } = await modernMock({
      tools: {
        crunch: async (call: ToolCallContext) => {
          call.task.start();
          await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted = true;
          return { returns: "too late" };
        },
      },
    });
    const { taskId } = (await send("tools/call", { name: "crunch" })).result!;
    await send("tasks/cancel", { taskId });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toBe(true);
    expect((await send("tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    expect(server.calls[0]!.outcome).toBe("cancelled");
  });

  it("fail() ends the task failed with the error; complete() with a step's answer", async () => {
    const { send } = await modernMock({
      tools: {
        bad: (call: ToolCallContext) => {
          call.task.start();
          call.task.fail({ code: -32001, message: "quota exceeded" });
          return { returns: "ignored" };
        },
        good: async (call: ToolCallContext) => {
          call.task.start();
          call.task.complete({ content: [{ type: "text", text: "done early" }] });
          return { returns: "ignored" };
        },
      },
    });
    const bad = await untilTerminal(send, (await send("tools/call", { name: "bad" })).result!.taskId);
    expect(bad.result).toMatchObject({ status: "failed", error: { code: -32001, message: "quota exceeded" } });
    const good = await untilTerminal(send, (await send("tools/call", { name: "good" })).result!.taskId);
    expect(good.result).toMatchObject({ status: "completed", result: { content: [{ text: "done early" }] } });
  });
});

describe("races and hostile input", () => {
  it("a cancel that arrives as the task completes: the first terminal status wins and stays", async () => {
    const { send } = await modernMock({ tools: { quick: { task: { workingMs: 30 }, returns: "done" } } });
    const { taskId } = (await send("tools/call", { name: "quick" })).result!;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [cancel, get] = await Promise.all([send("tasks/cancel", { taskId }), send("tasks/get", { taskId })]);
    expect(cancel.result!.resultType).toBe("complete");
    const final = (await send("tasks/get", { taskId })).result!;
    expect(["completed", "cancelled"]).toContain(final.status);
    expect(final.status).toBe(get.result!.status === "working" ? final.status : get.result!.status);
    for (let i = 0; i < 3; i++) expect((await send("tasks/get", { taskId })).result!.status).toBe(final.status);
  });

  it("a poll after the TTL gets -32602 saying the task is gone, and the store forgets it", async () => {
    const { send } = await modernMock({ tools: { brief: { task: { ttlMs: 20 }, returns: "x" } } });
    const { taskId, ttlMs } = (await send("tools/call", { name: "brief" })).result!;
    expect(ttlMs).toBe(20);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const gone = await send("tasks/get", { taskId });
    expect(gone.error).toMatchObject({ code: -32602, data: { taskId } });
  });

  it("an update for a task that no longer waits, or that is terminal, is acknowledged and changes nothing", async () => {
    const { server, send } = await modernMock({ tools: { done: { task: {}, returns: "x" } } });
    const { taskId } = (await send("tools/call", { name: "done" })).result!;
    await untilTerminal(send, taskId);
    const ack = await send("tasks/update", { taskId, inputResponses: { "elicitation-1": { action: "accept" } } });
    expect(ack.result!.resultType).toBe("complete");
    expect((await send("tasks/get", { taskId })).result).toMatchObject({ status: "completed", result: { content: [{ text: "x" }] } });
    expect(server.calls[0]!.task!.updates).toMatchObject([{ keys: ["elicitation-1"], accepted: [] }]);
  });

  it("malformed and huge inputResponses, and malformed task ids, are -32602 with what was expected", async () => {
    const ask = { method: "elicitation/create" as const, params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } };
    const { send } = await modernMock({ tools: { wait: { task: {}, asks: [ask], returns: "x" } } });
    const { taskId } = (await send("tools/call", { name: "wait" })).result!;
    await send("tasks/get", { taskId });
    const notObject = await send("tasks/update", { taskId, inputResponses: ["a"] });
    expect(notObject.error!.message).toContain('"inputResponses" must be an object');
    const badAnswer = await send("tasks/update", { taskId, inputResponses: { "elicitation-1": "yes" } });
    expect(badAnswer.error).toMatchObject({ code: -32602 });
    expect(badAnswer.error!.message).toContain('inputResponses["elicitation-1"] must be the result object of the elicitation/create');
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, {}]));
    expect((await send("tasks/update", { taskId, inputResponses: many })).error!.message).toContain("at most 64");
    const huge = await send("tasks/update", { taskId, inputResponses: { big: { text: "x".repeat(1_000_001) } } });
    expect(huge.error!.message).toContain("over 1000000 characters");
    expect((await send("tasks/get", { taskId })).result!.status).toBe("input_required");
    for (const bad of [undefined, 42, ""]) expect((await send("tasks/get", { taskId: bad })).error!.message).toContain('"taskId" must be the string id of a task');
  });

  it("a tampered requestState on the way to a task is -32602, and no task is made", async () => {
    const { server, send } = await modernMock({
      tools: {
        compose: async (call: ToolCallContext) => {
          const answer = await call.elicit({ message: "Name?", requestedSchema: nameSchema }, { key: "user_name" });
          return { task: {}, returns: `Hello, ${(answer.content as { name: string }).name}` };
        },
      },
    });
    const first = (await send("tools/call", { name: "compose" })).result!;
    expect(first.resultType).toBe("input_required");
    const tampered = `${first.requestState as string}x`;
    const refused = await send("tools/call", { name: "compose", requestState: tampered, inputResponses: { user_name: { action: "accept", content: { name: "Eve" } } } });
    expect(refused.error).toMatchObject({ code: -32602 });
    const retry = await send("tools/call", { name: "compose", requestState: first.requestState, inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } } });
    expect(retry.result).toMatchObject({ resultType: "task" });
    expect(retry.result).not.toHaveProperty("requestState");
    const done = await untilTerminal(send, retry.result!.taskId);
    expect(done.result!.result.content[0].text).toBe("Hello, Ada");
    expect(server.calls).toHaveLength(1);
  });
});
