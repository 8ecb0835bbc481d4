/** `argsMatch`: partial matching with $regex and $schema leaves, its precedence, its mismatch messages and its load errors. */
import { describe, expect, it } from "vitest";
import { createFakes, FixtureLoadError, McpFakesAddError, type FakeAnswer } from "../../src/fakes/index.js";

const outcome = (answer: FakeAnswer): string => {
  if (answer.kind === "answer") return String(answer.result.content[0].text);
  return answer.kind === "error" ? answer.code : "pass";
};

function fakesWith(calls: unknown[]) {
  const fakes = createFakes();
  fakes.load({ scope: "shared", tools: [{ name: "search", calls }] });
  return { fakes, call: (args: Record<string, unknown>) => fakes.answer({ tool: "search", arguments: args }) };
}

describe("argsMatch matching", () => {
  it("matches a subset of keys at every depth; extra keys in the call are fine", () => {
    const { call } = fakesWith([{ argsMatch: { q: "refund", filter: { repo: "a" } }, result: "hit" }]);
    expect(outcome(call({ q: "refund", limit: 5, filter: { repo: "a", state: "open" } }))).toBe("hit");
  });

  it("compares other values exactly, with no type conversion, and arrays item by item", () => {
    const { call } = fakesWith([{ argsMatch: { n: 1, tags: ["a", "b"] }, result: "ok" }]);
    expect(outcome(call({ n: "1", tags: ["a", "b"] }))).toBe("MCP_FAKE_MISMATCH");
    expect(outcome(call({ n: 1, tags: ["b", "a"] }))).toBe("MCP_FAKE_MISMATCH");
    expect(outcome(call({ n: 1, tags: ["a", "b"], more: true }))).toBe("ok");
  });

  it("tests strings with $regex and $flags", () => {
    const { call } = fakesWith([
      { argsMatch: { q: { $regex: "^ref(und)?$", $flags: "i" } }, result: "r1" },
      { argsMatch: { q: { $regex: "^ref" } }, result: "r2" },
    ]);
    expect([outcome(call({ q: "REFUND" })), outcome(call({ q: "refx" })), outcome(call({ q: 42 }))]).toEqual(["r1", "r2", "MCP_FAKE_MISMATCH"]);
  });

  it("validates values with $schema (JSON Schema 2020-12)", () => {
    const { call } = fakesWith([
      { argsMatch: { limit: { $schema: { type: "integer", maximum: 10 } } }, result: "small" },
      { anyArgs: true, result: "other" },
    ]);
    expect([outcome(call({ limit: 3 })), outcome(call({ limit: 30 }))]).toEqual(["small", "other"]);
  });

  it("keeps the first-unused-matching-entry rule across args, argsMatch and anyArgs", () => {
    const { call } = fakesWith([
      { args: { q: "a" }, result: "exact" },
      { argsMatch: { q: { $regex: "^a" } }, result: "pattern" },
      { anyArgs: true, result: "any" },
    ]);
    expect([call({ q: "a" }), call({ q: "a" }), call({ q: "a" }), call({ q: "a" })].map(outcome)).toEqual(["exact", "pattern", "any", "MCP_FAKE_EXHAUSTED"]);
  });

  it("names the first difference against the closest pattern, and lists the pattern as declared", () => {
    const { call } = fakesWith([{ id: "p", argsMatch: { q: { $regex: "^ref" }, limit: { $schema: { type: "integer", maximum: 10 } } }, result: "x" }]);
    const answer = call({ q: "refund", limit: 50 });
    if (answer.kind !== "error") throw new Error(`expected a failure, got ${answer.kind}`);
    const data = answer.jsonRpcError.data.mcpTestkit;
    expect(data.firstDifference).toBe('$.limit: expected a value matching the $schema {"type":"integer","maximum":10} (must be <= 10), received 50');
    expect(data.declared).toEqual([{ id: "code#1:p", argsMatch: { q: { $regex: "^ref" }, limit: { $schema: { type: "integer", maximum: 10 } } }, consumed: false }]);
    expect(answer.jsonRpcError.message).toContain('Declared: code#1:p (matching {"q":{"$regex":"^ref"},"limit":{"$schema":{"type":"integer","maximum":10}}}).');
    const regexMiss = call({ q: "nope", limit: 1 });
    expect(regexMiss.kind === "error" && regexMiss.jsonRpcError.data.mcpTestkit.firstDifference).toBe('$.q: expected a string matching /^ref/, received "nope"');
    const missing = call({ limit: 1 });
    expect(missing.kind === "error" && missing.jsonRpcError.data.mcpTestkit.firstDifference).toBe("$.q: expected a string matching /^ref/, received nothing");
  });

  it("shows argsMatch entries in inspection", () => {
    const { fakes } = fakesWith([{ argsMatch: { q: "a" }, result: "x" }]);
    expect(fakes.inspect().mounts[0].blocks[0].tools[0].entries).toEqual([{ id: "code#1:search#0", argsMatch: { q: "a" }, consumed: false }]);
  });

  it("warns when an argsMatch entry comes after an anyArgs entry", () => {
    const { warnings } = createFakes().load({
      scope: "shared",
      tools: [
        {
          name: "t",
          calls: [
            { anyArgs: true, result: "a" },
            { argsMatch: { q: "x" }, result: "b" },
          ],
        },
      ],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      'code#1:t#1 is shadowed: an argsMatch entry after the anyArgs entry code#1:t#0 for tool "t" cannot match until code#1:t#0 is used; put argsMatch entries before anyArgs entries',
    ]);
  });
});

describe("argsMatch load errors", () => {
  function problems(argsMatch: unknown, extra: Record<string, unknown> = {}) {
    try {
      createFakes().load({ scope: "shared", tools: [{ name: "t", calls: [{ argsMatch, result: "x", ...extra }] }] });
    } catch (error) {
      if (error instanceof McpFakesAddError) return error.errors.map((e) => ({ rule: e.rule, entryId: e.entryId, message: e.message }));
      if (error instanceof FixtureLoadError) return [{ rule: error.rule, entryId: error.entryId, message: error.message }];
      throw error;
    }
    throw new Error("expected the load to fail");
  }

  it.each([
    [{ q: { $regex: "(" } }, "mcp-fakes/bad-regex", 'tools[0].calls[0].argsMatch.q: "$regex" "(" is not a valid regular expression: Invalid regular expression: /(/: Unterminated group'],
    [{ q: { $regex: 5 } }, "mcp-fakes/bad-regex", 'argsMatch.q: "$regex" must be a string (a JavaScript regular expression without slashes), received 5'],
    [{ q: { $regex: "a", $flags: "g" } }, "mcp-fakes/bad-regex", '"$flags" must be a string of the flags d, i, m, s, u, v (g and y make a match depend on the one before), received "g"'],
    [{ q: { $regex: "a", other: 1 } }, "mcp-fakes/bad-pattern", 'a { "$regex": … } pattern takes only "$flags" besides, found "other"'],
    [{ q: { $flags: "i" } }, "mcp-fakes/bad-pattern", '"$flags" goes with "$regex", as { "$regex": "^Ref", "$flags": "i" }'],
    [{ q: { $regx: "a" } }, "mcp-fakes/bad-pattern", 'argsMatch.q.$regx: unknown operator "$regx"; did you mean "$regex"? A pattern operator is one of $regex, $flags, $schema'],
    [{ q: { $schema: { typ: "string" } } }, "mcp-fakes/bad-schema", '"$schema" is not a valid JSON Schema (2020-12): strict mode: unknown keyword: "typ"'],
    [{ q: { $schema: { type: "strin" } } }, "mcp-fakes/bad-schema", '"$schema" is not a valid JSON Schema (2020-12): schema is invalid: data/type must be equal to one of the allowed values'],
    [{ q: { $schema: { type: "string", format: "email" } } }, "mcp-fakes/bad-schema", 'unknown format "email" ignored in schema'],
    [{ q: { $schema: "string" } }, "mcp-fakes/bad-schema", '"$schema" must be a JSON Schema (an object, or true/false), received "string"'],
    [{ q: { $schema: {}, x: 1 } }, "mcp-fakes/bad-pattern", 'a { "$schema": … } pattern takes no other keys, found "x"'],
    [["q"], "mcp-fakes/bad-entry", "argsMatch: expected an object of argument patterns"],
  ])("refuses %j with %s", (argsMatch, rule, message) => {
    const [problem] = problems(argsMatch);
    expect(problem.rule).toBe(rule);
    expect(problem.entryId).toBe("code#1:t#0");
    expect(problem.message).toContain(message);
  });

  it("lists every bad pattern of an entry at once", () => {
    expect(problems({ a: { $regex: "(" }, b: { $schema: { typ: 1 } } }).map((p) => p.rule)).toEqual(["mcp-fakes/bad-regex", "mcp-fakes/bad-schema"]);
  });

  it.each([
    [{ args: {} }, 'has both "args" and "argsMatch"'],
    [{ anyArgs: true }, 'has both "anyArgs" and "argsMatch"'],
    [{ args: {}, anyArgs: true }, 'has all of "args", "anyArgs", "argsMatch"; expected exactly one of them'],
  ])("refuses argsMatch beside %j", (extra, message) => {
    const [problem] = problems({ q: "a" }, extra);
    expect(problem.rule).toBe("mcp-fakes/bad-entry");
    expect(problem.message).toContain(message);
  });
});
