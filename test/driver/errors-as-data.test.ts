/**
 * What a driver error says is data: its advice comes as typed hints, and `renderDriverError`
 * says it for an audience (the library's option names, the command line's flags, or a summary
 * with no advice). And the driver's facets: `driver.process` for the spawned server and
 * `driver.traffic` for the record, with the former names still answering.
 */
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { mcpAttach, mcpShell, renderDriverError, RequestTimeoutError, ToolCallError } from "../../src/driver/index.js";

describe("errors as data", () => {
  it("a -32021 names the capability as a hint, said with the driver's options or the CLI's words", async () => {
    await using mock = await mockMcp({
      tools: { ask: { throws: { code: -32021, message: "needs elicitation", data: { requiredCapabilities: { elicitation: {} } } } } },
    });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    const error = (await app.callTool("ask").catch((caught: unknown) => caught)) as ToolCallError;
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.hints).toEqual([{ kind: "declareCapabilities", capabilities: ["elicitation"] }]);
    expect(error.message).toContain("pass onElicitation: (params) => ");
    expect(renderDriverError(error, "cli")).toContain("The CLI declares no client capabilities");
    expect(renderDriverError(error, "cli")).not.toContain("onElicitation: (params)");
    expect(renderDriverError(error, "summary")).toBe(
      `Tool "ask" failed: the server answered tools/call with JSON-RPC error -32021 (MissingRequiredClientCapability): "needs elicitation" (data: {"requiredCapabilities":{"elicitation":{}}})`,
    );
  });

  it("a timeout carries how long it waited; the library names requestTimeout, the CLI --timeout", async () => {
    await using mock = await mockMcp({ tools: { slow: { hang: true } } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    const error = (await app.callTool("slow", {}, { timeoutMs: 200 }).catch((caught: unknown) => caught)) as RequestTimeoutError;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.hints).toEqual([{ kind: "raiseTimeout", timeoutMs: 200 }]);
    expect(error.message).toMatch(/got no response within 200 ms; sent notifications\/cancelled\. If the server is just slow, raise requestTimeout/);
    expect(renderDriverError(error, "cli")).toMatch(/sent notifications\/cancelled\. If the server is just slow, raise --timeout \(it was 200 ms\)\.$/);
  });
});

describe("driver.process and driver.traffic", () => {
  it("a driver with no process: facts undefined, actions refused saying why; the traffic is recorded", async () => {
    await using mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
    await using app = mcpAttach(mock.connectInMemory(), { name: "the mock" });
    expect((await app.callTool("echo")).getTextContent()).toBe("hi");
    expect(app.process.pid).toBeUndefined();
    expect(app.process.stderr).toEqual([]);
    expect(() => app.process.kill()).toThrow(/kill\(\) needs a spawned server \(mcpShell\); this driver is connected to the mock \(attached\)/);
    expect(app.traffic.messages.some((record) => record.direction === "outgoing" && record.method === "tools/call")).toBe(true);
    expect(app.traffic.problems).toEqual([]);
    expect(app.traffic.protocolErrorCount).toBe(0);
    expect(() => app.traffic.assertNoProtocolError()).not.toThrow();
    // The former names answer the same.
    expect(app.messages).toEqual(app.traffic.messages);
    expect(app.recorder).toBe(app.traffic.recorder);
  });

  it("a spawned server: its pid, exit and output on driver.process", async () => {
    const app = mcpShell(`node -e "process.stderr.write('ready\\\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(3))"`);
    try {
      // The bound only guards a hang on a loaded machine.
      await expect.poll(() => app.process.stderr, { timeout: 10_000 }).toEqual(["ready"]);
      expect(app.process.pid).toBeTypeOf("number");
      expect(app.pid).toBe(app.process.pid);
      await app.close({ allowFailure: true });
      expect(app.process.exitCode).toBe(3);
      expect(await app.process.waitForExit()).toBe(3);
    } finally {
      await app.close({ allowFailure: true });
    }
  });
});
