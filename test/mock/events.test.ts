/** `server.on("call:start" | "call:end")`: live reports of calls, isolated from the client under test. */
import { describe, expect, it } from "vitest";
import { McpTestkitError, type ToolCall } from "../../src/index.js";
import { connect, mock, useCleanup } from "./support.js";

useCleanup();

describe("server.on", () => {
  it("reports each call as it starts (pending) and as it ends (with its outcome)", async () => {
    const server = await mock({ tools: { search: [{ returns: "ok" }, { throws: "rate_limited" }] } });
    const seen: string[] = [];
    const stopStart = server.on("call:start", (call) => seen.push(`start ${call.tool}#${call.index} ${call.outcome}`));
    const stopEnd = server.on("call:end", (call) => seen.push(`end ${call.tool}#${call.index} ${call.outcome}`));
    const client = await connect(server);
    await client.callTool({ name: "search", arguments: {} });
    await expect(client.callTool({ name: "search", arguments: {} })).rejects.toThrow(/rate_limited/);
    expect(seen).toEqual(["start search#0 pending", "end search#0 result", "start search#1 pending", "end search#1 protocol-error"]);

    stopStart();
    stopEnd();
    await expect(client.callTool({ name: "search", arguments: {} })).rejects.toThrow();
    expect(seen).toHaveLength(4);
  });

  it("keeps a throwing listener away from the client under test", async () => {
    const logged: string[] = [];
    const server = await mock({ tools: { echo: { returns: "hi" } }, logger: (_level, line) => void logged.push(line) });
    const ended: ToolCall[] = [];
    server.on("call:end", () => {
      throw new Error("listener bug");
    });
    server.on("call:end", (call) => ended.push(call));
    const client = await connect(server);
    const result = await client.callTool({ name: "echo", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(ended.map((call) => call.outcome)).toEqual(["result"]);
    expect(logged).toEqual(['mcp-testkit: a "call:end" listener threw (listener bug); the client was not affected. Later throws from this listener are not reported.']);
  });

  it("refuses an event it does not have, naming the ones it has", async () => {
    const server = await mock();
    expect(() => server.on("call:finish" as "call:end", () => undefined)).toThrow(McpTestkitError);
    expect(() => server.on("call:finish" as "call:end", () => undefined)).toThrow(
      /Unknown event "call:finish"; events are "call:start", "call:end", "session:open", "session:close", "request:start", "request:end", "stream:open", "stream:close", .*"server:didStop"\./,
    );
  });
});
