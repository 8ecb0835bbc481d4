/** Fakes for resources/read and prompts/get: the format, the result shapes, ids, matching, failures, listing and inspection. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakes, FixtureLoadError, McpFakesAddError, type FakeRequestAnswer } from "../../src/fakes/index.js";

const answerOf = (answer: FakeRequestAnswer): unknown => {
  if (answer.kind === "answer") return answer.answer;
  return answer.kind === "error" ? answer.code : "pass";
};

function problems(block: unknown): Array<{ rule: string; entryId: string | null; message: string }> {
  try {
    createFakes().load(block);
  } catch (error) {
    const all = error instanceof McpFakesAddError ? error.errors : error instanceof FixtureLoadError ? [error] : [];
    if (all.length === 0) throw error;
    return all.map((e) => ({ rule: e.rule, entryId: e.entryId, message: e.message }));
  }
  throw new Error("expected the load to fail");
}

describe("resource fakes", () => {
  it("answer reads in order with each result shape, then fail with MCP_FAKE_EXHAUSTED", () => {
    const fakes = createFakes();
    fakes.load({
      scope: { testId: "t" },
      resources: [
        {
          uri: "file:///a.md",
          mimeType: "text/markdown",
          reads: [
            { result: "# A" },
            { result: { blob: "AAE=", mimeType: "image/png" } },
            { result: [{ text: "one" }, { text: "two", uri: "file:///a.md#2" }] },
            { result: { contents: [{ text: "full" }], _meta: { k: 1 } } },
            { result: { key: "value" } },
            { id: "gone", error: { code: -32002, message: "Resource not found", data: { uri: "file:///a.md" } } },
            { error: "disk on fire" },
          ],
        },
      ],
    });
    const read = () => answerOf(fakes.readResource({ uri: "file:///a.md", identity: { testId: "t" } }));
    const answers = Array.from({ length: 8 }, read);
    expect(answers).toEqual([
      { result: { contents: [{ uri: "file:///a.md", mimeType: "text/markdown", text: "# A" }] } },
      { result: { contents: [{ uri: "file:///a.md", mimeType: "image/png", blob: "AAE=" }] } },
      {
        result: {
          contents: [
            { uri: "file:///a.md", mimeType: "text/markdown", text: "one" },
            { uri: "file:///a.md#2", mimeType: "text/markdown", text: "two" },
          ],
        },
      },
      { result: { contents: [{ uri: "file:///a.md", mimeType: "text/markdown", text: "full" }], _meta: { k: 1 } } },
      { result: { contents: [{ uri: "file:///a.md", mimeType: "application/json", text: '{"key":"value"}' }] } },
      { error: { code: -32002, message: "Resource not found", data: { uri: "file:///a.md" } } },
      { error: { code: -32603, message: "disk on fire" } },
      "MCP_FAKE_EXHAUSTED",
    ]);
  });

  it("name the resource in the exhausted error and journal every read with its entry id", () => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", resources: [{ uri: "file:///b", reads: [{ result: "b" }] }] });
    fakes.readResource({ uri: "file:///b", requestId: 1 });
    const failed = fakes.readResource({ uri: "file:///b", requestId: 2 });
    if (failed.kind !== "error") throw new Error(`expected a failure, got ${failed.kind}`);
    expect(failed.jsonRpcError).toEqual({
      code: -31010,
      message: 'mcp-testkit MCP fake exhausted: resource "file:///b" was read again, but its 1 matching fake is already used (no test id or context).',
      data: {
        mcpTestkit: {
          code: "MCP_FAKE_EXHAUSTED",
          resource: "file:///b",
          testId: null,
          context: null,
          mount: "/mcp",
          matchingDeclared: 1,
          matchingConsumed: 1,
          matchingIds: ["code#1:resource:file:///b#0"],
        },
      },
    });
    expect(fakes.journal.entries({}).map((entry) => [entry.method, entry.request.params, entry.response.mcpFake])).toEqual([
      ["resources/read", { uri: "file:///b" }, { outcome: "answered", entryId: "code#1:resource:file:///b#0" }],
      ["resources/read", { uri: "file:///b" }, { outcome: "exhausted", code: "MCP_FAKE_EXHAUSTED" }],
    ]);
  });

  it("pass reads of undeclared URIs, and of any URI for a request the block is not scoped to", () => {
    const fakes = createFakes();
    fakes.load({ scope: { testId: "t" }, undeclaredTools: "deny", resources: [{ uri: "file:///c", reads: [{ result: "c" }] }] });
    expect(answerOf(fakes.readResource({ uri: "file:///other", identity: { testId: "t" } }))).toBe("pass");
    expect(answerOf(fakes.readResource({ uri: "file:///c", identity: { testId: "u" } }))).toBe("pass");
  });

  it("list the request's resources, named by their URI unless given a name", () => {
    const fakes = createFakes();
    fakes.load({
      scope: { testId: "t" },
      resources: [
        { uri: "file:///d", reads: [{ result: "d" }] },
        { uri: "file:///e", name: "E", description: "e file", mimeType: "text/plain", reads: [{ result: "e" }] },
      ],
    });
    expect(fakes.listResources({ identity: { testId: "t" } })).toEqual([
      { uri: "file:///d", name: "file:///d" },
      { uri: "file:///e", name: "E", description: "e file", mimeType: "text/plain" },
    ]);
    expect(fakes.listResources({ identity: { testId: "other" } })).toEqual([]);
  });
});

describe("prompt fakes", () => {
  const load = () => {
    const fakes = createFakes();
    fakes.load({
      scope: { testId: "t" },
      prompts: [
        {
          name: "summarize",
          description: "Summarize a text",
          arguments: [{ name: "text", required: true }],
          gets: [
            { id: "short", argsMatch: { text: { $regex: "^.{0,10}$" } }, result: "Say it in a word." },
            {
              args: { text: "a long text indeed" },
              result: [
                { role: "user", content: "Summarize:" },
                { role: "assistant", content: { type: "text", text: "OK" } },
              ],
            },
            { anyArgs: true, result: { messages: [{ role: "user", content: "any" }], description: "own description" } },
          ],
        },
      ],
    });
    return { fakes, get: (args: Record<string, unknown>) => fakes.getPrompt({ name: "summarize", arguments: args, identity: { testId: "t" } }) };
  };

  it("answer with the first unused matching entry, with each result shape", () => {
    const { get } = load();
    expect([get({ text: "hi" }), get({ text: "a long text indeed" }), get({ text: "x" })].map(answerOf)).toEqual([
      { result: { description: "Summarize a text", messages: [{ role: "user", content: { type: "text", text: "Say it in a word." } }] } },
      {
        result: {
          description: "Summarize a text",
          messages: [
            { role: "user", content: { type: "text", text: "Summarize:" } },
            { role: "assistant", content: { type: "text", text: "OK" } },
          ],
        },
      },
      { result: { description: "own description", messages: [{ role: "user", content: { type: "text", text: "any" } }] } },
    ]);
  });

  it("fail with MCP_FAKE_MISMATCH naming the prompt and the first difference", () => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", prompts: [{ name: "p", gets: [{ id: "g", args: { lang: "en" }, result: "x" }] }] });
    const answer = fakes.getPrompt({ name: "p", arguments: { lang: "fr" } });
    if (answer.kind !== "error") throw new Error(`expected a failure, got ${answer.kind}`);
    expect(answer.jsonRpcError.code).toBe(-32602);
    expect(answer.jsonRpcError.message).toBe(
      'mcp-testkit MCP fake mismatch: prompt "p" was requested with arguments that match no declared fake (no test id or context). Received {"lang":"fr"}. Declared: code#1:g {"lang":"en"}.',
    );
    expect(answer.jsonRpcError.data.mcpTestkit).toMatchObject({ code: "MCP_FAKE_MISMATCH", prompt: "p", firstDifference: '$.lang: expected "en", received "fr"' });
  });

  it("list the request's prompts with their description and arguments", () => {
    const { fakes } = load();
    expect(fakes.listPrompts({ identity: { testId: "t" } })).toEqual([{ name: "summarize", description: "Summarize a text", arguments: [{ name: "text", required: true }] }]);
  });

  it("show resources and prompts in inspection and assertConsumed", () => {
    const { fakes, get } = load();
    fakes.load({ scope: { testId: "t" }, resources: [{ uri: "file:///r", reads: [{ result: "r" }] }] });
    get({ text: "hi" });
    const blocks = fakes.inspect({ testId: "t" }).mounts[0].blocks;
    expect(blocks.map((block) => [block.tools, block.resources, block.prompts])).toEqual([
      [
        [],
        undefined,
        [
          {
            name: "summarize",
            entries: [
              { id: "code#1:short", argsMatch: { text: { $regex: "^.{0,10}$" } }, consumed: true },
              { id: "code#1:prompt:summarize#1", args: { text: "a long text indeed" }, consumed: false },
              { id: "code#1:prompt:summarize#2", anyArgs: true, consumed: false },
            ],
          },
        ],
      ],
      [[], [{ uri: "file:///r", entries: [{ id: "code#2:resource:file:///r#0", anyArgs: true, consumed: false }] }], undefined],
    ]);
    expect(() => fakes.assertConsumed({ testId: "t" })).toThrow(
      '3 declared MCP fakes were never used (testId "t"):\n  - code#1:prompt:summarize#1 (/mcp, prompt "summarize")\n  - code#1:prompt:summarize#2 (/mcp, prompt "summarize")\n  - code#2:resource:file:///r#0 (/mcp, resource "file:///r")',
    );
  });

  it("warn when an args entry comes after an anyArgs entry", () => {
    const { warnings } = createFakes().load({
      scope: "shared",
      prompts: [
        {
          name: "p",
          gets: [
            { anyArgs: true, result: "a" },
            { args: {}, result: "b" },
          ],
        },
      ],
    });
    expect(warnings.map((warning) => warning.entryId)).toEqual(["code#1:prompt:p#1"]);
  });
});

describe("resource and prompt load errors", () => {
  it.each([
    [{ scope: "shared", resources: [{ uri: "file:///a", reads: [] }] }, "mcp-fakes/bad-block", null, "resources[0].reads: expected at least one read; a resource with no reads could never answer"],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ result: "a", error: "b" }] }] },
      "mcp-fakes/bad-entry",
      "code#1:resource:file:///a#0",
      'has both "result" and "error"; expected exactly one of them',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ result: 5 }] }] },
      "mcp-fakes/bad-entry",
      "code#1:resource:file:///a#0",
      'result: expected a string, a content object, an array of contents or { "contents": [...] }, received number',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ result: [{ text: 1 }] }] }] },
      "mcp-fakes/bad-entry",
      "code#1:resource:file:///a#0",
      'result[0]: expected a resource content: an object with a string "text" or a base64 string "blob"',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ result: { contents: [{ text: "a" }], extra: 1 } }] }] },
      "mcp-fakes/bad-entry",
      "code#1:resource:file:///a#0",
      'a full read result (an object with "contents") may have only contents, _meta, found "extra"',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ id: "x", error: { code: "bad" } }] }] },
      "mcp-fakes/bad-entry",
      "code#1:x",
      'expected the error\'s message (a string; code -32603) or { "code": integer, "message": string, "data"? }',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", read: [] }] },
      "mcp-fakes/unknown-key",
      null,
      'resources[0]: unknown key "read"; did you mean "reads"? A resource has: uri, name, description, mimeType, reads',
    ],
    [
      { scope: "shared", resources: [{ uri: "file:///a", reads: [{ reslt: "a" }] }] },
      "mcp-fakes/unknown-key",
      "code#1:resource:file:///a#0",
      'unknown key "reslt"; did you mean "result"? A read has: id, result, error',
    ],
    [
      {
        scope: "shared",
        resources: [
          { uri: "file:///a", reads: [{ result: "a" }] },
          { uri: "file:///a", reads: [{ result: "b" }] },
        ],
      },
      "mcp-fakes/duplicate-resource",
      null,
      '"file:///a" is declared twice in this block; put all its reads in one resource',
    ],
    [{ scope: "shared", prompts: [{ name: "p", gets: [{ result: "a" }] }] }, "mcp-fakes/bad-entry", "code#1:prompt:p#0", 'has neither "args" nor "anyArgs" nor "argsMatch"'],
    [
      { scope: "shared", prompts: [{ name: "p", gets: [{ anyArgs: true, result: { text: "a" } }] }] },
      "mcp-fakes/bad-entry",
      "code#1:prompt:p#0",
      'result: expected a string, an array of messages or { "messages": [...], "description"? }, received an object without "messages"',
    ],
    [
      { scope: "shared", prompts: [{ name: "p", gets: [{ anyArgs: true, result: [{ role: "system", content: "a" }] }] }] },
      "mcp-fakes/bad-entry",
      "code#1:prompt:p#0",
      'result[0]: expected a prompt message: { "role": "user" or "assistant"',
    ],
    [{ scope: "shared", prompts: [{ name: "p", gets: [{ argsMatch: { a: { $regex: "[" } }, result: "a" }] }] }, "mcp-fakes/bad-regex", "code#1:prompt:p#0", "argsMatch.a:"],
    [
      { scope: "shared", prompts: [{ name: "p", arguments: [{ name: "a", requird: true }], gets: [{ anyArgs: true, result: "a" }] }] },
      "mcp-fakes/unknown-key",
      null,
      'prompts[0].arguments[0]: unknown key "requird"; did you mean "required"? A prompt argument has: name, description, required',
    ],
    [
      {
        scope: "shared",
        prompts: [
          { name: "p", gets: [{ anyArgs: true, result: "a" }] },
          { name: "p", gets: [{ anyArgs: true, result: "b" }] },
        ],
      },
      "mcp-fakes/duplicate-prompt",
      null,
      '"p" is declared twice in this block; put all its gets in one prompt',
    ],
  ])("%j fails with %s", (block, rule, entryId, message) => {
    const problem = problems(block).find((found) => found.rule === rule);
    if (!problem) throw new Error(`expected a ${rule} problem`);
    expect(problem).toMatchObject({ rule, entryId });
    expect(problem.message).toContain(message);
  });

  it("refuses an entry id used by a tool entry and a resource entry of the same mount", () => {
    const [problem] = problems({
      scope: "shared",
      tools: [{ name: "t", calls: [{ id: "same", anyArgs: true, result: "a" }] }],
      resources: [{ uri: "file:///a", reads: [{ id: "same", result: "b" }] }],
    });
    expect(problem).toMatchObject({ rule: "mcp-fakes/duplicate-id", entryId: "code#1:same" });
  });
});

describe("docs/fakes.md", () => {
  it("every fixture example in it loads", () => {
    const text = readFileSync(new URL("../../docs/fakes.md", import.meta.url), "utf8");
    const examples = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]) as Record<string, unknown>).filter((json) => "mcpFakes" in json);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(createFakes().load(example.mcpFakes).added).toBeGreaterThan(0);
  });
});
