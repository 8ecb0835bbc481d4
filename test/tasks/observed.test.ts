/**
 * Task traffic as observers and metrics see it: the task methods are counted under their own
 * method labels, and a task id never becomes a label (a label set stays bounded however many
 * tasks there are).
 */
import { describe, expect, it } from "vitest";
import { metricsText } from "../../src/observe/metrics/exposition.js";
import { modernMock, untilTerminal, useMockCleanup } from "./support.js";

useMockCleanup();

describe("task methods in metrics", () => {
  it("counts tasks/get, tasks/update and tasks/cancel by method, with no task id in any label", async () => {
    const { server, send } = await modernMock({ metrics: true, tools: { build: { task: { working: 1 }, returns: "built" } } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { taskId } = (await send("tools/call", { name: "build" })).result!;
      ids.push(taskId);
      await untilTerminal(send, taskId);
      await send("tasks/update", { taskId, inputResponses: {} });
      await send("tasks/cancel", { taskId });
    }
    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_requests_total", { method: "tasks/get", outcome: "complete" })).toBe(6);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tasks/update", outcome: "complete" })).toBe(3);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tasks/cancel", outcome: "complete" })).toBe(3);
    const { text } = await metricsText(metrics);
    for (const id of ids) expect(text).not.toContain(id);
  });
});
