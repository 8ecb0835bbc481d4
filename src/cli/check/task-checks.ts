/**
 * The checks of a server's tasks, run only when it advertises them: 2025-11-25 core tasks
 * (`capabilities.tasks.requests.tools.call` at initialize) and the 2026-07-28 extension
 * `io.modelcontextprotocol/tasks` (in `server/discover`). Without a tool to run (`--task-tool`)
 * only the probes that need no task run: an unknown task id (-32602), and in 2026-07-28 the
 * removed methods (-32601) and, over HTTP, an `Mcp-Name` that differs from the task id (400
 * -32020). With one, a task is run to its end through the driver, which refuses a task that
 * leaves a terminal status: its wire fields, a terminal status that stays, and `tasks/cancel` of
 * the ended task (-32602 in 2025-11-25; the empty acknowledgement in 2026-07-28, as the
 * conformance suite asks).
 */
import { valueAt } from "../../util/value-at.js";
import { RequestFailedError, TASKS_EXTENSION, TaskError, type McpDriver, type TaskHandle } from "../../driver/index.js";
import { ErrorCode } from "../../protocol/errors.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { META } from "../../protocol/meta-keys.js";
import { openDriver, plainLine } from "../target/target.js";
import type { CheckContext, Json } from "./context.js";
import { describeAnswer, errorCode } from "./raw-http.js";
import type { PlannedCheck } from "./run.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";

const LEGACY_SPEC = "https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks";
const EXTENSION_SPEC = "https://modelcontextprotocol.io/seps/2663-tasks-extension";
const UNKNOWN_TASK = "mcp-testkit-no-such-task";
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const NO_TOOL = "name a tool that runs as a task with --task-tool (and its arguments with --task-args) to run this check";

/** One era's way in: its driver, what it declares, and the task run its checks share. */
interface TaskEra {
  name: string;
  driver(ctx: CheckContext): McpDriver;
  advertised(ctx: CheckContext): boolean;
  /** The params of a task request about `taskId` (2026-07-28: with the extension declared). */
  params(taskId: string): Json;
  /** What a terminal task's `tasks/cancel` must get. */
  cancelEnded(answer: { result: Json } | { code: number | undefined; message: string }): CheckOutcome;
  /** What the task's creation answer must carry (the task as the driver read it: 2025-11-25's `task` object, the extension's whole answer). */
  fieldProblems(created: Json): string[];
}

const optIn = { [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} } } };

const legacyEra: TaskEra = {
  name: "2025-11-25",
  // A session of its own: the checks before them may have closed the main one (stdin-close does).
  driver: (ctx) => (ctx.legacyTasksDriver ??= openDriver(ctx.target, { versionNegotiation: "legacy" })),
  advertised: (ctx) => isObject(valueAt(ctx.init?.capabilities, ["tasks", "requests", "tools", "call"])),
  params: (taskId) => ({ taskId }),
  cancelEnded: (answer) => {
    if ("result" in answer) return fail(`tasks/cancel of the ended task was answered with a result (${JSON.stringify(answer.result).slice(0, 80)}); a terminal task's cancel MUST get -32602`);
    return answer.code === ErrorCode.InvalidParams
      ? pass(`tasks/cancel of the ended task got -32602 ${JSON.stringify(answer.message.slice(0, 60))}`)
      : fail(`tasks/cancel of the ended task got ${answer.code}; expected -32602`);
  },
  // The task object of the `{ task }` answer.
  fieldProblems: (task) => commonProblems(task, "ttl"),
};

const extensionEra: TaskEra = {
  name: "2026-07-28",
  driver: (ctx) => ctx.modern!.driver,
  advertised: (ctx) => isObject(valueAt(ctx.modern?.discover.capabilities, ["extensions", TASKS_EXTENSION])),
  params: (taskId) => ({ taskId, _meta: optIn }),
  cancelEnded: (answer) => {
    if (!("result" in answer))
      return fail(`tasks/cancel of the ended task got ${answer.code} ${JSON.stringify(answer.message.slice(0, 60))}; the extension acknowledges it (idempotent) with an empty result`);
    const extra = ["taskId", "status", "result", "error", "inputRequests"].filter((key) => key in answer.result);
    if (answer.result.resultType !== "complete") return fail(`tasks/cancel's acknowledgement has resultType ${JSON.stringify(answer.result.resultType)}; expected "complete"`);
    if (extra.length > 0) return fail(`tasks/cancel's acknowledgement carries task fields (${extra.join(", ")}); it is an empty result`);
    return pass('tasks/cancel of the ended task got the empty acknowledgement { resultType: "complete" }');
  },
  fieldProblems: (created) => {
    const problems = commonProblems(created, "ttlMs");
    if ("task" in created) problems.push("a nested task object (the extension's task answer is flat)");
    for (const legacy of ["ttl", "pollInterval", "requestState"]) if (legacy in created) problems.push(`a ${legacy} field (not on the extension's wire)`);
    if (typeof created.pollIntervalMs === "number" && !(Number.isInteger(created.pollIntervalMs) && created.pollIntervalMs > 0))
      problems.push(`pollIntervalMs ${created.pollIntervalMs} (a whole number of ms above 0)`);
    return problems;
  },
};

function commonProblems(task: Json, ttlKey: string): string[] {
  const problems: string[] = [];
  if (typeof task.taskId !== "string" || task.taskId === "") problems.push("no taskId");
  if (typeof task.status !== "string") problems.push("no status");
  for (const key of ["createdAt", "lastUpdatedAt"]) if (typeof task[key] !== "string" || !ISO_TIME.test(task[key] as string)) problems.push(`${key} ${JSON.stringify(task[key])} (an ISO 8601 time)`);
  const ttl = task[ttlKey];
  if (!(ttlKey in task)) problems.push(`no ${ttlKey}`);
  else if (ttl !== null && !(typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0)) problems.push(`${ttlKey} ${JSON.stringify(ttl)} (null or a whole number of ms above 0)`);
  return problems;
}

/** The task run one era's checks share: started once, waited for to its end, polled twice more. */
const runs = new WeakMap<CheckContext, Map<string, Promise<TaskRun>>>();
type TaskRun = { task: TaskHandle; ended: string; later: string[] } | { failure: CheckOutcome };

function taskRun(ctx: CheckContext, era: TaskEra): Promise<TaskRun> {
  let byEra = runs.get(ctx);
  if (byEra === undefined) runs.set(ctx, (byEra = new Map()));
  let run = byEra.get(era.name);
  if (run === undefined) byEra.set(era.name, (run = startRun(ctx, era)));
  return run;
}

async function startRun(ctx: CheckContext, era: TaskEra): Promise<TaskRun> {
  const tool = ctx.taskTool!;
  let task: TaskHandle;
  try {
    task = await era.driver(ctx).startTask(tool.name, tool.args, { deadlineMs: ctx.target.timeoutMs });
  } catch (error) {
    return { failure: fail(`tools/call "${tool.name}" as a task: ${plainLine(error)}`) };
  }
  try {
    await task.wait();
  } catch (error) {
    // A task that failed or was cancelled ended all the same; any other error is the check's finding.
    if (!(error instanceof TaskError && (error.reason === "failed" || error.reason === "cancelled"))) return { failure: fail(plainLine(error)) };
  }
  const later: string[] = [];
  try {
    for (let poll = 0; poll < 2; poll++) later.push((await task.status()).status);
  } catch (error) {
    return { failure: fail(plainLine(error)) };
  }
  return { task, ended: task.last.status, later };
}

function withTool(ctx: CheckContext, era: TaskEra, judge: (run: Extract<TaskRun, { task: TaskHandle }>) => Promise<CheckOutcome> | CheckOutcome): Promise<CheckOutcome> | CheckOutcome {
  if (ctx.taskTool === undefined) return skip(NO_TOOL);
  return taskRun(ctx, era).then((run) => ("failure" in run ? run.failure : judge(run)));
}

async function ask(driver: McpDriver, method: string, params: Json): Promise<{ result: Json } | { code: number | undefined; message: string }> {
  // request() sends as is, with no implicit handshake: the tasks checks' own session needs its initialize first.
  await driver.initialize();
  try {
    return { result: await driver.request(method, params) };
  } catch (error) {
    if (error instanceof RequestFailedError) return { code: error.code, message: error.serverMessage ?? "" };
    throw error;
  }
}

function eraChecks(era: TaskEra, prefix: string, spec: string, needs: "coreTasks" | "tasksExtension"): PlannedCheck[] {
  const check = (id: string, what: string, run: (ctx: CheckContext) => Promise<CheckOutcome> | CheckOutcome): PlannedCheck => ({
    id: `${prefix}${id}`,
    title: `${era.name} tasks: ${what}`,
    needs,
    applies: (ctx) => era.advertised(ctx),
    spec: () => spec,
    run: async (ctx) => await run(ctx),
  });
  return [
    check("tasks-unknown-id", "an unknown task id gets -32602", async (ctx) => {
      const answer = await ask(era.driver(ctx), "tasks/get", era.params(UNKNOWN_TASK));
      if ("result" in answer) return fail(`tasks/get of an unknown task was answered with a result; expected -32602`);
      return answer.code === ErrorCode.InvalidParams
        ? pass(`tasks/get of an unknown task got -32602 ${JSON.stringify(answer.message.slice(0, 60))}`)
        : fail(`tasks/get of an unknown task got ${answer.code}; expected -32602`);
    }),
    check("tasks-wire-fields", "a task answer's wire fields", (ctx) =>
      withTool(ctx, era, ({ task }) => {
        const problems = era.fieldProblems(task.created.raw);
        return problems.length === 0 ? pass(`task ${task.taskId}: ${Object.keys(task.created.raw).join(", ")}`) : fail(`the task answer has ${problems.join("; ")}`);
      }),
    ),
    check("tasks-terminal-stays", "a terminal status does not change", (ctx) =>
      withTool(ctx, era, ({ task, ended, later }) => pass(`${task.statuses.join(" → ")}; ${ended}, then polled twice more: ${later.join(", ")}`)),
    ),
    check("tasks-cancel-ended", "tasks/cancel of an ended task", (ctx) => withTool(ctx, era, async ({ task }) => era.cancelEnded(await ask(era.driver(ctx), "tasks/cancel", era.params(task.taskId))))),
  ];
}

/** 2026-07-28 only: the methods the extension removed, and the task id in Mcp-Name. */
function extensionOnly(): PlannedCheck[] {
  const base = { needs: "tasksExtension" as const, applies: (ctx: CheckContext) => extensionEra.advertised(ctx), spec: () => EXTENSION_SPEC };
  return [
    {
      ...base,
      id: "modern-tasks-removed-methods",
      title: "2026-07-28 tasks: tasks/result and tasks/list get -32601",
      run: async (ctx) => {
        const wrong: string[] = [];
        for (const [method, params] of [
          ["tasks/result", extensionEra.params(UNKNOWN_TASK)],
          ["tasks/list", { _meta: optIn }],
        ] as const) {
          const answer = await ask(extensionEra.driver(ctx), method, params);
          if ("result" in answer || answer.code !== ErrorCode.MethodNotFound) wrong.push(`${method} got ${"result" in answer ? "a result" : answer.code}`);
        }
        return wrong.length === 0 ? pass("tasks/result and tasks/list got -32601") : fail(`${wrong.join("; ")}; the extension removed them: -32601`);
      },
    },
    {
      ...base,
      id: "modern-tasks-http-name",
      title: "2026-07-28 tasks: an Mcp-Name that differs from the task id gets 400 -32020",
      run: async (ctx) => {
        if (ctx.modern?.url === undefined) return skip("a rule of Streamable HTTP");
        const answer = await ctx.modern.post("tasks/get", { taskId: UNKNOWN_TASK }, (headers) => void (headers["mcp-name"] = "another-task"));
        if (errorCode(answer) === -32020 && answer.status === 400) return pass(`tasks/get with a mismatched Mcp-Name got ${describeAnswer(answer)}`);
        return errorCode(answer) === -32020
          ? warn(`got -32020 with HTTP ${answer.status}; expected 400`)
          : fail(`tasks/get with a mismatched Mcp-Name got ${describeAnswer(answer)}; expected 400 with error -32020`);
      },
    },
  ];
}

/** Every task check, for one transport (the HTTP-only one is planned everywhere and skips off HTTP). */
export function taskChecks(kind: "stdio" | "http"): PlannedCheck[] {
  const modern = extensionOnly().filter((check) => kind === "http" || check.id !== "modern-tasks-http-name");
  return [...eraChecks(legacyEra, "", LEGACY_SPEC, "coreTasks"), ...eraChecks(extensionEra, "modern-", EXTENSION_SPEC, "tasksExtension"), ...modern];
}
