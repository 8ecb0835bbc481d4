// A stdio server built with the official SDK v1 (@modelcontextprotocol/sdk 1.32) and its
// experimental tasks (2025-11-25): McpServer with the SDK's in-memory task store and message
// queue, which serve tasks/get, tasks/result, tasks/list and tasks/cancel; tools registered with
// `server.experimental.tasks.registerToolTask`. Tools: slow_compute ({ ms }: working, then
// completed; optional task support), failing_job (a tool error), confirm_delete (asks for input
// with elicitation/create, delivered on the tasks/result stream), forever (works until
// cancelled), greet (never a task).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: "sdk-v1-tasks", version: "1.32.2" },
  { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() },
);
const text = (value) => ({ content: [{ type: "text", text: value }] });
const lookups = {
  getTask: async (_args, extra) => await extra.taskStore.getTask(extra.taskId),
  getTaskResult: async (_args, extra) => await extra.taskStore.getTaskResult(extra.taskId),
};
const taskTool = (name, inputSchema, work, taskSupport = "required") =>
  server.experimental.tasks.registerToolTask(
    name,
    { inputSchema, execution: { taskSupport } },
    {
      createTask: async (args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 20 });
        void work(task.taskId, args, extra).catch(() => undefined);
        return { task };
      },
      ...lookups,
    },
  );

server.registerTool("greet", { inputSchema: { name: z.string() } }, async ({ name }) => text(`Hello, ${name}!`));
taskTool(
  "slow_compute",
  { ms: z.number() },
  async (taskId, { ms }, extra) => {
    await extra.taskStore.updateTaskStatus(taskId, "working", "computing");
    await new Promise((resolve) => setTimeout(resolve, ms));
    await extra.taskStore.storeTaskResult(taskId, "completed", text(`done after ${ms} ms`));
  },
  "optional",
);
taskTool("failing_job", {}, async (taskId, _args, extra) => extra.taskStore.storeTaskResult(taskId, "completed", { ...text("the job broke"), isError: true }));
taskTool("confirm_delete", { filename: z.string() }, async (taskId, { filename }, extra) => {
  const params = { mode: "form", message: `Delete ${filename}?`, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } };
  // Tied to the task, the SDK queues the request (status input_required) for the tasks/result stream.
  const answer = await extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema, { relatedTask: { taskId } });
  await extra.taskStore.updateTaskStatus(taskId, "working");
  await extra.taskStore.storeTaskResult(taskId, "completed", text(answer.content?.confirm === true ? `deleted ${filename}` : `kept ${filename}`));
});
taskTool("forever", {}, async () => undefined);

await server.connect(new StdioServerTransport());

// The SDK's task store keeps timers for its TTLs: the server ends when its client goes.
process.stdin.on("end", () => process.exit(0));
