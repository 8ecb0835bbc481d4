/** The mcpFakes format: result shapes, entry ids, and load errors that teach. */
import { describe, expect, it } from "vitest";
import { createFakes, FixtureLoadError, McpFakesAddError, type FakeAnswer } from "../../src/fakes/index.js";

const call = (fakes: ReturnType<typeof createFakes>, tool: string, args: Record<string, unknown> = {}, testId: string | null = "t"): FakeAnswer =>
  fakes.answer({ tool, arguments: args, identity: { testId } });

function loadError(value: unknown): McpFakesAddError | FixtureLoadError {
  try {
    createFakes().load(value);
  } catch (error) {
    if (error instanceof FixtureLoadError) return error;
    throw error;
  }
  throw new Error("expected the load to fail");
}

const problemsOf = (error: FixtureLoadError) => (error instanceof McpFakesAddError ? error.errors : [error]).map((e) => e.toJSON());

describe("result shapes", () => {
  const fakes = createFakes();
  fakes.load({
    scope: { testId: "t" },
    tools: [
      {
        name: "shapes",
        calls: [
          { args: { n: 1 }, result: "TICKET-42" },
          {
            args: { n: 2 },
            result: [
              { type: "text", text: "a" },
              { type: "image", data: "AA==", mimeType: "image/png" },
            ],
          },
          { args: { n: 3 }, result: { content: [{ type: "text", text: "full" }], isError: true, _meta: { k: 1 } } },
          { args: { n: 4 }, result: { tempF: 60, conditions: "rain" } },
          { args: { n: 5 }, error: "upstream timeout" },
        ],
      },
    ],
  });
  const result = (n: number) => {
    const answer = call(fakes, "shapes", { n });
    if (answer.kind !== "answer") throw new Error(JSON.stringify(answer));
    return answer.result;
  };

  it("a string becomes one text block", () => {
    expect(result(1)).toEqual({ content: [{ type: "text", text: "TICKET-42" }], isError: false });
  });
  it("an array is the content", () => {
    expect(result(2).content).toHaveLength(2);
  });
  it("an object with content is the full result, as is", () => {
    expect(result(3)).toEqual({ content: [{ type: "text", text: "full" }], isError: true, _meta: { k: 1 } });
  });
  it("any other object is structuredContent plus its JSON text", () => {
    expect(result(4)).toEqual({ content: [{ type: "text", text: '{"tempF":60,"conditions":"rain"}' }], structuredContent: { tempF: 60, conditions: "rain" }, isError: false });
  });
  it("error is a tool error the model sees", () => {
    expect(result(5)).toEqual({ content: [{ type: "text", text: "upstream timeout" }], isError: true });
  });
});

describe("entry ids", () => {
  it("code blocks are code#n, numbered per mount from 1, with [i] in the array form", () => {
    const fakes = createFakes();
    fakes.load({
      scope: "shared",
      tools: [
        {
          name: "a",
          calls: [
            { anyArgs: true, result: "1" },
            { id: "named", anyArgs: true, result: "2" },
          ],
        },
      ],
    });
    fakes.load([
      { scope: "shared", tools: [{ name: "b", calls: [{ anyArgs: true, result: "x" }] }] },
      { scope: "shared", mount: "/other", tools: [{ name: "c", calls: [{ anyArgs: true, result: "y" }] }] },
    ]);
    const ids = fakes.inspect().mounts.map((m) => [m.mount, m.blocks.flatMap((b) => b.tools.flatMap((t) => t.entries.map((e) => e.id)))]);
    expect(ids).toEqual([
      ["/mcp", ["code#1:a#0", "code#1:named", "code#2[0]:b#0"]],
      ["/other", ["code#1[1]:c#0"]],
    ]);
  });

  it("an entry id already used on the mount fails the load and adds nothing", () => {
    const fakes = createFakes();
    const block = (mount: string) => ({
      scope: "shared",
      mount,
      tools: [
        {
          name: "a",
          calls: [
            { id: "x", anyArgs: true, result: "1" },
            { id: "x", anyArgs: true, result: "2" },
          ],
        },
      ],
    });
    const error = (() => {
      try {
        fakes.load([{ scope: "shared", mount: "/fine", tools: [{ name: "ok", calls: [{ anyArgs: true, result: "1" }] }] }, block("/mcp")]);
      } catch (e) {
        return e as FixtureLoadError;
      }
    })();
    expect(error).toBeInstanceOf(FixtureLoadError);
    expect(error!.rule).toBe("mcp-fakes/duplicate-id");
    expect(error!.entryId).toBe("code#1[1]:x");
    expect(error!.message).toContain("is used twice in this load on mount /mcp");
    // All or nothing across mounts: the good block on /fine was not added either.
    expect(fakes.inspect().mounts).toEqual([]);
  });
});

describe("load errors", () => {
  it("a block with no scope fails, saying why scope is required", () => {
    const error = loadError({ tools: [] });
    expect(error.rule).toBe("mcp-fakes/bad-scope");
    expect(error.message).toContain("scope: is missing; every block needs a scope");
  });

  it("an unknown key gets a did-you-mean and the list of known keys", () => {
    const error = loadError({ scope: { testId: "t" }, undeclaredTool: "deny", tools: [] });
    expect(problemsOf(error)).toEqual([
      {
        name: "FixtureLoadError",
        rule: "mcp-fakes/unknown-key",
        file: null,
        blockId: "code#1",
        entryId: null,
        message: 'code, block (code#1): unknown key "undeclaredTool"; did you mean "undeclaredTools"? A block has: scope, mount, undeclaredTools, tools, resources, prompts',
      },
    ]);
  });

  it("misspelled call and scope keys are named with their path and entry id", () => {
    const error = loadError({ scope: { testid: "t" }, tools: [{ name: "a", calls: [{ arg: {}, result: "x" }] }] });
    const problems = problemsOf(error);
    expect(problems.map((p) => [p.rule, p.entryId])).toEqual([
      ["mcp-fakes/unknown-key", null],
      ["mcp-fakes/bad-scope", null],
      ["mcp-fakes/unknown-key", "code#1:a#0"],
      ["mcp-fakes/bad-entry", "code#1:a#0"],
    ]);
    expect(problems[0].message).toContain('scope: unknown key "testid"; did you mean "testId"?');
    expect(problems[2].message).toContain('tools[0].calls[0]: unknown key "arg"; did you mean "args"?');
    expect(problems[3].message).toContain('has neither "args" nor "anyArgs" nor "argsMatch"; expected exactly one of them');
  });

  it.each([
    [{ anyArgs: true, args: {}, result: "x" }, 'has both "args" and "anyArgs"'],
    [{ anyArgs: true }, 'has neither "result" nor "error"'],
    [{ anyArgs: true, result: "x", error: "y" }, 'has both "result" and "error"'],
    [{ anyArgs: false, result: "x" }, 'anyArgs: expected true ("anyArgs": true matches any arguments)'],
    [{ args: [1], result: "x" }, "args: expected an object of argument values"],
    [{ anyArgs: true, result: 42 }, "result: expected a string, an array of content blocks or an object, received number"],
    [{ anyArgs: true, result: [{ text: "no type" }] }, 'result[0]: expected a content block, an object with a string "type"'],
    [{ anyArgs: true, result: { content: "x" } }, "result.content: a full result needs a content array"],
    [{ anyArgs: true, result: { content: [], extra: 1 } }, 'may have no other keys, found "extra"'],
    [{ anyArgs: true, result: { content: [], isError: "yes" } }, "result.isError: expected true or false"],
    [{ anyArgs: true, result: { content: [], _meta: [] } }, "result._meta: expected an object"],
    [{ anyArgs: true, error: { text: "x" } }, "error: expected a string: the text of the tool error the model sees"],
    [{ id: "", anyArgs: true, result: "x" }, "id: expected a string naming the entry, not an empty string"],
  ])("a malformed entry %j fails with a message that says what was expected", (entry, expected) => {
    const error = loadError({ scope: "shared", tools: [{ name: "a", calls: [entry] }] });
    expect(
      problemsOf(error)
        .map((p) => p.message)
        .join("\n"),
    ).toContain(expected);
    expect(problemsOf(error)[0].rule).toBe("mcp-fakes/bad-entry");
  });

  it.each([
    [{ scope: "shared", undeclaredTools: "deny", tools: [] }, "mcp-fakes/shared-deny", 'cannot be "deny" in a "shared" block'],
    [{ scope: "everyone", tools: [] }, "mcp-fakes/bad-scope", 'expected "shared" or an object'],
    [{ scope: { testId: "" }, tools: [] }, "mcp-fakes/bad-scope", "scope.testId: expected a non-empty string"],
    [
      {
        scope: "shared",
        tools: [
          { name: "a", calls: [{ anyArgs: true, result: "1" }] },
          { name: "a", calls: [{ anyArgs: true, result: "2" }] },
        ],
      },
      "mcp-fakes/duplicate-tool",
      '"a" is declared twice in this block',
    ],
    [{ scope: "shared", mount: "mcp", tools: [] }, "mcp-fakes/bad-block", 'mount: expected a path starting with "/"'],
    [{ scope: "shared", tools: [{ name: "a", calls: [] }] }, "mcp-fakes/bad-block", "calls: expected at least one call"],
    [{ scope: "shared", tools: [{ name: "a", calls: [{ anyArgs: true, result: "1" }], inputschema: {} }] }, "mcp-fakes/unknown-key", 'did you mean "inputSchema"?'],
    [{ scope: "shared" }, "mcp-fakes/bad-block", 'has none of "tools", "resources" and "prompts"; a block fakes at least one of them'],
    [{ scope: "shared", tools: {} }, "mcp-fakes/bad-block", "tools: expected an array of tools"],
    ["not a block", "mcp-fakes/bad-block", "expected a block object with scope and tools, received string"],
    [[], "mcp-fakes/bad-block", "mcpFakes is an empty array"],
  ])("a malformed block %j fails with rule %s", (block, rule, expected) => {
    const error = loadError(block);
    expect(error.rule).toBe(rule);
    expect(error.message).toContain(expected);
  });

  it("several problems throw one McpFakesAddError listing each, numbered", () => {
    const error = loadError([{ scope: "shared", undeclaredTools: "deny", tools: [] }, { tools: [] }]);
    expect(error).toBeInstanceOf(McpFakesAddError);
    expect(error.message).toMatch(/^\[mcp-testkit\] 2 problems in MCP fakes; nothing was added:\n {2}1\. code, block 0 \(code#1\[0\]\): undeclaredTools/);
    expect((error as McpFakesAddError).errors.map((e) => e.blockId)).toEqual(["code#1[0]", "code#1[1]"]);
  });

  it("an args entry after an anyArgs entry loads with a shadowed-entry warning", () => {
    const lines: string[] = [];
    const fakes = createFakes({ logger: (level, line) => lines.push(`${level} ${line}`) });
    const { warnings } = fakes.load({
      scope: "shared",
      tools: [
        {
          name: "t",
          calls: [
            { anyArgs: true, result: "any" },
            { args: { a: 1 }, result: "exact" },
          ],
        },
      ],
    });
    expect(warnings).toEqual([{ file: null, blockId: "code#1", entryId: "code#1:t#1", message: expect.stringContaining("code#1:t#1 is shadowed: an args entry after the anyArgs entry code#1:t#0") }]);
    expect(lines).toEqual([expect.stringMatching(/^warn MCP-FAKE: warning: code#1:t#1 is shadowed/)]);
  });
});
