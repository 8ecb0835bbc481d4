/**
 * The task matchers with the real driver against a server built with SDK v2 that runs tool calls
 * as tasks (2026-07-28): toCompleteTaskWith, toFailTask and toHaveTaskStatuses, passing and
 * failing, with the messages a failure prints; a value that is not a task handle is refused.
 */
import { describe, expect, it } from "vitest";
import { mcpConnect } from "../../src/driver/index.js";
import "../../src/matchers/vitest.js";
import { mcpMatchers } from "../../src/matchers/vitest.js";
import { useSdkV2TasksHttp } from "../support/sdk-v2-tasks-http.js";
import { useDrivers } from "../driver/support.js";

const track = useDrivers();
const startServer = useSdkV2TasksHttp();

async function connected() {
  const { url } = await startServer();
  return track(mcpConnect(url, { onElicitation: () => ({ action: "accept" as const, content: { confirm: true } }) }));
}

describe("task matchers", () => {
  it("toCompleteTaskWith waits for the task and matches its result partially", async () => {
    const app = await connected();
    await expect(app.startTask("slow_compute", { ms: 30 })).toCompleteTaskWith({ content: [{ type: "text", text: "done after 30 ms" }] });
    const task = await app.startTask("confirm_delete", { filename: "a.txt" });
    await expect(task).toCompleteTaskWith();
    expect(task).toHaveTaskStatuses(["input_required", "completed"]);
    // A tool error is a completed task.
    await expect(app.startTask("failing_job")).toCompleteTaskWith({ isError: true });
  });

  it("toCompleteTaskWith fails saying how the task ended and which statuses it went through", async () => {
    const app = await connected();
    const failed = await app.startTask("protocol_error_job");
    const result = await mcpMatchers.toCompleteTaskWith.call({}, failed, { content: [] });
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      `expected task ${failed.taskId} of tool "protocol_error_job" to complete with {"content":[]}, but it failed with JSON-RPC error -32603: "the worker crashed" (statuses seen: failed)`,
    );
    const other = await mcpMatchers.toCompleteTaskWith.call({}, await app.startTask("slow_compute", { ms: 1 }), { content: [{ text: "something else" }] });
    expect(other.pass).toBe(false);
    expect(other.message()).toContain('to complete with {"content":[{"text":"something else"}]}; at $.content[0].text: expected "something else", got "done after 1 ms"');
  });

  it("toFailTask: the code and the message; .not; a task that completed instead", async () => {
    const app = await connected();
    await expect(app.startTask("protocol_error_job")).toFailTask({ code: -32603, message: /crashed/ });
    await expect(app.startTask("protocol_error_job")).not.toFailTask({ code: -32602 });
    const completed = await app.startTask("slow_compute", { ms: 1 });
    const result = await mcpMatchers.toFailTask.call({}, completed, {});
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(
      /^expected task \S+ of tool "slow_compute" to fail, but it completed with \{"content":\[\{"type":"text","text":"done after 1 ms"\}\],"isError":false\} \(statuses seen: working \("computing"\) → completed\)$/,
    );
    const cancelled = await app.startTask("forever");
    await cancelled.cancel();
    expect((await mcpMatchers.toFailTask.call({}, cancelled, {})).message()).toContain("but it was cancelled (statuses seen: working → cancelled)");
  });

  it("toHaveTaskStatuses says what the task went through", async () => {
    const app = await connected();
    const task = await app.startTask("slow_compute", { ms: 1 });
    await task.wait();
    const result = mcpMatchers.toHaveTaskStatuses.call({}, task, ["working", "input_required", "completed"]);
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(/to go through working → input_required → completed; it went through working → completed \(\d+ polls\)/);
  });

  it("a value that is not a task handle is refused, whatever .not says", async () => {
    const result = await mcpMatchers.toCompleteTaskWith.call({ isNot: true }, { taskId: "x" });
    expect(result.pass).toBe(true); // .not flips it: the test fails
    expect(result.message()).toBe("toCompleteTaskWith expects a task handle (from driver.startTask()); received an object with keys: taskId");
    expect(() => mcpMatchers.toHaveTaskStatuses.call({}, {}, "completed" as never)).toThrow(/takes the statuses in order/);
  });
});
