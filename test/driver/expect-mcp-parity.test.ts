/**
 * Seed 002 (expect-mcp) parity: its examples, written against our driver, and its class
 * `MCPStdinSubprocess({ command, args })`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mcpShell, MCPStdinSubprocess, type MCPInitializeResult, type MCPTool } from "../../src/driver/index.js";
import { everythingBin, everythingCommand, expectNoProcessLeft } from "./support.js";

describe("expect-mcp's example test", () => {
  test("provides operations", async () => {
    const app = mcpShell(everythingCommand);
    try {
      const result: MCPInitializeResult = await app.initialize();
      expect(result.serverInfo).toMatchObject({ name: "mcp-servers/everything", version: expect.stringMatching(/^\d+\.\d+/) });
      expect(await app.hasTool("echo")).toBe(true);
      expect(await app.hasResource("architecture.md")).toBe(true);

      const toolResult = await app.callTool("echo", { message: "package.json" });
      expect(toolResult.content).toEqual([{ type: "text", text: "Echo: package.json" }]);
      expect(toolResult.isError).toBe(false);

      const resourceResult = await app.readResource("demo://resource/static/document/architecture.md");
      expect(resourceResult.contents).toEqual([{ uri: "demo://resource/static/document/architecture.md", mimeType: "text/markdown", text: expect.stringMatching(/^# Everything Server/) }]);
      if (!app.isInitialized()) await app.initialize();
      const info = app.getInitializeResult();
      expect(info?.serverInfo.name).toBe("mcp-servers/everything");
      expect(await app.supportsResources()).toBe(true);
      expect((await app.readResource("demo://resource/dynamic/text/1")).contents).toEqual([expect.objectContaining({ uri: "demo://resource/dynamic/text/1", text: expect.stringContaining("1") })]);
    } finally {
      await app.close();
    }
    await expectNoProcessLeft(app.pid);
  });
});

describe("with beforeAll/afterAll and new MCPStdinSubprocess({ command, args })", () => {
  let app: MCPStdinSubprocess;

  beforeAll(async () => {
    app = new MCPStdinSubprocess({ requestTimeout: 10000, allowDebugLogging: true, command: everythingBin, args: ["stdio"] });
    await app.initialize();
  });

  afterAll(async () => {
    await app.close(10000);
    expect(await app.waitForExit()).toBe(0);
  });

  test("provides expected tools", async () => {
    const tools: MCPTool[] = await app.getTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
  });

  test("can call tools", async () => {
    const result = await app.callTool("get-sum", { a: 1, b: 2 });
    expect(result.getTextContent()).toBe("The sum of 1 and 2 is 3.");
  });
});
