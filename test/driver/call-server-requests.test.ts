/**
 * A call's own `onServerRequest`: the server's requests that belong to one call are answered by
 * that call's handler before the driver's (`onElicitation`, `onSampling`, `roots`). In 2026-07-28
 * they are exactly the call's input requests; in the legacy era a server request goes to the one
 * call in flight with a handler, and is refused when two are (nothing says which it serves).
 */
import { describe, expect, it } from "vitest";
import { mcpAttach, mockMcp, McpTestkitError, type ToolCallContext } from "../../src/index.js";

const MODERN = "2026-07-28";

/** Resolves every arrival once `count` have arrived. */
function barrier(count: number) {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      if (++arrived === count) open();
      return all;
    },
  };
}
const question = { message: "Which city?", requestedSchema: { type: "object", properties: { city: { type: "string" } } } };
const trip = async (call: ToolCallContext) => {
  const answer = await call.elicit(question);
  const roots = await call.listRoots();
  return { returns: `${answer.action}:${(answer.content as { city?: string } | undefined)?.city ?? "-"}:${roots.map((root) => root.uri).join(",")}` };
};

for (const [era, versionNegotiation] of [["legacy", "legacy"], ["2026-07-28", { pin: MODERN }]] as const) {
  describe(`onServerRequest (${era})`, () => {
    it("answers the call's requests before the driver's handlers; undefined leaves one to them", async () => {
      await using mock = await mockMcp({ transport: "memory", tools: { trip } });
      await using app = mcpAttach(await mock.connectInMemory(), {
        versionNegotiation,
        roots: [{ uri: "file:///driver-root" }],
        onElicitation: () => ({ action: "decline" }),
      });
      const seen: string[] = [];
      const result = await app.callTool("trip", {}, {
        onServerRequest: (method, params) => {
          seen.push(method);
          if (method === "elicitation/create") return { action: "accept", content: { city: `Oslo (${String(params?.message)})` } };
          return undefined;
        },
      });
      expect(result.getTextContent()).toBe("accept:Oslo (Which city?):file:///driver-root");
      expect(seen).toEqual(["elicitation/create", "roots/list"]);
      // The next call without a handler of its own is the driver's again.
      expect((await app.callTool("trip")).getTextContent()).toBe("decline:-:file:///driver-root");
      expect(mock.calls.map((call) => call.protocolVersion)).toEqual(era === "legacy" ? ["2025-11-25", "2025-11-25"] : [MODERN, MODERN]);
    });

    it("answers what the driver only declares (capabilities), as a proxy does", async () => {
      await using mock = await mockMcp({ transport: "memory", tools: { trip } });
      await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation, capabilities: { elicitation: {}, roots: {} } });
      const result = await app.callTool("trip", {}, {
        onServerRequest: async (method) => (method === "roots/list" ? { roots: [{ uri: "file:///agent" }] } : { action: "cancel" }),
      });
      expect(result.getTextContent()).toBe("cancel:-:file:///agent");
      expect(mock.calls[0]!.exchanges.map((exchange) => [exchange.method, exchange.result])).toEqual([
        ["elicitation/create", { action: "cancel" }],
        ["roots/list", { roots: [{ uri: "file:///agent" }] }],
      ]);
    });
  });
}

describe("onServerRequest's answers and errors", () => {
  it("an answer of the wrong shape reaches the server as an error naming onServerRequest", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { trip } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const failure = await app.callTool("trip", {}, { onServerRequest: () => ({ accepted: true }) }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(mock.calls[0]!.exchanges[0]!.error?.message).toContain("The call's onServerRequest answered elicitation/create with {\"accepted\":true}; expected { action:");
  });

  it("a thrown error answers the server's request with it", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { ask: async (call) => ({ returns: await call.elicit(question).then(() => "answered", (error: Error) => error.message) }) } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const result = await app.callTool("ask", {}, {
      onServerRequest: () => {
        throw new Error("the agent has no screen");
      },
    });
    expect(result.getTextContent()).toContain("the agent has no screen");
  });

  it("legacy era: with two calls in flight that have handlers, a server request is refused, saying why", async () => {
    // Both calls ask once both have started, and stay open until both asks were answered: both asks come while both calls are in flight.
    const started = barrier(2);
    const asked = barrier(2);
    const slow = async (call: ToolCallContext) => {
      await started.arrive();
      const answered = await call.elicit(question).then((answer) => answer.action, (error: Error) => error.message);
      await asked.arrive();
      return { returns: answered };
    };
    await using mock = await mockMcp({ transport: "memory", tools: { slow } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const answer = () => ({ action: "accept", content: {} });
    const [a, b] = await Promise.all([app.callTool("slow", {}, { onServerRequest: answer }), app.callTool("slow", {}, { onServerRequest: answer })]);
    for (const text of [a.getTextContent(), b.getTextContent()]) {
      expect(text).toContain('while 2 calls with their own onServerRequest were in flight (tools/call "slow", tools/call "slow")');
    }
    // One at a time, each is its call's.
    await using lone = await mockMcp({ transport: "memory", tools: { trip } });
    await using single = mcpAttach(await lone.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {}, roots: {} } });
    const each = (method: string) => (method === "roots/list" ? { roots: [] } : { action: "accept", content: { city: "Rome" } });
    expect((await single.callTool("trip", {}, { onServerRequest: each })).getTextContent()).toBe("accept:Rome:");
  });

  it("a handler that is not a function is refused when the call is made", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { trip } });
    await using app = mcpAttach(await mock.connectInMemory());
    await expect(app.callTool("trip", {}, { onServerRequest: "yes" as never })).rejects.toThrow(McpTestkitError);
    await expect(app.callTool("trip", {}, { onServerRequest: "yes" as never })).rejects.toThrow(/onServerRequest/);
  });
});
