/**
 * `mcp-testkit check` on servers that run tool calls as tasks (the built CLI): an SDK v2 server
 * (2026-07-28, the tasks extension) over Streamable HTTP, and an SDK v1 server (2025-11-25 core
 * tasks) over stdio. The tasks checks run only when the server advertises tasks; those that run a
 * task need --task-tool and skip without it; a server without tasks gets none of them.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSdkV2TasksHttp } from "../support/sdk-v2-tasks-http.js";
import { REPO, runCli, useCli } from "./support.js";

useCli();
const startServer = useSdkV2TasksHttp();
const v1 = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "sdk-v1-tasks-server.mjs")}"`;
const noTasks = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "errors.mjs")}"`;

type Check = { id: string; status: string; detail: string; spec: string };
const byId = (checks: Check[]) => Object.fromEntries(checks.filter((check) => check.id.includes("tasks")).map((check) => [check.id, check.status]));

describe("mcp-testkit check: tasks", () => {
  it("2026-07-28 over HTTP: wire fields, a terminal status that stays, cancel of an ended task, removed methods, Mcp-Name", async () => {
    const { url } = await startServer();
    const result = await runCli(["check", url, "--task-tool", "slow_compute", "--task-args", '{"ms":30}', "--json"], { timeoutMs: 60_000 });
    const report = JSON.parse(result.stdout) as { checks: Check[] };
    expect(byId(report.checks)).toEqual({
      "modern-tasks-unknown-id": "PASS",
      "modern-tasks-wire-fields": "PASS",
      "modern-tasks-terminal-stays": "PASS",
      "modern-tasks-cancel-ended": "PASS",
      "modern-tasks-removed-methods": "PASS",
      "modern-tasks-http-name": "PASS",
    });
    expect(report.checks.find((check) => check.id === "modern-tasks-wire-fields")!.spec).toBe("https://modelcontextprotocol.io/seps/2663-tasks-extension");
  });

  it("2025-11-25 over stdio: the task checks pass, and skip without --task-tool", async () => {
    const withTool = JSON.parse((await runCli(["check", v1, "--task-tool", "slow_compute", "--task-args", '{"ms":30}', "--json"], { timeoutMs: 60_000 })).stdout) as { checks: Check[] };
    expect(byId(withTool.checks)).toEqual({ "tasks-unknown-id": "PASS", "tasks-wire-fields": "PASS", "tasks-terminal-stays": "PASS", "tasks-cancel-ended": "PASS" });
    expect(withTool.checks.find((check) => check.id === "tasks-cancel-ended")!.detail).toContain("got -32602");
    const without = JSON.parse((await runCli(["check", v1, "--json"], { timeoutMs: 60_000 })).stdout) as { checks: Check[] };
    expect(byId(without.checks)).toEqual({ "tasks-unknown-id": "PASS", "tasks-wire-fields": "SKIP", "tasks-terminal-stays": "SKIP", "tasks-cancel-ended": "SKIP" });
  }, 90_000);

  it("a server without tasks gets no tasks checks; bad flags exit 2", async () => {
    const report = JSON.parse((await runCli(["check", noTasks, "--json"], { timeoutMs: 60_000 })).stdout) as { checks: Check[] };
    expect(byId(report.checks)).toEqual({});
    expect(await runCli(["check", noTasks, "--task-args", "{}"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--task-args goes with --task-tool") });
    expect(await runCli(["check", noTasks, "--task-tool", "x", "--task-args", "[1]"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--task-args must be a JSON object") });
  }, 60_000);
});
