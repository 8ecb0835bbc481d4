// A hand-written 2025-11-25 task server that breaks the task rules, chosen by TASKS_RAW:
// "revives" (tasks/get says completed, then working again), "bad-status" (the task answer has
// a status the spec does not know).
import { result, serve } from "./zoo-server.mjs";

const mode = process.env.TASKS_RAW;
const now = new Date().toISOString();
const task = (status) => ({ taskId: "t-1", status, createdAt: now, lastUpdatedAt: now, ttl: 60_000, pollInterval: 10 });
let polls = 0;
serve({
  initialize: (request) =>
    result(request, {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } },
      serverInfo: { name: "tasks-raw", version: "1.0.0" },
    }),
  "tools/list": (request) => result(request, { tools: [{ name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }] }),
  "tools/call": (request) => result(request, { task: task(mode === "bad-status" ? "sleeping" : "working") }),
  "tasks/get": (request) => result(request, task(++polls === 1 ? "completed" : "working")),
  "tasks/result": (request) => result(request, { content: [{ type: "text", text: "done" }] }),
});
