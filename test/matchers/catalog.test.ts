/**
 * The matchers on what a server offers, asked through a driver: tools, resources, resource
 * templates, prompts and a tool's definition. The driver here is the SDK client over a mock,
 * behind the driver marker (see support.ts).
 */
import { describe, expect, it } from "vitest";
import "../../src/matchers/vitest.js";
import { failure, mock, sdkDriver, useCleanup } from "./support.js";

useCleanup();

async function fileServer() {
  const server = await mock({
    tools: {
      read_file: {
        description: "Read a file",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        annotations: { readOnlyHint: true },
        responses: { returns: "hello" },
      },
      list_directory: { returns: "a.txt" },
    },
    resources: {
      "file:///config.json": { name: "config", text: "{}" },
      "file:///README.md": "read me",
      "file:///logs/{day}": { name: "daily-log", text: "log" },
    },
    prompts: { summarize: "Summarize this", review: "Review this" },
  });
  return sdkDriver(server);
}

describe("toHaveTool", () => {
  it("passes for a listed tool and fails listing the tools that are there", async () => {
    const driver = await fileServer();
    await expect(driver).toHaveTool("read_file");
    const failed = await failure(() => expect(driver).toHaveTool("write_file"));
    expect(failed.message).toBe('expected server to have tool "write_file"; it has: read_file, list_directory');
    expect(failed.actual).toEqual(["read_file", "list_directory"]);
    expect(failed.expected).toEqual(["read_file", "list_directory", "write_file"]);
  });

  it("suggests a close name", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toHaveTool("read_files"));
    expect(failed.message).toBe('expected server to have tool "read_files"; it has: read_file, list_directory; did you mean "read_file"?');
  });

  it("says when the server has no tools", async () => {
    const driver = await sdkDriver(await mock({ prompts: { p: "x" } }));
    const failed = await failure(() => expect(driver).toHaveTool("anything"));
    expect(failed.message).toBe('expected server to have tool "anything"; it has no tools');
  });

  it("lists at most 50 names, and matches a suggestion ignoring case", async () => {
    const names = Array.from({ length: 60 }, (_, i) => `tool_${i}`);
    const driver = { [Symbol.for("mcp-testkit.driver")]: true, getTools: async () => names.map((name) => ({ name })) };
    const failed = await failure(() => expect(driver).toHaveTool("TOOL_7"));
    expect(failed.message).toBe(`expected server to have tool "TOOL_7"; it has: ${names.slice(0, 50).join(", ")}, … and 10 more; did you mean "tool_7"?`);
    expect(failed.actual).toHaveLength(60);
  });

  it("works with .not", async () => {
    const driver = await fileServer();
    await expect(driver).not.toHaveTool("write_file");
    const failed = await failure(() => expect(driver).not.toHaveTool("read_file"));
    expect(failed.message).toBe('expected server not to have tool "read_file", but it does');
    expect(failed.actual).toEqual(["read_file", "list_directory"]);
    expect(failed.expected).toEqual(["list_directory"]);
  });

  it("sees a tool added after the first listing (it asks the driver each time)", async () => {
    const server = await mock({ tools: { a: { returns: "x" } } });
    const driver = await sdkDriver(server);
    await expect(driver).not.toHaveTool("b");
    await server.setTool("b", { returns: "y" });
    await expect(driver).toHaveTool("b");
  });

  it("throws for a name that is not a string", async () => {
    const driver = await fileServer();
    // @ts-expect-error a number is not a tool name
    await expect(expect(driver).toHaveTool(42)).rejects.toThrow("[mcp-testkit] toHaveTool() takes the tool's name (a string); got 42.");
  });

  it("rejects with the driver's own error when listing fails", async () => {
    const driver = await fileServer();
    const broken = { ...driver, getTools: async () => Promise.reject(new Error("Method not found: tools/list")) };
    await expect(expect(broken).toHaveTool("read_file")).rejects.toThrow("Method not found: tools/list");
    await expect(expect(broken).not.toHaveTool("read_file")).rejects.toThrow("Method not found: tools/list");
  });
});

describe("toHaveTools", () => {
  it("passes when every tool is listed and fails naming the missing ones", async () => {
    const driver = await fileServer();
    await expect(driver).toHaveTools(["read_file", "list_directory"]);
    await expect(driver).toHaveTools([]);
    const failed = await failure(() => expect(driver).toHaveTools(["read_file", "write_file", "list_dir"]));
    expect(failed.message).toBe('expected server to have tools "read_file", "write_file", "list_dir"; missing: "write_file", "list_dir"; it has: read_file, list_directory');
    expect(failed.expected).toEqual(["read_file", "list_directory", "write_file", "list_dir"]);
  });

  it("suggests close names for the missing ones", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toHaveTools(["read-file"]));
    expect(failed.message).toBe('expected server to have tools "read-file"; missing: "read-file" (did you mean "read_file"?); it has: read_file, list_directory');
  });

  it("with .not, fails only when all of them are there", async () => {
    const driver = await fileServer();
    await expect(driver).not.toHaveTools(["read_file", "write_file"]);
    const failed = await failure(() => expect(driver).not.toHaveTools(["read_file", "list_directory"]));
    expect(failed.message).toBe('expected server not to have all of the tools "read_file", "list_directory", but it has all of them');
  });

  it("throws for something other than a list of names", async () => {
    const driver = await fileServer();
    // @ts-expect-error a string is not a list
    await expect(expect(driver).toHaveTools("read_file")).rejects.toThrow('toHaveTools() takes a list of tool names (strings); got "read_file".');
  });
});

describe("toHaveResource / toHaveResources", () => {
  it("finds a resource by name or by URI", async () => {
    const driver = await fileServer();
    await expect(driver).toHaveResource("config");
    await expect(driver).toHaveResource("file:///config.json");
    await expect(driver).toHaveResource("file:///README.md");
    await expect(driver).toHaveResources(["config", "file:///README.md"]);
  });

  it("fails listing each resource with its URI", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toHaveResource("settings"));
    expect(failed.message).toBe('expected server to have resource "settings" (by name or URI); it has: config (file:///config.json), file:///README.md');
    expect(failed.actual).toEqual(["config (file:///config.json)", "file:///README.md"]);
    const many = await failure(() => expect(driver).toHaveResources(["config", "file:///conf.json"]));
    expect(many.message).toBe(
      'expected server to have resources "config", "file:///conf.json" (by name or URI); missing: "file:///conf.json" (did you mean "file:///config.json"?); it has: config (file:///config.json), file:///README.md',
    );
  });

  it("works with .not, naming the resource found", async () => {
    const driver = await fileServer();
    await expect(driver).not.toHaveResource("file:///logs/{day}");
    const failed = await failure(() => expect(driver).not.toHaveResource("file:///config.json"));
    expect(failed.message).toBe('expected server not to have resource "file:///config.json", but it does: config (file:///config.json)');
    const all = await failure(() => expect(driver).not.toHaveResources(["config"]));
    expect(all.message).toBe('expected server not to have all of the resources "config", but it has all of them');
  });
});

describe("toHaveResourceTemplate", () => {
  it("finds a template by name or URI template", async () => {
    const driver = await fileServer();
    await expect(driver).toHaveResourceTemplate("daily-log");
    await expect(driver).toHaveResourceTemplate("file:///logs/{day}");
    await expect(driver).not.toHaveResourceTemplate("config");
  });

  it("fails listing the templates", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toHaveResourceTemplate("file:///logs/{date}"));
    expect(failed.message).toBe(
      'expected server to have resource template "file:///logs/{date}" (by name or URI template); it has: daily-log (file:///logs/{day}); did you mean "file:///logs/{day}"?',
    );
    const negated = await failure(() => expect(driver).not.toHaveResourceTemplate("daily-log"));
    expect(negated.message).toBe('expected server not to have resource template "daily-log", but it does: daily-log (file:///logs/{day})');
  });
});

describe("toHavePrompt / toHavePrompts", () => {
  it("passes for listed prompts and fails listing them", async () => {
    const driver = await fileServer();
    await expect(driver).toHavePrompt("summarize");
    await expect(driver).toHavePrompts(["summarize", "review"]);
    await expect(driver).not.toHavePrompt("translate");
    const failed = await failure(() => expect(driver).toHavePrompt("translate"));
    expect(failed.message).toBe('expected server to have prompt "translate"; it has: summarize, review');
    const many = await failure(() => expect(driver).toHavePrompts(["summarize", "translate"]));
    expect(many.message).toBe('expected server to have prompts "summarize", "translate"; missing: "translate"; it has: summarize, review');
    expect(many.actual).toEqual(["summarize", "review"]);
    expect(many.expected).toEqual(["summarize", "review", "translate"]);
    const negated = await failure(() => expect(driver).not.toHavePrompt("review"));
    expect(negated.message).toBe('expected server not to have prompt "review", but it does');
  });
});

describe("toMatchToolSchema", () => {
  it("passes when the definition partially matches", async () => {
    const driver = await fileServer();
    await expect(driver).toMatchToolSchema("read_file", { inputSchema: { required: ["path"] }, annotations: { readOnlyHint: true } });
    await expect(driver).toMatchToolSchema("read_file", { description: /read/i, inputSchema: { properties: { path: expect.objectContaining({ type: "string" }) } } });
    await expect(driver).not.toMatchToolSchema("read_file", { annotations: { destructiveHint: true } });
  });

  it("fails at the first difference, with a diff of only the compared keys", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toMatchToolSchema("read_file", { inputSchema: { required: ["file"] }, annotations: { readOnlyHint: true } }));
    expect(failed.message).toBe(
      'expected tool "read_file" to match {"inputSchema":{"required":["file"]},"annotations":{"readOnlyHint":true}}; at $.inputSchema.required[0]: expected "file", got "path"',
    );
    expect(failed.actual).toEqual({ inputSchema: { required: ["path"] }, annotations: { readOnlyHint: true } });
    expect(failed.expected).toEqual({ inputSchema: { required: ["file"] }, annotations: { readOnlyHint: true } });
  });

  it("reports a missing key as undefined", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toMatchToolSchema("list_directory", { annotations: { readOnlyHint: true } }));
    expect(failed.message).toBe('expected tool "list_directory" to match {"annotations":{"readOnlyHint":true}}; at $.annotations: expected {"readOnlyHint":true}, got undefined');
    expect(failed.actual).toEqual({});
  });

  it("fails for a tool that does not exist, with or without .not", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).toMatchToolSchema("read", { annotations: {} }));
    expect(failed.message).toBe('expected tool "read" to match {"annotations":{}}, but the server has no tool "read"; it has: read_file, list_directory');
    const negated = await failure(() => expect(driver).not.toMatchToolSchema("reed_file", { annotations: {} }));
    expect(negated.message).toBe('expected tool "reed_file" not to match {"annotations":{}}, but the server has no tool "reed_file"; it has: read_file, list_directory; did you mean "read_file"?');
  });

  it("works with .not on a matching definition", async () => {
    const driver = await fileServer();
    const failed = await failure(() => expect(driver).not.toMatchToolSchema("read_file", { annotations: { readOnlyHint: true } }));
    expect(failed.message).toBe('expected tool "read_file" not to match {"annotations":{"readOnlyHint":true}}, but it does');
  });

  it("throws for expectations that are not an object", async () => {
    const driver = await fileServer();
    // @ts-expect-error the expectations are an object
    await expect(expect(driver).toMatchToolSchema("read_file", "readOnly")).rejects.toThrow("toMatchToolSchema() takes the tool's name and an object of expectations");
  });
});

describe("a tool the driver itself left out (an invalid x-mcp-header over HTTP in 2026-07-28)", () => {
  it("toHaveTool, toHaveTools and toMatchToolSchema say the server lists it and why the driver left it out", async () => {
    const { mockMcp, mcpConnect } = await import("../../src/index.js");
    await using server = await mockMcp({
      tools: {
        search: { returns: "found" },
        execute_sql: { inputSchema: { type: "object", properties: { limit: { type: "number", "x-mcp-header": "Limit" } } }, responses: [{ returns: "rows" }] },
      },
    });
    await using driver = mcpConnect(server.url!);
    const why =
      'the server does list "execute_sql", but the driver left it out of getTools() (over HTTP, 2026-07-28 requires a client to): inputSchema.properties.limit: x-mcp-header is allowed on string, integer and boolean parameters only, not type "number"';
    expect((await failure(() => expect(driver).toHaveTool("execute_sql"))).message).toBe(`expected server to have tool "execute_sql"; it has: search; ${why}`);
    expect((await failure(() => expect(driver).toHaveTools(["search", "execute_sql"]))).message).toContain(`missing: "execute_sql"; it has: search; ${why}`);
    expect((await failure(() => expect(driver).toMatchToolSchema("execute_sql", { inputSchema: {} }))).message).toContain(`but the server has no tool "execute_sql"; it has: search; ${why}`);
  });
});
