/**
 * Result helpers and the marker properties the matchers rely on (no instanceof, so they work
 * across duplicated copies of the package), plus option checks that fail before any spawn.
 */
import { describe, expect, it } from "vitest";
import {
  GetPromptResult,
  isGetPromptResult,
  isMcpDriver,
  isReadResourceResult,
  isToolCallResult,
  mcpAttach,
  mcpConnect,
  mcpShell,
  ReadResourceResult,
  ToolCallError,
  ToolCallResult,
} from "../../src/driver/index.js";
import { mockMcp } from "../../src/index.js";

describe("ToolCallResult", () => {
  const result = new ToolCallResult(
    {
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "second" },
      ],
      structuredContent: { ok: true },
    },
    "demo",
  );

  it("keeps what the server sent as its own fields (so toEqual works) and defaults isError", () => {
    expect(result).toEqual({
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "second" },
      ],
      structuredContent: { ok: true },
      isError: false,
    });
    expect(new ToolCallResult({}).content).toEqual([]);
    // A malformed flag (kept under strict: false) that says "error" is an error, not a success.
    expect(new ToolCallResult({ content: [], isError: "yes" }).isError).toBe(true);
    expect(new ToolCallResult({ content: [], isError: 0 }).isError).toBe(false);
  });

  it("has the helpers", () => {
    expect(result.getTextContent()).toBe("first");
    expect(result.getContentByType("text").map((block) => block.text)).toEqual(["first", "second"]);
    expect(result.findContentByType("image")?.mimeType).toBe("image/png");
    expect(result.findContentByType("audio")).toBeUndefined();
    expect(result.expectSuccess()).toBe(result);
  });

  it("expectSuccess throws a ToolCallError with the tool's text", () => {
    const failed = new ToolCallResult({ content: [{ type: "text", text: "disk full" }], isError: true }, "save");
    const error = (() => {
      try {
        failed.expectSuccess();
      } catch (e) {
        return e as ToolCallError;
      }
    })();
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error?.message).toBe('[mcp-testkit] Tool "save" returned an error result (isError: true): disk full');
    expect(error?.result).toBe(failed);
  });
});

describe("ReadResourceResult and GetPromptResult", () => {
  it("read helpers", () => {
    const result = new ReadResourceResult(
      {
        contents: [
          { uri: "a://1", text: "one", mimeType: "text/plain" },
          { uri: "a://2", blob: "AQID" },
          { uri: "a://3", text: "three" },
        ],
      },
      "a://1",
    );
    expect(result.getTextContent()).toBe("one");
    expect(result.getBlobContent()).toBe("AQID");
    expect(result.findByUri("a://3")).toEqual({ uri: "a://3", text: "three" });
    expect(result.getAllTextResources()).toHaveLength(2);
    expect(result.getAllBlobResources()).toHaveLength(1);
    expect(result.hasTextContent() && result.hasBlobContent()).toBe(true);
    expect(result.content).toBe(result.contents);
    expect(result).toEqual({ contents: result.contents });
  });

  it("prompt helpers", () => {
    const result = new GetPromptResult({ description: "d", messages: [{ role: "user", content: { type: "text", text: "hello" } }] }, "p");
    expect(result.getTextContent()).toBe("hello");
    expect(result.promptName).toBe("p");
    expect(result).toEqual({ description: "d", messages: [{ role: "user", content: { type: "text", text: "hello" } }] });
  });
});

describe("markers", () => {
  it("are the Symbol.for properties the matchers read, true and not enumerable", async () => {
    const tool = new ToolCallResult({ content: [] });
    const read = new ReadResourceResult({ contents: [] });
    const prompt = new GetPromptResult({ messages: [] });
    await using mock = await mockMcp({});
    await using driver = mcpAttach(mock.connectInMemory());

    expect((driver as unknown as Record<symbol, unknown>)[Symbol.for("mcp-testkit.driver")]).toBe(true);
    expect((tool as unknown as Record<symbol, unknown>)[Symbol.for("mcp-testkit.toolCallResult")]).toBe(true);
    expect((read as unknown as Record<symbol, unknown>)[Symbol.for("mcp-testkit.readResourceResult")]).toBe(true);
    expect((prompt as unknown as Record<symbol, unknown>)[Symbol.for("mcp-testkit.promptResult")]).toBe(true);
    expect(Object.getOwnPropertySymbols(tool)).toEqual([]);

    expect(isMcpDriver(driver) && isToolCallResult(tool) && isReadResourceResult(read) && isGetPromptResult(prompt)).toBe(true);
    expect(isToolCallResult(read) || isMcpDriver(tool) || isToolCallResult({ content: [] }) || isToolCallResult(null)).toBe(false);
    // A copy from another module instance: only the marker matters.
    expect(isToolCallResult({ [Symbol.for("mcp-testkit.toolCallResult")]: true })).toBe(true);
  });
});

describe("options", () => {
  it("bad options fail at once, before anything is spawned", () => {
    expect(() => mcpShell("")).toThrow(/expected a command line/);
    expect(() => mcpShell("node x.js", { requestTimeout: 0 })).toThrow('"requestTimeout" must be a number of ms from 1 to 2147483647, got number 0.');
    // Longer than a timer holds: Node would fire it at once, so every request would time out at once.
    expect(() => mcpShell("node x.js", { requestTimeout: 2 ** 31 })).toThrow('"requestTimeout" must be a number of ms from 1 to 2147483647, got number 2147483648.');
    expect(() => mcpConnect("http://127.0.0.1:9/mcp", { requestTimeout: 3e9 })).toThrow('"requestTimeout" must be a number of ms from 1 to 2147483647, got number 3000000000.');
    expect(() => mcpShell("node x.js", { roots: [{ name: "no uri" }] as never })).toThrow(/roots must be an array of \{ uri: string/);
    expect(() => mcpShell("node x.js", { onSampling: "yes" as never })).toThrow(/onSampling must be a function/);
    expect(() => mcpShell("node x.js", { requestTimeout: "5000" as never })).toThrow('"requestTimeout" must be a number of ms from 1 to 2147483647, got "5000".');
    expect(() => mcpShell("node x.js", { protocolVersion: "2099-01-01" })).toThrow(
      'protocolVersion must be a revision mcp-testkit knows (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28), got "2099-01-01".',
    );
    expect(() => mcpShell("node x.js", { env: "FOO=1" as never })).toThrow('env must be an object of strings such as { DEBUG: "1" }');
    expect(() => mcpShell("node x.js", { env: { PORT: 3000 } as never })).toThrow("env must be an object of strings");
    expect(() => mcpShell("node x.js", { cwd: 5 as never })).toThrow("cwd must be a directory path (a string), got number 5.");
  });

  it("a call's options are checked too: a misspelt key or a timeout setTimeout cannot honour fails the call at once", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { ok: { returns: "fine" } } });
    await using app = mcpAttach(mock.connectInMemory());
    await expect(app.callTool("ok", {}, { timeout: 300 } as never)).rejects.toThrow(`callTool()'s options has unknown key "timeout"; did you mean "timeoutMs"?`);
    await expect(app.callTool("ok", {}, { timeoutMs: -5 })).rejects.toThrow(`callTool()'s options: "timeoutMs" must be a number of ms from 1 to 2147483647, got number -5.`);
    await expect(app.callTool("ok", {}, { timeoutMs: 3e9 })).rejects.toThrow(`callTool()'s options: "timeoutMs" must be a number of ms from 1 to 2147483647, got number 3000000000.`);
    await expect(app.waitForNotification("notifications/message", { timeoutMs: 2 ** 31 })).rejects.toThrow(
      `waitForNotification()'s options: "timeoutMs" must be a number of ms from 0 to 2147483647, got number 2147483648.`,
    );
    await expect(app.ping({ onProgress: "log" } as never)).rejects.toThrow(`ping()'s options: "onProgress" must be`);
    expect(mock.calls).toEqual([]);
    expect((await app.callTool("ok", {}, { timeoutMs: 1000 })).getTextContent()).toBe("fine");
  });

  it("a misspelled option fails with a did-you-mean instead of being ignored (plain JS; TypeScript catches it first)", () => {
    expect(() => mcpShell("node x.js", { requestTimout: 100 } as never)).toThrow('[mcp-testkit] mcpShell() options has unknown key "requestTimout"; did you mean "requestTimeout"?');
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { header: {} } as never)).toThrow('mcpConnect() options has unknown key "header"; did you mean "headers"?');
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { env: {} } as never)).toThrow('mcpConnect() options has unknown key "env".');
    expect(() => mcpAttach(Promise.resolve({} as never), { cwd: "/" } as never)).toThrow('mcpAttach() options has unknown key "cwd".');
    expect(() => mcpShell("node x.js", null as never)).toThrow("[mcp-testkit] mcpShell() takes an options object, got null.");
  });
});
