/**
 * Tasks over stdio: `mcp-testkit mock --stdio` serving the conformance scenario (whose
 * slow_compute answers with a task), driven by SDK v1's experimental tasks client in
 * 2025-11-25: the task made, polled and its result fetched over newline-delimited JSON.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assertBuilt } from "../support/built.js";

const root = resolve(import.meta.dirname, "../..");
const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

describe("tasks over stdio", () => {
  it("SDK v1's callToolStream gets a task, its status and its result from the CLI's mock", async () => {
    assertBuilt();
    const client = new Client({ name: "agent", version: "1.0.0" });
    open.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [resolve(root, "dist/cli/main.js"), "mock", resolve(root, "examples/conformance/server.js"), "--stdio"], stderr: "ignore" }),
    );
    const seen: Array<Record<string, any>> = [];
    const stream = client.experimental.tasks.callToolStream({ name: "slow_compute", arguments: { seconds: 0.05, label: "stdio" } }, CallToolResultSchema, { task: { ttl: 30_000 } });
    for await (const message of stream) {
      seen.push(message as Record<string, any>);
      if (seen.length > 50) break;
    }
    expect(seen[0]).toMatchObject({ type: "taskCreated", task: { status: "working", statusMessage: "Computing", ttl: 30_000 } });
    expect(seen.at(-1)).toMatchObject({ type: "result", result: { content: [{ type: "text", text: "Computed stdio" }] } });
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks).toMatchObject([{ taskId: seen[0]!.task.taskId, status: "completed" }]);
  });
});
