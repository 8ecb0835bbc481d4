/**
 * A call's own `onServerRequest`: the server's requests that belong to one call are answered by
 * that call's handler before the driver's (`onElicitation`, `onSampling`, `roots`). In 2026-07-28
 * they are exactly the call's input requests; in the legacy era a server request goes to a call
 * with a handler when it is the only call in flight, and is refused beside others (nothing says
 * which it serves). The handler's time is not the server's: the call's timeout waits meanwhile.
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

/**
 * Two tools whose calls meet: each starts, `asks` then asks the client, and neither ends before
 * the ask was answered, so the ask comes while both calls are in flight.
 */
function twoInFlight() {
  const started = barrier(2);
  const asked = barrier(2);
  return {
    asks: async (call: ToolCallContext) => {
      await started.arrive();
      const answered = await call.elicit(question).then(
        (answer) => answer.action,
        (error: Error) => error.message,
      );
      await asked.arrive();
      return { returns: answered };
    },
    waits: async () => {
      await started.arrive();
      await asked.arrive();
      return { returns: "waited" };
    },
  };
}
const trip = async (call: ToolCallContext) => {
  const answer = await call.elicit(question);
  const roots = await call.listRoots();
  return { returns: `${answer.action}:${(answer.content as { city?: string } | undefined)?.city ?? "-"}:${roots.map((root) => root.uri).join(",")}` };
};

for (const [era, versionNegotiation] of [
  ["legacy", "legacy"],
  ["2026-07-28", { pin: MODERN }],
] as const) {
  describe(`onServerRequest (${era})`, () => {
    it("answers the call's requests before the driver's handlers; undefined leaves one to them", async () => {
      await using mock = await mockMcp({ transport: "memory", tools: { trip } });
      await using app = mcpAttach(await mock.connectInMemory(), {
        versionNegotiation,
        roots: [{ uri: "file:///driver-root" }],
        onElicitation: () => ({ action: "decline" }),
      });
      const seen: string[] = [];
      const result = await app.callTool(
        "trip",
        {},
        {
          onServerRequest: (method, params) => {
            seen.push(method);
            if (method === "elicitation/create") return { action: "accept", content: { city: `Oslo (${String(params?.message)})` } };
            return undefined;
          },
        },
      );
      expect(result.getTextContent()).toBe("accept:Oslo (Which city?):file:///driver-root");
      expect(seen).toEqual(["elicitation/create", "roots/list"]);
      // The next call without a handler of its own is the driver's again.
      expect((await app.callTool("trip")).getTextContent()).toBe("decline:-:file:///driver-root");
      expect(mock.calls.map((call) => call.protocolVersion)).toEqual(era === "legacy" ? ["2025-11-25", "2025-11-25"] : [MODERN, MODERN]);
    });

    it("answers what the driver only declares (capabilities), as a proxy does", async () => {
      await using mock = await mockMcp({ transport: "memory", tools: { trip } });
      await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation, capabilities: { elicitation: {}, roots: {} } });
      const result = await app.callTool(
        "trip",
        {},
        {
          onServerRequest: async (method) => (method === "roots/list" ? { roots: [{ uri: "file:///agent" }] } : { action: "cancel" }),
        },
      );
      expect(result.getTextContent()).toBe("cancel:-:file:///agent");
      expect(mock.calls[0]!.exchanges.map((exchange) => [exchange.method, exchange.result])).toEqual([
        ["elicitation/create", { action: "cancel" }],
        ["roots/list", { roots: [{ uri: "file:///agent" }] }],
      ]);
    });

    it("the handler's time is not the server's: a handler slower than the call's timeout still answers it", async () => {
      await using mock = await mockMcp({ transport: "memory", tools: { trip } });
      await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation, capabilities: { elicitation: {}, roots: {} } });
      const slowly = async (method: string) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        return method === "roots/list" ? { roots: [] } : { action: "accept", content: { city: "Lima" } };
      };
      const result = await app.callTool("trip", {}, { timeoutMs: 150, onServerRequest: slowly });
      expect(result.getTextContent()).toBe("accept:Lima:");
    });

    it("the call's timeout starts again once the handler has answered", async () => {
      const stalls = async (call: ToolCallContext) => {
        await call.elicit(question);
        // Longer than the timeout; ended early when the driver gives up and cancels.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          call.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
        return { returns: "late" };
      };
      await using mock = await mockMcp({ transport: "memory", tools: { stalls } });
      await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation, capabilities: { elicitation: {} } });
      const failure = await app.callTool("stalls", {}, { timeoutMs: 150, onServerRequest: () => ({ action: "accept", content: {} }) }).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toContain("got no response within 150 ms");
    });
  });
}

describe("onServerRequest's answers and errors", () => {
  it("an answer of the wrong shape reaches the server as an error naming onServerRequest", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { trip } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const failure = await app.callTool("trip", {}, { onServerRequest: () => ({ accepted: true }) }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(mock.calls[0]!.exchanges[0]!.error?.message).toContain('The call\'s onServerRequest answered elicitation/create with {"accepted":true}; expected { action:');
  });

  it("a thrown error answers the server's request with it", async () => {
    await using mock = await mockMcp({
      transport: "memory",
      tools: {
        ask: async (call) => ({
          returns: await call.elicit(question).then(
            () => "answered",
            (error: Error) => error.message,
          ),
        }),
      },
    });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const result = await app.callTool(
      "ask",
      {},
      {
        onServerRequest: () => {
          throw new Error("the agent has no screen");
        },
      },
    );
    expect(result.getTextContent()).toContain("the agent has no screen");
  });

  it("legacy era: with two calls in flight that have handlers, a server request is refused, saying why", async () => {
    // Both calls ask once both have started, and stay open until both asks were answered: both asks come while both calls are in flight.
    const { asks: slow } = twoInFlight();
    await using mock = await mockMcp({ transport: "memory", tools: { slow } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {} } });
    const answer = () => ({ action: "accept", content: {} });
    const [a, b] = await Promise.all([app.callTool("slow", {}, { onServerRequest: answer }), app.callTool("slow", {}, { onServerRequest: answer })]);
    for (const text of [a.getTextContent(), b.getTextContent()]) {
      expect(text).toContain('while 2 requests were in flight (tools/call "slow", tools/call "slow"), 2 of them with their own onServerRequest');
    }
    // One at a time, each is its call's.
    await using lone = await mockMcp({ transport: "memory", tools: { trip } });
    await using single = mcpAttach(await lone.connectInMemory(), { versionNegotiation: "legacy", capabilities: { elicitation: {}, roots: {} } });
    const each = (method: string) => (method === "roots/list" ? { roots: [] } : { action: "accept", content: { city: "Rome" } });
    expect((await single.callTool("trip", {}, { onServerRequest: each })).getTextContent()).toBe("accept:Rome:");
  });

  it("legacy era: beside another call in flight without a handler, a server request is refused, not given to the wrong call", async () => {
    const { asks, waits } = twoInFlight();
    await using mock = await mockMcp({ transport: "memory", tools: { asks, waits } });
    // The driver's own handler declines: the call with a handler must not answer for "asks".
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", onElicitation: () => ({ action: "decline" }) });
    const seen: string[] = [];
    const [waited, asked2] = await Promise.all([app.callTool("waits", {}, { onServerRequest: (method) => (seen.push(method), { action: "accept", content: {} }) }), app.callTool("asks")]);
    expect(waited.getTextContent()).toBe("waited");
    expect(seen).toEqual([]);
    expect(asked2.getTextContent()).toContain('while 2 requests were in flight (tools/call "waits", tools/call "asks"), 1 of them with their own onServerRequest');
  });

  it("2026-07-28: a thrown error fails the call (an input response cannot be an error)", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { trip } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: { pin: MODERN }, capabilities: { elicitation: {}, roots: {} } });
    const failure = await app
      .callTool(
        "trip",
        {},
        {
          onServerRequest: () => {
            throw new Error("the agent has no screen");
          },
        },
      )
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("could not answer the server's input request");
    expect((failure as Error).message).toContain("the agent has no screen");
    // The retry was never sent: the call waits on input, it did not get an answer.
    expect(mock.calls[0]!.outcome).not.toBe("result");
  });

  it("roots declared through capabilities alone: roots/list outside a call with a handler is refused saying what to pass", async () => {
    const lists = async (call: ToolCallContext) => ({
      returns: await call.listRoots().then(
        (roots) => roots.length.toString(),
        (error: Error) => error.message,
      ),
    });
    await using mock = await mockMcp({ transport: "memory", tools: { lists } });
    await using app = mcpAttach(await mock.connectInMemory(), { versionNegotiation: "legacy", capabilities: { roots: {} } });
    const text = (await app.callTool("lists")).getTextContent();
    expect(text).toContain("declares the roots capability (capabilities.roots) but was given no roots to list");
    expect(text).not.toContain("declared no roots capability");
    expect((await app.callTool("lists", {}, { onServerRequest: () => ({ roots: [{ uri: "file:///a" }] }) })).getTextContent()).toBe("1");
  });

  it("a handler that is not a function is refused when the call is made", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { trip } });
    await using app = mcpAttach(await mock.connectInMemory());
    await expect(app.callTool("trip", {}, { onServerRequest: "yes" as never })).rejects.toThrow(McpTestkitError);
    await expect(app.callTool("trip", {}, { onServerRequest: "yes" as never })).rejects.toThrow(/onServerRequest/);
  });
});
