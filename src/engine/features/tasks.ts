/**
 * Tasks, in both wire formats side by side, chosen per request like the eras: 2025-11-25's
 * experimental core tasks (`capabilities.tasks`, `params.task`, `tasks/get`, `tasks/result`,
 * `tasks/list`, `tasks/cancel`) and 2026-07-28's extension `io.modelcontextprotocol/tasks`
 * (advertised in `capabilities.extensions`; `tasks/get`, `tasks/update`, `tasks/cancel`). Tool
 * calls are answered with tasks through the `task` step kind. Its state (the bounded task store)
 * is one per mock, made by this factory.
 */
import { TASKS_EXTENSION } from "../../protocol/meta-keys.js";
import { versionHas } from "../../protocol/versions.js";
import { taskStepKind } from "../tasks/task-kind.js";
import { tasksCancel, tasksGet, tasksList, tasksResult, tasksUpdate } from "../tasks/methods.js";
import { TasksState } from "../tasks/tasks-state.js";
import type { EngineFeature } from "./feature.js";

export function tasksFeature(): EngineFeature {
  const tasks = new TasksState();
  return {
    name: "tasks",
    methods: [
      { method: "tasks/get", handler: tasksGet(tasks), requires: ["tasks"] },
      { method: "tasks/cancel", handler: tasksCancel(tasks), requires: ["tasks"] },
      { method: "tasks/result", handler: tasksResult(tasks), requires: ["coreTasks"] },
      { method: "tasks/list", handler: tasksList(tasks), requires: ["coreTasks"] },
      { method: "tasks/update", handler: tasksUpdate(tasks), requires: ["tasksExtension"] },
    ],
    capabilities: (version) => {
      if (versionHas(version, "tasksExtension")) return { extensions: { [TASKS_EXTENSION]: {} } };
      if (versionHas(version, "coreTasks")) return { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
      return undefined;
    },
    stepKinds: [taskStepKind(tasks)],
    reset: () => tasks.clear("the mock was reset"),
    close: () => tasks.clear("the mock closed"),
  };
}
