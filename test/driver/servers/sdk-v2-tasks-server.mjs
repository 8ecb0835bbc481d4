// A server built with the official SDK v2 (@modelcontextprotocol/server 2.4.0) that answers tool
// calls with tasks, the 2026-07-28 extension io.modelcontextprotocol/tasks: the SDK has no task
// runtime, so this file keeps the tasks itself and serves tasks/get, tasks/update and
// tasks/cancel through the SDK's custom request handlers. `node sdk-v2-tasks-server.mjs stdio`
// serves stdio; a test imports `tasksFactory` and serves it over HTTP itself.
// Tools: greet (never a task), slow_compute ({ ms }: working, then completed), failing_job (a
// tool error, still completed), protocol_error_job (failed), confirm_delete (asks for input,
// then completes), forever (works until cancelled).
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

export const TASKS = "io.modelcontextprotocol/tasks";
const CAPS = "io.modelcontextprotocol/clientCapabilities";
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Every server the factory makes shares one store: over HTTP the SDK makes a server per request. */
export function tasksFactory(store = new Map(), { pollIntervalMs = 20 } = {}) {
  return () => {
    const server = new McpServer({ name: "sdk-v2-tasks", version: "2.4.0" }, { capabilities: { tools: {}, extensions: { [TASKS]: {} } } });
    // The SDK lifts the 2026-07-28 `_meta` envelope into ctx.mcpReq.envelope.
    const optedIn = (ctx) => ctx.mcpReq?.envelope?.[CAPS]?.extensions?.[TASKS] !== undefined;
    const now = () => new Date().toISOString();
    const create = (work) => {
      const task = { taskId: randomUUID(), status: "working", createdAt: now(), lastUpdatedAt: now(), ttlMs: 60_000, pollIntervalMs };
      store.set(task.taskId, task);
      work(task);
      // The SDK checks a tool's answer as a tool result, so it carries an empty content list.
      return { resultType: "task", content: [], ...task };
    };
    const settle = (task, fields) => {
      if (TERMINAL.has(task.status)) return;
      Object.assign(task, fields, { lastUpdatedAt: now() });
    };
    const text = (value) => ({ content: [{ type: "text", text: value }] });
    const taskTool = (name, inputSchema, work) =>
      server.registerTool(name, { inputSchema, execution: { taskSupport: "optional" } }, async (args, ctx) => {
        if (!optedIn(ctx)) return text(`${name} ran without a task`);
        return create((task) => work(task, args));
      });

    server.registerTool("greet", { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => text(`Hello, ${name}!`));
    taskTool("slow_compute", z.object({ ms: z.number() }), (task, { ms }) => {
      task.statusMessage = "computing";
      setTimeout(() => settle(task, { status: "completed", statusMessage: undefined, result: text(`done after ${ms} ms`) }), ms).unref();
    });
    taskTool("failing_job", z.object({}), (task) => settle(task, { status: "completed", result: { ...text("the job broke"), isError: true } }));
    taskTool("protocol_error_job", z.object({}), (task) => settle(task, { status: "failed", error: { code: -32603, message: "the worker crashed" } }));
    taskTool("confirm_delete", z.object({ filename: z.string() }), (task, { filename }) => {
      task.filename = filename;
      settle(task, {
        status: "input_required",
        inputRequests: {
          confirm: { method: "elicitation/create", params: { mode: "form", message: `Delete ${filename}?`, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } } },
        },
      });
    });
    taskTool("forever", z.object({}), () => undefined);

    const known = (taskId) => {
      const task = store.get(taskId);
      if (task === undefined) throw Object.assign(new Error(`unknown task ${taskId}`), { code: -32602 });
      return task;
    };
    const detailed = ({ filename: _filename, ...task }) => ({ ...task, resultType: "complete" });
    const taskId = z.object({ taskId: z.string() }).passthrough();
    server.server.setRequestHandler("tasks/get", { params: taskId }, async ({ taskId: id }) => detailed(known(id)));
    server.server.setRequestHandler("tasks/cancel", { params: taskId }, async ({ taskId: id }) => {
      settle(known(id), { status: "cancelled", inputRequests: undefined });
      return { resultType: "complete" };
    });
    // The SDK lifts `inputResponses` out of the params into ctx.mcpReq, as it does for an MRTR retry.
    server.server.setRequestHandler("tasks/update", { params: taskId }, async ({ taskId: id, inputResponses: inParams }, ctx) => {
      const task = known(id);
      const inputResponses = ctx.mcpReq?.inputResponses ?? inParams ?? {};
      if (task.status === "input_required" && inputResponses.confirm !== undefined) {
        const yes = inputResponses.confirm?.content?.confirm === true;
        settle(task, { status: "completed", inputRequests: undefined, result: text(yes ? `deleted ${task.filename}` : `kept ${task.filename}`) });
      }
      return { resultType: "complete" };
    });
    return server;
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "stdio") serveStdio(tasksFactory());
