/** Matching, levels, the closed world, consumption state, eviction and reset. */
import { describe, expect, it } from "vitest";
import { createFakes, type FakeAnswer, type FakeIdentity } from "../../src/fakes/index.js";

/** The first text of an answer, or the failure code, so a sequence of calls reads as one list. */
const outcome = (answer: FakeAnswer): string => {
  if (answer.kind === "answer") return String(answer.result.content[0].text);
  return answer.kind === "error" ? answer.code : "pass";
};

describe("argument matching", () => {
  const fakes = createFakes();
  fakes.load({
    scope: "shared",
    tools: [
      {
        name: "t",
        calls: [
          { args: { a: 1, b: { c: [1, 2] } }, result: "object" },
          { args: { n: 1 }, result: "number" },
          { args: { list: [1, 2] }, result: "list" },
          { args: {}, result: "none" },
        ],
      },
    ],
  });
  const call = (args?: Record<string, unknown>) => outcome(fakes.answer({ tool: "t", ...(args && { arguments: args }) }));
  it("ignores object key order", () => expect(call({ b: { c: [1, 2] }, a: 1 })).toBe("object"));
  it("never converts types", () => expect(call({ n: "1" })).toBe("MCP_FAKE_MISMATCH"));
  it("keeps array order", () => expect(call({ list: [2, 1] })).toBe("MCP_FAKE_MISMATCH"));
  it("treats missing arguments as {}", () => expect(call()).toBe("none"));
  it("takes an argument declared as undefined in code for an absent one (no client can send undefined)", () => {
    const coded = createFakes();
    coded.load({ scope: "shared", tools: [{ name: "t", calls: [{ args: { a: 1, b: undefined }, result: "matched" }] }] });
    expect(outcome(coded.answer({ tool: "t", arguments: { a: 1 } }))).toBe("matched");
  });
});

describe("order of entries", () => {
  it("uses entries for the same arguments in declared order; other arguments find their own entry whatever the call order", () => {
    const fakes = createFakes();
    fakes.load({
      scope: "shared",
      tools: [
        {
          name: "get",
          calls: [
            { args: { city: "A" }, result: "A1" },
            { args: { city: "B" }, result: "B1" },
            { args: { city: "A" }, result: "A2" },
            { anyArgs: true, result: "any" },
          ],
        },
      ],
    });
    const get = (city: string) => outcome(fakes.answer({ tool: "get", arguments: { city } }));
    expect([get("B"), get("A"), get("A"), get("B"), get("A")]).toEqual(["B1", "A1", "A2", "any", "MCP_FAKE_EXHAUSTED"]);
  });

  it("the document's context example: any arguments, two answers, then exhausted; without the context, pass", () => {
    const fakes = createFakes();
    fakes.load({
      scope: { context: "docs-search" },
      tools: [
        {
          name: "search_docs",
          calls: [
            { anyArgs: true, result: [{ type: "text", text: "Doc A: refunds take 5 days" }] },
            { anyArgs: true, result: [{ type: "text", text: "Doc B: contact support" }] },
          ],
        },
      ],
    });
    const search = (identity: FakeIdentity, query: string) => outcome(fakes.answer({ tool: "search_docs", arguments: { query }, identity }));
    const docs = { testId: "any test", context: "docs-search" };
    expect([search(docs, "refund"), search(docs, "other"), search(docs, "x")]).toEqual(["Doc A: refunds take 5 days", "Doc B: contact support", "MCP_FAKE_EXHAUSTED"]);
    // A request with only the context uses the one default state, apart from the test id's.
    expect(search({ context: "docs-search" }, "q")).toBe("Doc A: refunds take 5 days");
    expect(search({}, "q")).toBe("pass");
  });
});

describe("levels", () => {
  const fakes = createFakes();
  const one = (scope: unknown, result: string, tool = "get_weather") => ({
    scope,
    tools: [
      {
        name: tool,
        calls: [
          { anyArgs: true, result },
          { anyArgs: true, result: `${result} again` },
        ],
      },
    ],
  });
  fakes.load([one("shared", "shared"), one({ context: "ctx" }, "context"), one({ testId: "T" }, "testId"), one({ testId: "T", context: "ctx" }, "both"), one("shared", "shared only", "ping")]);
  const get = (identity: FakeIdentity, tool = "get_weather") => outcome(fakes.answer({ tool, identity }));

  it("the most specific level that declares the tool wins: test id and context, test id, context, shared", () => {
    expect(get({ testId: "T", context: "ctx" })).toBe("both");
    expect(get({ testId: "T" })).toBe("testId");
    expect(get({ testId: "other", context: "ctx" })).toBe("context");
    expect(get({ testId: "nobody" })).toBe("shared");
    expect(get({})).toBe("shared");
  });

  it("scopes match exactly, case-sensitive", () => {
    expect(get({ testId: "t" })).toBe("shared");
  });

  it("a tool declared only at a lower level is still answered there", () => {
    expect(get({ testId: "T", context: "ctx" }, "ping")).toBe("shared only");
  });

  it("tools/list shows the tools of the request's blocks, with { type: object } when no schema is given", () => {
    const withSchema = createFakes();
    withSchema.load({
      scope: { testId: "T" },
      tools: [
        { name: "a", description: "A tool", inputSchema: { type: "object", properties: { q: { type: "string" } } }, calls: [{ anyArgs: true, result: "x" }] },
        { name: "b", calls: [{ anyArgs: true, result: "y" }] },
      ],
    });
    expect(withSchema.listTools({ identity: { testId: "T" } })).toEqual([
      { name: "a", description: "A tool", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
      { name: "b", inputSchema: { type: "object" } },
    ]);
    expect(withSchema.listTools({ identity: { testId: "other" } })).toEqual([]);
    expect(withSchema.listTools({ mount: "/elsewhere" })).toEqual([]);
  });
});

describe("closed world", () => {
  const fakes = createFakes();
  fakes.load([
    { scope: { testId: "closed" }, undeclaredTools: "deny", tools: [{ name: "get_account", calls: [{ anyArgs: true, result: "pro" }] }] },
    { scope: { context: "closed-ctx" }, undeclaredTools: "deny", tools: [] },
    { scope: "shared", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "pong" }] }] },
  ]);
  const call = (tool: string, identity: FakeIdentity) => outcome(fakes.answer({ tool, identity }));

  it("under deny an undeclared tool fails, while declared tools (shared ones included) answer", () => {
    expect(call("delete_account", { testId: "closed" })).toBe("MCP_FAKE_NOT_DECLARED");
    expect(call("get_account", { testId: "closed" })).toBe("pro");
    expect(call("ping", { testId: "closed" })).toBe("pong");
  });

  it("declaredTools lists every tool of the request's blocks", () => {
    const answer = fakes.answer({ tool: "x", identity: { testId: "closed" } });
    expect(answer.kind === "error" && answer.jsonRpcError.data.mcpTestkit.declaredTools).toEqual(["get_account", "ping"]);
  });

  it("a context-only block closes the world for every test that sends the context", () => {
    expect(call("anything", { testId: "any", context: "closed-ctx" })).toBe("MCP_FAKE_NOT_DECLARED");
  });

  it("other tests are not closed", () => expect(call("delete_account", { testId: "open" })).toBe("pass"));

  it("the undeclared override turns deny off or on for a request", () => {
    expect(call("delete_account", { testId: "closed", undeclared: "allow" })).toBe("pass");
    expect(call("delete_account", { testId: "open", undeclared: "deny" })).toBe("MCP_FAKE_NOT_DECLARED");
    expect(createFakes().answer({ tool: "x", identity: { undeclared: "deny" } })).toMatchObject({
      kind: "error",
      code: "MCP_FAKE_NOT_DECLARED",
      jsonRpcError: { data: { mcpTestkit: { declaredTools: [] } } },
    });
  });
});

describe("consumption state", () => {
  it("is kept per test id and per mount, so parallel tests never use each other's entries", () => {
    const fakes = createFakes();
    fakes.load([
      { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: "only" }] }] },
      { scope: "shared", mount: "/b", tools: [{ name: "t", calls: [{ anyArgs: true, result: "only b" }] }] },
    ]);
    const ids = Array.from({ length: 200 }, (_, i) => `test ${i}`);
    expect(ids.map((testId) => outcome(fakes.answer({ tool: "t", identity: { testId } })))).toEqual(ids.map(() => "only"));
    expect(outcome(fakes.answer({ tool: "t", identity: { testId: "test 0" }, mount: "/b" }))).toBe("only b");
    expect(outcome(fakes.answer({ tool: "t", identity: { testId: "test 0" } }))).toBe("MCP_FAKE_EXHAUSTED");
  });

  it("reset({ testId }) restarts one test id; reset() restarts all, keeping blocks", () => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: "once" }] }] });
    const call = (testId?: string) => outcome(fakes.answer({ tool: "t", identity: { testId: testId ?? null } }));
    expect([call("A"), call("B"), call()]).toEqual(["once", "once", "once"]);
    fakes.reset({ testId: "A" });
    expect([call("A"), call("B"), call()]).toEqual(["once", "MCP_FAKE_EXHAUSTED", "MCP_FAKE_EXHAUSTED"]);
    fakes.reset();
    expect([call("A"), call("B"), call()]).toEqual(["once", "once", "once"]);
    expect(fakes.journal.entries()).toHaveLength(3);
  });

  it("past the cap, the oldest test id is evicted: its calls fail with MCP_FAKE_EVICTED until it is reset", () => {
    const fakes = createFakes({ fakeTestIdsMax: 2 });
    fakes.load({ scope: "shared", tools: [{ name: "s", calls: [{ anyArgs: true, result: "e0" }] }] });
    const call = (testId: string, tool = "s") => fakes.answer({ tool, identity: { testId } });
    expect(["T1", "T2", "T3"].map((t) => outcome(call(t)))).toEqual(["e0", "e0", "e0"]);
    const evicted = call("T1");
    expect(evicted).toMatchObject({ kind: "error", code: "MCP_FAKE_EVICTED", jsonRpcError: { code: -31011, data: { mcpTestkit: { code: "MCP_FAKE_EVICTED", testId: "T1", cap: 2, mount: "/mcp" } } } });
    expect(evicted.kind === "error" && evicted.jsonRpcError.message).toContain("keeps the state of at most 2 test ids");
    // An undeclared tool is not a fake call: it passes as before.
    expect(call("T1", "other").kind).toBe("pass");
    expect(fakes.inspect({ testId: "T1" }).mounts[0].blocks[0].evicted).toBe(true);
    fakes.reset({ testId: "T1" });
    expect(outcome(call("T1"))).toBe("e0");
  });

  it("rejects a cap that is not a whole number", () => {
    expect(() => createFakes({ fakeTestIdsMax: -1 })).toThrow(/fakeTestIdsMax must be a whole number/);
  });

  it("rejects a journal size that is not a whole number, 0 or more", () => {
    for (const [journalMax, label] of [
      [-1, "number -1"],
      [1.5, "number 1.5"],
      [Number.NaN, "number NaN"],
      ["10", '"10"'],
    ] as const) {
      expect(() => createFakes({ journalMax: journalMax as number })).toThrow(`journalMax must be a whole number ≥ 0, or Infinity to keep every entry, received ${label}`);
    }
    expect(createFakes({ journalMax: 0 }).journal.entries()).toEqual([]);
  });

  it("with cap 0 no test id is ever evicted", () => {
    const fakes = createFakes({ fakeTestIdsMax: 0 });
    fakes.load({ scope: "shared", tools: [{ name: "s", calls: [{ anyArgs: true, result: "e0" }] }] });
    for (let i = 0; i < 1000; i++) fakes.answer({ tool: "s", identity: { testId: `T${i}` } });
    expect(outcome(fakes.answer({ tool: "s", identity: { testId: "T0" } }))).toBe("MCP_FAKE_EXHAUSTED");
  });
});

describe("journal, log and counters", () => {
  it("journals every fake outcome with response.mcpFake, logs each failure with MCP-FAKE:, and counts by code", () => {
    const lines: string[] = [];
    const fakes = createFakes({ logger: (level, line) => lines.push(`${level}: ${line}`) });
    fakes.load({ scope: { testId: "T" }, undeclaredTools: "deny", tools: [{ name: "t", calls: [{ args: { a: 1 }, result: "x" }] }] });
    const who = { testId: "T" };
    const before = Date.now();
    fakes.answer({ tool: "t", arguments: { a: 1 }, identity: who, sessionId: "s1", requestId: 7 });
    const after = Date.now();
    fakes.answer({ tool: "t", arguments: { a: 1 }, identity: who });
    fakes.answer({ tool: "t", arguments: { a: 2 }, identity: who });
    fakes.answer({ tool: "u", identity: who });
    fakes.answer({ tool: "u", identity: { testId: "unscoped" } });
    const entries = fakes.journal.entries();
    expect(entries.map((e) => e.response.mcpFake?.outcome)).toEqual(["answered", "exhausted", "mismatch", "not_declared"]);
    expect(entries[0]).toMatchObject({
      seq: 1,
      service: "mcp",
      mount: "/mcp",
      sessionId: "s1",
      testId: "T",
      context: null,
      method: "tools/call",
      request: { id: 7, params: { name: "t", arguments: { a: 1 } } },
      response: { result: { content: [{ type: "text", text: "x" }] }, mcpFake: { outcome: "answered", entryId: "code#1:t#0" } },
    });
    expect(entries[1].response).toMatchObject({ error: { code: -31010 }, mcpFake: { outcome: "exhausted", code: "MCP_FAKE_EXHAUSTED" } });
    // Each entry's time is the ISO text of the millisecond it was journaled in.
    const time = Date.parse(entries[0]!.time);
    expect(new Date(time).toISOString()).toBe(entries[0]!.time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
    expect(lines).toEqual([
      expect.stringMatching(/^error: MCP-FAKE: mcp-testkit MCP fake exhausted: /),
      expect.stringMatching(/^error: MCP-FAKE: mcp-testkit MCP fake mismatch: /),
      expect.stringMatching(/^error: MCP-FAKE: Unknown tool: u \(mcp-testkit MCP fake not declared/),
    ]);
    expect(fakes.failureCounts()).toEqual({ MCP_FAKE_NOT_DECLARED: 1, MCP_FAKE_MISMATCH: 1, MCP_FAKE_EXHAUSTED: 1, MCP_FAKE_EVICTED: 0, MCP_FAKE_INTERNAL_ERROR: 0 });
    expect(fakes.journal.entries({ outcome: "failed" })).toHaveLength(3);
    expect(fakes.journal.entries({ testId: "T", limit: 1, offset: 1 }).map((e) => e.seq)).toEqual([2]);
  });

  it("keeps only the newest journalMax entries", () => {
    const fakes = createFakes({ journalMax: 2 });
    fakes.load({ scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: "x" }] }] });
    for (let i = 0; i < 5; i++) fakes.answer({ tool: "t", identity: { testId: `T${i}` } });
    expect(fakes.journal.entries().map((e) => e.testId)).toEqual(["T3", "T4"]);
    expect(fakes.journal.dropped).toBe(3);
    expect(createFakes({ journalMax: 0 }).journal.record({ mount: "/mcp", sessionId: null, testId: null, context: null, method: "ping", request: {}, response: {} }).seq).toBe(1);
  });

  it("a throwing logger never turns an answer into an error", () => {
    const fakes = createFakes({
      logger: () => {
        throw new Error("broken logger");
      },
    });
    expect(fakes.answer({ tool: "t", identity: { undeclared: "deny" } }).kind).toBe("error");
    fakes.setLogger(undefined);
  });

  it("assertConsumed lists every unused entry of the test's scoped blocks", () => {
    const fakes = createFakes();
    fakes.load([
      {
        scope: { testId: "T" },
        tools: [
          {
            name: "a",
            calls: [
              { anyArgs: true, result: "1" },
              { id: "second", anyArgs: true, result: "2" },
            ],
          },
        ],
      },
      { scope: "shared", tools: [{ name: "s", calls: [{ anyArgs: true, result: "s" }] }] },
    ]);
    fakes.answer({ tool: "a", identity: { testId: "T" } });
    expect(() => fakes.assertConsumed({ testId: "T" })).toThrow('1 declared MCP fake was never used (testId "T"):\n  - code#1[0]:second (/mcp, tool "a")');
    fakes.answer({ tool: "a", identity: { testId: "T" } });
    expect(() => fakes.assertConsumed({ testId: "T" })).not.toThrow();
  });

  it("assertConsumed asks only for the entries a request of the query can reach: a tool's most specific declaring level", () => {
    const fakes = createFakes();
    fakes.load([
      {
        scope: { context: "ctx" },
        tools: [
          { name: "search", calls: [{ id: "ctx-only", anyArgs: true, result: "ctx" }] },
          { name: "lookup", calls: [{ id: "ctx-lookup", anyArgs: true, result: "l" }] },
        ],
      },
      { scope: { testId: "T", context: "ctx" }, tools: [{ name: "search", calls: [{ id: "both", anyArgs: true, result: "T+ctx" }] }] },
    ]);
    expect(fakes.answer({ tool: "search", identity: { testId: "T", context: "ctx" } })).toMatchObject({ kind: "answer", entryId: "code#1[1]:both" });
    // The context's "search" entry is shadowed for this test (its second call is exhausted), so it is not asked for; its "lookup" is.
    expect(fakes.answer({ tool: "search", identity: { testId: "T", context: "ctx" } })).toMatchObject({ kind: "error" });
    expect(() => fakes.assertConsumed({ testId: "T", context: "ctx" })).toThrow('1 declared MCP fake was never used (testId "T", context "ctx"):\n  - code#1[0]:ctx-lookup (/mcp, tool "lookup")');
    fakes.answer({ tool: "lookup", identity: { testId: "T", context: "ctx" } });
    expect(() => fakes.assertConsumed({ testId: "T", context: "ctx" })).not.toThrow();
    // For a query with the context alone, the context's own "search" entry answers, and is asked for.
    expect(() => fakes.assertConsumed({ context: "ctx" })).toThrow("code#1[0]:ctx-only");
  });

  it("assertConsumed fails for a test id, context or mount no scoped block names, instead of passing with nothing checked", () => {
    const fakes = createFakes();
    fakes.load([
      { scope: { testId: "checkout > pays by card" }, tools: [{ name: "a", calls: [{ anyArgs: true, result: "1" }] }] },
      { scope: { context: "eu" }, mount: "/billing", tools: [{ name: "b", calls: [{ anyArgs: true, result: "2" }] }] },
      { scope: { testId: "B", context: "us" }, tools: [{ name: "c", calls: [{ anyArgs: true, result: "3" }] }] },
      { scope: "shared", tools: [{ name: "s", calls: [{ anyArgs: true, result: "s" }] }] },
    ]);
    expect(() => fakes.assertConsumed({ testId: "checkout > pays by crad" })).toThrow(
      'assertConsumed(): no scoped block applies to test id "checkout > pays by crad", so there is nothing to check. No block names test id "checkout > pays by crad"; did you mean "checkout > pays by card"? Test ids the blocks name: "checkout > pays by card", "B".',
    );
    expect(() => fakes.assertConsumed({ context: "eu", mount: "/mcp" })).toThrow(
      'assertConsumed(): no scoped block applies to context "eu" on mount "/mcp", so there is nothing to check. The blocks naming context "eu" are on mount "/billing": ask for that mount, or leave "mount" out for all.',
    );
    // A block scoped to a test id and a context is reached only by a query with both.
    expect(() => fakes.assertConsumed({ testId: "B" })).toThrow(
      'no scoped block applies to test id "B", so there is nothing to check. The blocks naming test id "B" are scoped {"testId":"B","context":"us"}: ask with the same keys.',
    );
    expect(() => fakes.assertConsumed({ testId: "B", context: "us" })).toThrow('1 declared MCP fake was never used (testId "B", context "us")');
    // Both keys reach the blocks of each: the test id's own, and the context's on every mount.
    expect(() => fakes.assertConsumed({ testId: "checkout > pays by card", context: "eu" })).toThrow(
      '2 declared MCP fakes were never used (testId "checkout > pays by card", context "eu"):\n  - code#1[0]:a#0 (/mcp, tool "a")\n  - code#1[1]:b#0 (/billing, tool "b")',
    );
    expect(() => fakes.assertConsumed({})).toThrow("assertConsumed() checks the scoped blocks of a test id or a context, and got neither");
    expect(() => fakes.assertConsumed({ testId: "checkout > pays by card", mount: "/mpc" })).toThrow(
      'no fakes are loaded on mount "/mpc"; did you mean "/mcp"? Mounts with fakes: "/mcp", "/billing".',
    );
    // A known test id is checked as before: its unused entry is named.
    expect(() => fakes.assertConsumed({ testId: "checkout > pays by card" })).toThrow("1 declared MCP fake was never used");
  });

  it("inspect and assertConsumed refuse a query they cannot read, naming its keys", () => {
    const fakes = createFakes();
    fakes.load({ scope: { testId: "T" }, tools: [{ name: "a", calls: [{ anyArgs: true, result: "1" }] }] });
    expect(() => fakes.assertConsumed({ testid: "T" } as never)).toThrow(`assertConsumed()'s query has unknown key "testid"; did you mean "testId"?`);
    expect(() => fakes.inspect({ testId: 7 } as never)).toThrow(`inspect()'s query: "testId" must be a string (or null for none), got number 7.`);
    expect(() => fakes.inspect({ mount: ["/mcp"] } as never)).toThrow(`inspect()'s query: "mount" must be a mount path such as "/mcp", got an array.`);
    expect(() => fakes.assertConsumed("T" as never)).toThrow('assertConsumed() takes a query { testId?, context?, mount? }, got "T".');
    // Inspection of an id with no blocks stays an empty listing (nothing is asserted there).
    expect(fakes.inspect({ testId: "other" }).mounts.flatMap((mount) => mount.blocks)).toEqual([]);
  });
});
