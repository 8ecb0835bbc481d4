/**
 * What the matchers accept and how they refuse the rest. Everything is recognized by shape and
 * by `Symbol.for` markers, so a second copy of mcp-testkit (another install, CJS next to ESM)
 * works: here the matchers are loaded from a separate copy of their source files, and the
 * objects come from this copy or are plain objects carrying the markers.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpMatchers } from "../../src/matchers/matchers.js";
import "../../src/matchers/vitest.js";
import { failure, mock, sdkDriver, useCleanup } from "./support.js";

useCleanup();

const driverMarker = Symbol.for("mcp-testkit.driver");
const toolResultMarker = Symbol.for("mcp-testkit.toolCallResult");
const readResultMarker = Symbol.for("mcp-testkit.readResourceResult");

describe("a second copy of the matchers", () => {
  let copyDir = "";
  let copy: { mcpMatchers: typeof mcpMatchers };

  beforeAll(async () => {
    copyDir = mkdtempSync(join(tmpdir(), "mcp-testkit-second-copy-"));
    const src = new URL("../../src/", import.meta.url);
    mkdirSync(join(copyDir, "engine"));
    mkdirSync(join(copyDir, "protocol"));
    cpSync(new URL("matchers/", src), join(copyDir, "matchers"), { recursive: true });
    cpSync(new URL("engine/match.ts", src), join(copyDir, "engine", "match.ts"));
    cpSync(new URL("errors.ts", src), join(copyDir, "errors.ts"));
    cpSync(new URL("engine/assertions.ts", src), join(copyDir, "engine", "assertions.ts"));
    cpSync(new URL("util/", src), join(copyDir, "util"), { recursive: true });
    // The matchers name protocol revisions through the version table, which imports nothing.
    cpSync(new URL("protocol/versions.ts", src), join(copyDir, "protocol", "versions.ts"));
    copy = (await import(pathToFileURL(join(copyDir, "matchers", "matchers.ts")).href)) as typeof copy;
  });

  afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

  it("is really another copy", () => {
    expect(copy.mcpMatchers.toHaveTool).not.toBe(mcpMatchers.toHaveTool);
  });

  it("accepts this copy's mock, a driver-shaped object and their results", async () => {
    const server = await mock({ tools: { read_file: { returns: "hello" } }, resources: { "file:///a.txt": "alpha" } });
    const driver = await sdkDriver(server);
    const matchers = copy.mcpMatchers;
    const context = { isNot: false };
    expect((await matchers.toHaveTool.call(context, driver, "read_file")).pass).toBe(true);
    expect((await matchers.toHaveResource.call(context, driver, "file:///a.txt")).pass).toBe(true);
    const result = await driver.callTool("read_file", { path: "a.txt" });
    expect(matchers.toBeSuccessful.call(context, result).pass).toBe(true);
    expect(matchers.toHaveTextContent.call(context, result, "hello").pass).toBe(true);
    expect(matchers.toHaveTextResource.call(context, await driver.readResource("file:///a.txt"), "alpha").pass).toBe(true);
    expect(matchers.toHaveBeenCalledTool.call(context, server, "read_file", { times: 1 }).pass).toBe(true);
    const missing = await matchers.toHaveTool.call(context, driver, "write_file");
    expect(missing.pass).toBe(false);
    expect(missing.message()).toBe('expected server to have tool "write_file"; it has: read_file');
  });
});

describe("plain objects carrying the markers", () => {
  it("a driver is any object marked as one with the list methods", async () => {
    const driver = {
      [driverMarker]: true,
      getTools: async () => [{ name: "echo", inputSchema: { type: "object" } }],
      getResources: async () => [{ uri: "mem://notes", name: "notes" }],
      getResourceTemplates: async () => [{ uriTemplate: "mem://notes/{id}", name: "note" }],
      getPrompts: async () => [{ name: "greet" }],
    };
    await expect(driver).toHaveTool("echo");
    await expect(driver).toHaveResource("notes");
    await expect(driver).toHaveResourceTemplate("note");
    await expect(driver).toHavePrompt("greet");
    await expect(driver).toMatchToolSchema("echo", { inputSchema: { type: "object" } });
  });

  it("a marker on the prototype counts (as on a driver's result class)", async () => {
    class OtherCopyResult {
      content = [{ type: "text", text: "done" }];
      isError = false;
    }
    Object.defineProperty(OtherCopyResult.prototype, toolResultMarker, { value: true });
    expect(new OtherCopyResult()).toBeSuccessful();
    expect(new OtherCopyResult()).toHaveTextContent("done");
  });

  it("a marked result without content is read as having none", async () => {
    const failed = await failure(() => expect({ [toolResultMarker]: true, isError: true }).toHaveTextContent("x"));
    expect(failed.message).toBe('expected tool result to have text content "x", but it has no text block; its content is empty');
    expect({ [readResultMarker]: true }).not.toHaveResourceContent("file:///x");
  });

  it("a driver missing a list method is refused by name", async () => {
    const driver = { [driverMarker]: true, getTools: async () => [] };
    const failed = await failure(() => expect(driver).toHaveResourceTemplate("x"));
    expect(failed.message).toBe(
      'toHaveResourceTemplate expects an mcp-testkit driver (an object marked Symbol.for("mcp-testkit.driver"), from mcpShell(), mcpConnect() or mcpAttach()); received a driver without getResourceTemplates()',
    );
  });

  it("a driver whose list is not an array is refused", async () => {
    const driver = { [driverMarker]: true, getTools: async () => ({ tools: [] }) };
    const failed = await failure(() => expect(driver).toHaveTool("x"));
    expect(failed.message).toBe("toHaveTool: the driver's getTools() gave an object with keys: tools instead of a list of tools");
  });
});

describe("a received value of the wrong kind", () => {
  const driverWanted = 'an mcp-testkit driver (an object marked Symbol.for("mcp-testkit.driver"), from mcpShell(), mcpConnect() or mcpAttach())';
  const toolResultWanted = "a tool call result ({ content: [...], isError? }, from callTool())";

  it("says what the matcher accepts and what it got", async () => {
    const server = await mock({ tools: { a: { returns: "x" } } });
    expect((await failure(() => expect(server).toHaveTool("a"))).message).toBe(`toHaveTool expects ${driverWanted}; received a mock server (from mockMcp())`);
    expect((await failure(() => expect({ tools: [] }).toHaveTools(["a"]))).message).toBe(`toHaveTools expects ${driverWanted}; received an object with keys: tools`);
    expect((await failure(() => expect(undefined).toHavePrompt("a"))).message).toBe(`toHavePrompt expects ${driverWanted}; received undefined`);
    expect((await failure(() => expect("read_file").toBeSuccessful())).message).toBe(`toBeSuccessful expects ${toolResultWanted}; received the string "read_file"`);
    expect((await failure(() => expect([{ type: "text", text: "x" }]).toHaveTextContent("x"))).message).toBe(`toHaveTextContent expects ${toolResultWanted}; received an array of 1 item`);
    expect((await failure(() => expect({ contents: [] }).toBeToolError())).message).toBe(`toBeToolError expects ${toolResultWanted}; received a resource read result`);
    expect((await failure(() => expect(ok()).toHaveTextResource("x"))).message).toBe(
      "toHaveTextResource expects a resource read result ({ contents: [...] }, from readResource()); received a tool call result",
    );
    expect((await failure(() => expect(new Map()).toHaveBeenCalledTool("a"))).message).toBe(
      "toHaveBeenCalledTool expects a mock server from mockMcp() (an object with a calls array and assertCalled()); received a Map (no keys)",
    );
    expect((await failure(() => expect(42).toHaveResourceContent("x"))).message).toBe(
      "toHaveResourceContent expects a resource read result ({ contents: [...] }, from readResource()); received the number 42",
    );
  });

  it("points at a missing await", async () => {
    const failed = await failure(() => expect(Promise.resolve(ok())).toBeSuccessful());
    expect(failed.message).toBe(`toBeSuccessful expects ${toolResultWanted}; received a Promise (did you forget to await it?)`);
  });

  it("fails under .not too, so a mistake cannot pass", async () => {
    const failed = await failure(() => expect(null).not.toBeSuccessful());
    expect(failed.message).toBe(`toBeSuccessful expects ${toolResultWanted}; received null`);
    await failure(() => expect({}).not.toHaveTool("x"));
    await failure(() => expect({}).not.toHaveBeenCalledTool("x"));
    await failure(() => expect({ content: "text" }).not.toHaveTextContent("x"));
  });
});

function ok() {
  return { content: [{ type: "text", text: "ok" }] };
}
