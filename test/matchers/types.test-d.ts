/**
 * Type tests (checked by `tsc -p tsconfig.json --noEmit`, never run): the matchers are typed on
 * Vitest's `expect` by `mcp-testkit/vitest`, and on Jest's (`@jest/globals`) by `mcp-testkit/jest`;
 * `expect.extend(mcpMatchers)` type-checks in both; wrong arguments are errors.
 */
import { expect as jestExpect } from "@jest/globals";
import { expect } from "vitest";
import type {} from "../../src/matchers/jest.js";
import { mcpMatchers, type McpMatchers, type ToolExpectation } from "../../src/matchers/vitest.js";

declare const driver: unknown;
declare const result: { content: { type: "text"; text: string }[]; isError?: boolean };
declare const read: { contents: { uri: string; text: string }[] };
declare const server: { calls: unknown[]; assertCalled(tool: string): unknown[] };
declare const task: unknown;

export async function vitestUsage(): Promise<void> {
  expect.extend(mcpMatchers);
  await expect(driver).toHaveTool("read_file");
  await expect(driver).not.toHaveTools(["read_file", "write_file"]);
  await expect(driver).toHaveResource("file:///config.json");
  await expect(driver).toHaveResources(["config"]);
  await expect(driver).toHaveResourceTemplate("file:///logs/{day}");
  await expect(driver).toHavePrompt("summarize");
  await expect(driver).toHavePrompts(["summarize"]);
  await expect(driver).toMatchToolSchema("read_file", { inputSchema: { required: ["path"] }, annotations: { readOnlyHint: true } });
  const promised: Promise<void> = expect(driver).toHaveTool("read_file");
  await promised;
  await expect(driver).toMatchServerSnapshot();
  await expect(server).toMatchServerSnapshot("after the upgrade");
  const snapshotted: Promise<void> = expect(driver).toMatchServerSnapshot();
  await snapshotted;

  expect(result).toBeSuccessful();
  expect(result).not.toBeToolError();
  expect(result).toBeToolError("not found");
  expect(result).toBeToolError(/not found/);
  expect(result).toHaveTextContent("hello");
  expect(result).toMatchTextContent(/hel+o/);
  expect(result).toHaveStructuredContent({ tempC: expect.any(Number) });
  expect(read).toHaveResourceContent("file:///a.txt");
  expect(read).toHaveTextResource("alpha");
  expect(server).toHaveBeenCalledTool("search", { times: 2, with: { query: /bug/ } });
  expect(server).not.toHaveBeenCalledTool("search");

  await expect(task).toCompleteTaskWith({ content: [{ type: "text", text: "done" }] });
  await expect(task).toCompleteTaskWith();
  await expect(task).toFailTask({ code: -32603, message: /crashed/ });
  await expect(task).not.toFailTask();
  expect(task).toHaveTaskStatuses(["working", "input_required", "completed"]);

  // @ts-expect-error a tool name is a string
  await expect(driver).toHaveTool(42);
  // @ts-expect-error the hint is a string
  await expect(driver).toMatchServerSnapshot({ update: true });
  // @ts-expect-error a status the spec does not have
  expect(task).toHaveTaskStatuses(["running"]);
  // @ts-expect-error the code is a number
  await expect(task).toFailTask({ code: "-32603" });
  // @ts-expect-error toHaveTools takes a list
  await expect(driver).toHaveTools("read_file");
  // @ts-expect-error toMatchToolSchema needs the expectations
  await expect(driver).toMatchToolSchema("read_file");
  // @ts-expect-error toBeSuccessful takes no argument
  expect(result).toBeSuccessful(true);
  // @ts-expect-error "args" is not an option
  expect(server).toHaveBeenCalledTool("search", { args: {} });
  // @ts-expect-error times is a number
  expect(server).toHaveBeenCalledTool("search", { times: "2" });
}

export async function jestUsage(): Promise<void> {
  jestExpect.extend(mcpMatchers);
  await jestExpect(driver).toHaveTool("read_file");
  await jestExpect(driver).not.toHaveResource("file:///config.json");
  await jestExpect(driver).toMatchToolSchema("read_file", { annotations: { readOnlyHint: true } });
  jestExpect(result).toBeSuccessful();
  jestExpect(result).toHaveTextContent("hello");
  jestExpect(result).toHaveStructuredContent({ tempC: jestExpect.any(Number) });
  jestExpect(read).toHaveTextResource("alpha");
  jestExpect(server).toHaveBeenCalledTool("search", { times: 1 });
  await jestExpect(driver).toMatchServerSnapshot();
  await jestExpect(task).toCompleteTaskWith({ isError: false });
  await jestExpect(task).toFailTask({ message: "crashed" });
  jestExpect(task).toHaveTaskStatuses(["working", "completed"]);

  // @ts-expect-error a tool name is a string
  await jestExpect(driver).toHaveTool(42);
  // @ts-expect-error toHaveTextContent takes the text
  jestExpect(result).toHaveTextContent();
  // @ts-expect-error the hint is a string
  await jestExpect(driver).toMatchServerSnapshot(1);
}

export const expectation: ToolExpectation = { inputSchema: { required: ["path"] } };
export type SyncReturn = ReturnType<McpMatchers["toBeSuccessful"]>;
export const syncReturnIsVoid: SyncReturn = undefined;
