/**
 * `mcp-testkit call --task` as a user runs it (the built CLI): the tool call runs as a task, its
 * status changes are said on stderr as they happen, stdout is the result; against an SDK v2
 * server (2026-07-28, the tasks extension) and an SDK v1 server (2025-11-25 core tasks), both
 * over stdio. A failed task exits 1 with its error; bad flags exit 2.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, runCli, useCli } from "./support.js";

useCli();

const server = (name: string) => `"${process.execPath}" "${join(REPO, "test", "driver", "servers", name)}"`;
const v2 = `${server("sdk-v2-tasks-server.mjs")} stdio`;
const v1 = server("sdk-v1-tasks-server.mjs");
const usage = (message: string) => `mcp-testkit call: ${message}\nRun "mcp-testkit call --help" for usage.\n`;

describe("mcp-testkit call --task", () => {
  it("2026-07-28: prints each status change on stderr and the result on stdout", async () => {
    const result = await runCli(["call", v2, "slow_compute", '{"ms":100}', "--task"], { timeoutMs: 20_000 });
    expect(result).toMatchObject({ code: 0, stdout: "done after 100 ms\n" });
    expect(result.stderr).toMatch(/^mcp-testkit call: task [0-9a-f]{8}…: working "computing"\nmcp-testkit call: task [0-9a-f]{8}…: completed\n$/);
  });

  it("2025-11-25: with --task-ttl, the task runs to its result", async () => {
    const result = await runCli(["call", v1, "slow_compute", '{"ms":50}', "--task", "--task-ttl", "30000", "--json"], { timeoutMs: 20_000 });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ content: [{ type: "text", text: "done after 50 ms" }] });
    expect(result.stderr).toContain(': working "computing"\n');
    // The SDK keeps the last status message on the completed task.
    expect(result.stderr).toMatch(/: completed "computing"\n$/);
  });

  it("a task that fails exits 1 with its JSON-RPC error", async () => {
    const result = await runCli(["call", v2, "protocol_error_job", "--task", "--json"], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: -32603, message: "the worker crashed" } });
    expect(result.stderr).toMatch(/failed with JSON-RPC error -32603 \(InternalError\): "the worker crashed"/);
  });

  it("the deadline: exits 1 saying how far the task got", async () => {
    const result = await runCli(["call", v2, "forever", "--task", "--task-deadline", "200"], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/was still working after 200 ms/);
  });

  it("a server that answers at once: the result, and a line saying there was no task", async () => {
    const result = await runCli(["call", v2, "greet", '{"name":"Ada"}', "--task"], { timeoutMs: 20_000 });
    expect(result).toMatchObject({ code: 0, stdout: "Hello, Ada!\n" });
    expect(result.stderr).toBe('mcp-testkit call: tool "greet" was answered at once, with no task (the server decides)\n');
  });

  it("bad flags exit 2", async () => {
    expect(await runCli(["call", v2, "greet", "--task-ttl", "5"])).toMatchObject({ code: 2, stderr: usage("--task-ttl goes with --task") });
    expect(await runCli(["call", v2, "greet", "--task", "--task-deadline", "soon"])).toMatchObject({
      code: 2,
      stderr: usage('--task-deadline must be a whole number of milliseconds from 1 to 3600000, got "soon"'),
    });
    expect(await runCli(["call", v2, "--read", "x://y", "--task"])).toMatchObject({ code: 2, stderr: usage("--task goes with a tool call, not --read") });
  });
});
