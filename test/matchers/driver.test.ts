/**
 * The matchers with the real driver (`mcpAttach` over a mock's in-memory connection): the
 * driver's marker, its lists, its result classes (markers on the prototype) and its errors.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mcpAttach, type McpDriver } from "../../src/driver/index.js";
import "../../src/matchers/vitest.js";
import { failure, mock, useCleanup } from "./support.js";

useCleanup();

const drivers: McpDriver[] = [];
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close().catch(() => undefined);
});

async function driven() {
  const server = await mock({
    tools: {
      read_file: {
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        annotations: { readOnlyHint: true },
        responses: [{ returns: "hello" }, { toolError: "no such file" }],
      },
      weather: { outputSchema: { type: "object", properties: { tempC: { type: "number" } } }, responses: { returns: { tempC: 21 } } },
    },
    resources: { "file:///config.json": { name: "config", text: "{}" }, "file:///logs/{day}": { name: "daily-log", text: "log" } },
    prompts: { summarize: "Summarize this" },
  });
  const driver = mcpAttach(server.connectInMemory());
  drivers.push(driver);
  return { server, driver };
}

describe("with the real driver", () => {
  it("the catalog matchers read its lists", async () => {
    const { driver } = await driven();
    await expect(driver).toHaveTool("read_file");
    await expect(driver).toHaveTools(["read_file", "weather"]);
    await expect(driver).toHaveResource("config");
    await expect(driver).toHaveResources(["file:///config.json"]);
    await expect(driver).toHaveResourceTemplate("file:///logs/{day}");
    await expect(driver).toHavePrompt("summarize");
    await expect(driver).toHavePrompts(["summarize"]);
    await expect(driver).toMatchToolSchema("read_file", { inputSchema: { required: ["path"] }, annotations: { readOnlyHint: true } });
    const failed = await failure(() => expect(driver).toHaveTool("write_file"));
    expect(failed.message).toBe('expected server to have tool "write_file"; it has: read_file, weather');
  });

  it("the result matchers read its results, naming the tool", async () => {
    const { driver, server } = await driven();
    const first = await driver.callTool("read_file", { path: "a.txt" });
    expect(first).toBeSuccessful();
    expect(first).toHaveTextContent("hello");
    const second = await driver.callTool("read_file", { path: "b.txt" });
    expect(second).toBeToolError("no such file");
    const failed = await failure(() => expect(second).toBeSuccessful());
    expect(failed.message).toBe('expected tool call "read_file" to succeed, but it returned isError: true with text "no such file"');
    expect(await driver.callTool("weather")).toHaveStructuredContent({ tempC: 21 });
    const read = await driver.readResource("file:///config.json");
    expect(read).toHaveResourceContent("file:///config.json");
    expect(read).toHaveTextResource("{}");
    expect(server).toHaveBeenCalledTool("read_file", { times: 2 });
    expect(server).toHaveBeenCalledTool("read_file", { times: 1, with: { path: "b.txt" } });
  });

  it("a mock is not a driver: the message says what to pass", async () => {
    const { server } = await driven();
    const failed = await failure(() => expect(server).toHavePrompt("summarize"));
    expect(failed.message).toBe(
      'toHavePrompt expects an mcp-testkit driver (an object marked Symbol.for("mcp-testkit.driver"), from mcpShell(), mcpConnect() or mcpAttach()); received a mock server (from mockMcp())',
    );
  });
});
