/** The document's three error bodies, byte for byte (with our key and prefix), and the other failures. */
import { describe, expect, it } from "vitest";
import { createFakes, MCP_FAKE_ERROR_CODES, type FakeAnswer } from "../../src/fakes/index.js";
import { retryBlock } from "./retry-block.js";

/** The JSON-RPC response a wire sends for a fake error. */
function body(id: number, answer: FakeAnswer): unknown {
  if (answer.kind !== "error") throw new Error(`expected an error, got ${JSON.stringify(answer)}`);
  return JSON.parse(JSON.stringify({ jsonrpc: "2.0", id, error: answer.jsonRpcError }));
}

/** The document's body with our data key and message prefix. */
const ours = (document: string): unknown => JSON.parse(document.replaceAll('"aimock"', '"mcpTestkit"').replaceAll("aimock MCP fake", "mcp-testkit MCP fake"));

const seattle = { scope: { testId: "weather › seattle" }, tools: [{ name: "get_weather", calls: [{ args: { city: "Seattle" }, result: { tempF: 60, conditions: "rain" } }] }] };
const retry = retryBlock;
const readOnly = { scope: { testId: "account › read only" }, undeclaredTools: "deny", tools: [{ name: "get_account", calls: [{ args: { id: "u1" }, result: '{"plan":"pro"}' }] }] };

describe("aimock's error bodies", () => {
  it("mismatch: get_weather with {city: seattle}", () => {
    const fakes = createFakes();
    fakes.store.add([{ kind: "file", file: "weather/seattle.json", value: seattle }]);
    const answer = fakes.answer({ tool: "get_weather", arguments: { city: "seattle" }, identity: { testId: "weather › seattle" } });
    expect(body(1, answer)).toEqual(
      ours(`{
  "jsonrpc": "2.0",
  "id": 1,
  "error": {
    "code": -32602,
    "message": "aimock MCP fake mismatch: tool \\"get_weather\\" was called with arguments that match no declared fake (testId \\"weather › seattle\\"). Received {\\"city\\":\\"seattle\\"}. Declared: weather/seattle.json:get_weather#0 {\\"city\\":\\"Seattle\\"}.",
    "data": {
      "aimock": {
        "code": "MCP_FAKE_MISMATCH",
        "tool": "get_weather",
        "testId": "weather › seattle",
        "context": null,
        "mount": "/mcp",
        "received": { "city": "seattle" },
        "declared": [{ "id": "weather/seattle.json:get_weather#0", "args": { "city": "Seattle" }, "consumed": false }],
        "firstDifference": "$.city: expected \\"Seattle\\", received \\"seattle\\""
      }
    }
  }
}`),
    );
  });

  it("exhausted: the third create_ticket call", () => {
    const fakes = createFakes();
    fakes.store.add([{ kind: "file", file: "tickets/retry.json", value: retry }]);
    const who = { testId: "tickets › retry on timeout" };
    fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who });
    fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who });
    expect(body(3, fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who }))).toEqual(
      ours(`{
  "jsonrpc": "2.0",
  "id": 3,
  "error": {
    "code": -31010,
    "message": "aimock MCP fake exhausted: tool \\"create_ticket\\" with {\\"title\\":\\"Refund\\"} was called again, but all 2 matching fakes are already used (testId \\"tickets › retry on timeout\\").",
    "data": {
      "aimock": {
        "code": "MCP_FAKE_EXHAUSTED",
        "tool": "create_ticket",
        "testId": "tickets › retry on timeout",
        "context": null,
        "mount": "/mcp",
        "received": { "title": "Refund" },
        "matchingDeclared": 2,
        "matchingConsumed": 2,
        "matchingIds": ["tickets/retry.json:first-try", "tickets/retry.json:retry"]
      }
    }
  }
}`),
    );
  });

  it("not declared: delete_account under deny", () => {
    const fakes = createFakes();
    fakes.store.add([{ kind: "file", file: "account/read-only.json", value: readOnly }]);
    const who = { testId: "account › read only" };
    expect(fakes.answer({ tool: "get_account", arguments: { id: "u1" }, identity: who })).toMatchObject({ kind: "answer", result: { content: [{ text: '{"plan":"pro"}' }] } });
    expect(body(2, fakes.answer({ tool: "delete_account", arguments: { id: "u1" }, identity: who }))).toEqual(
      ours(`{
  "jsonrpc": "2.0",
  "id": 2,
  "error": {
    "code": -32602,
    "message": "Unknown tool: delete_account (aimock MCP fake not declared: this scenario denies undeclared tools; testId \\"account › read only\\").",
    "data": {
      "aimock": {
        "code": "MCP_FAKE_NOT_DECLARED",
        "tool": "delete_account",
        "testId": "account › read only",
        "context": null,
        "mount": "/mcp",
        "declaredTools": ["get_account"]
      }
    }
  }
}`),
    );
  });
});

describe("the other failures", () => {
  it("pins the JSON-RPC codes", () => {
    expect(MCP_FAKE_ERROR_CODES).toEqual({ MCP_FAKE_NOT_DECLARED: -32602, MCP_FAKE_MISMATCH: -32602, MCP_FAKE_EXHAUSTED: -31010, MCP_FAKE_EVICTED: -31011 });
  });

  it("a mismatch lists every declared entry, anyArgs and used ones included, and the path to the first difference of the closest", () => {
    const fakes = createFakes();
    fakes.load({
      scope: { testId: "t", context: "c" },
      tools: [
        {
          name: "search",
          calls: [
            { args: { q: "a", filters: { repo: "x", tags: [1, 2] } }, result: "1" },
            { args: { q: "b", filters: { repo: "y", tags: [1, 3] } }, result: "2" },
            { args: { q: "z" }, result: "3" },
          ],
        },
      ],
    });
    const who = { testId: "t", context: "c" };
    fakes.answer({ tool: "search", arguments: { q: "z" }, identity: who });
    const answer = fakes.answer({ tool: "search", arguments: { q: "b", filters: { repo: "y", tags: [1, "3"] } }, identity: who });
    if (answer.kind !== "error") throw new Error("expected an error");
    const data = answer.jsonRpcError.data.mcpTestkit;
    expect(data.firstDifference).toBe('$.filters.tags[1]: expected 3, received "3"');
    expect(data.declared).toEqual([
      { id: "code#1:search#0", args: { q: "a", filters: { repo: "x", tags: [1, 2] } }, consumed: false },
      { id: "code#1:search#1", args: { q: "b", filters: { repo: "y", tags: [1, 3] } }, consumed: false },
      { id: "code#1:search#2", args: { q: "z" }, consumed: true },
    ]);
    expect(answer.jsonRpcError.message).toContain('(testId "t", context "c")');
    expect(answer.jsonRpcError.message).toContain('code#1:search#2 {"q":"z"} (used).');
  });

  it.each([
    [{ a: 1, extra: true }, "$.extra: not declared, received true"],
    [{}, "$.a: expected 1, received nothing"],
    [{ a: [1] }, "$.a: expected 1, received [1]"],
  ])("the first difference of %j names the path", (args, difference) => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", tools: [{ name: "t", calls: [{ args: { a: 1 }, result: "x" }] }] });
    const answer = fakes.answer({ tool: "t", arguments: args });
    expect(answer.kind === "error" && answer.jsonRpcError.data.mcpTestkit.firstDifference).toBe(difference);
  });

  it("a message cuts huge arguments, and lists at most ten declared entries", () => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", tools: [{ name: "t", calls: Array.from({ length: 12 }, (_, i) => ({ args: { i }, result: "x" })) }] });
    const answer = fakes.answer({ tool: "t", arguments: { big: "x".repeat(10_000) } });
    if (answer.kind !== "error") throw new Error("expected an error");
    expect(answer.jsonRpcError.message.length).toBeLessThan(1_200);
    expect(answer.jsonRpcError.message).toContain("… (10010 characters)");
    expect(answer.jsonRpcError.message).toContain(", and 2 more.");
    expect(answer.jsonRpcError.message).toContain("(no test id or context)");
  });

  it("a result or step given in code that JSON cannot carry (a BigInt, a cycle) is refused at load, naming the entry", () => {
    const cyclic: Record<string, unknown> = { content: [{ type: "text", text: "x" }] };
    cyclic.structuredContent = { self: cyclic };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ args: {}, result: { total: 10n } }, /tools\[0\]\.calls\[0\]\.result: cannot be sent as JSON \(a BigInt at \.total\)/],
      [{ args: {}, result: cyclic }, /tools\[0\]\.calls\[0\]\.result: cannot be sent as JSON \(a cycle: \.structuredContent\.self refers back to an object that contains it\)/],
      [{ args: {}, step: { returns: { n: 1n } } }, /tools\[0\]\.calls\[0\]\.step: cannot be sent as JSON \(a BigInt at \.returns\.n\)/],
    ];
    for (const [call, message] of cases) {
      const fakes = createFakes();
      expect(() => fakes.load({ scope: "shared", tools: [{ name: "t", calls: [call] }] })).toThrow(message);
      expect(fakes.inspect().mounts).toEqual([]);
    }
  });

  it("an error while answering is MCP_FAKE_INTERNAL_ERROR (-32603): logged and counted, journaled with response.error only", () => {
    const lines: string[] = [];
    const fakes = createFakes({ logger: (_level, line) => lines.push(line) });
    fakes.load({ scope: "shared", tools: [{ name: "t", calls: [{ args: { a: 1 }, result: "x" }] }] });
    // A BigInt cannot be written as JSON, so the mismatch message cannot be built.
    const answer = fakes.answer({ tool: "t", arguments: { a: 1n } });
    expect(answer).toMatchObject({
      kind: "error",
      code: "MCP_FAKE_INTERNAL_ERROR",
      jsonRpcError: { code: -32603, data: { mcpTestkit: { code: "MCP_FAKE_INTERNAL_ERROR", tool: "t", testId: null, context: null, mount: "/mcp", error: expect.stringContaining("BigInt") } } },
    });
    expect(lines).toEqual([expect.stringMatching(/^MCP-FAKE: mcp-testkit MCP fake internal error: tool "t"/)]);
    expect(fakes.failureCounts().MCP_FAKE_INTERNAL_ERROR).toBe(1);
    const [entry] = fakes.journal.entries();
    expect(entry.response.mcpFake).toBeUndefined();
    expect(entry.response.error?.code).toBe(-32603);
  });
});
