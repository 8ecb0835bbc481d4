/**
 * The JSON Schema shipped for fixture files (`schemas/mcp-fakes.schema.json`, for `$schema` in
 * editors) and the loader agree: every example, test fixture and docs/fakes.md example is valid
 * for both, and each broken block below is refused by both. The loader is the mock's: fakes with
 * the engine's step checker.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createFakes } from "../../src/fakes/index.js";

const schema = JSON.parse(readFileSync(fileURLToPath(new URL("../../schemas/mcp-fakes.schema.json", import.meta.url)), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const loads = (mcpFakes: unknown) => {
  try {
    createFakes().load(mcpFakes);
    return true;
  } catch {
    return false;
  }
};

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

const FIXTURE_DIRS = ["../../examples/fixtures", "./fixtures"].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

describe("schemas/mcp-fakes.schema.json", () => {
  for (const file of FIXTURE_DIRS.flatMap(jsonFiles)) {
    it(`accepts ${file.split("/").slice(-2).join("/")}, which the loader loads`, () => {
      const content = JSON.parse(readFileSync(file, "utf8"));
      expect(validate(content), JSON.stringify(validate.errors)).toBe(true);
      expect(loads(content.mcpFakes)).toBe(true);
    });
  }

  const docs = readFileSync(fileURLToPath(new URL("../../docs/fakes.md", import.meta.url)), "utf8");
  const docExamples = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]) as Record<string, unknown>).filter((json) => "mcpFakes" in json);
  it(`accepts the ${docExamples.length} fixture examples of docs/fakes.md, which the loader loads`, () => {
    expect(docExamples.length).toBeGreaterThan(0);
    for (const example of docExamples) {
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(loads(example.mcpFakes)).toBe(true);
    }
  });

  const tool = { name: "t", calls: [{ anyArgs: true, result: "ok" }] };
  const call = (entry: Record<string, unknown>) => ({ scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, ...entry }] }] });
  const matched = (argsMatch: unknown) => ({ scope: "shared", tools: [{ name: "t", calls: [{ argsMatch, result: "x" }] }] });
  const read = (entry: Record<string, unknown>) => ({ scope: "shared", resources: [{ uri: "file:///a", reads: [entry] }] });
  const get = (entry: Record<string, unknown>) => ({ scope: "shared", prompts: [{ name: "p", gets: [{ anyArgs: true, ...entry }] }] });
  const newKeys: Array<[string, unknown]> = [
    ["a block with none of tools, resources and prompts", { scope: "shared" }],
    ["argsMatch beside args", { scope: "shared", tools: [{ name: "t", calls: [{ args: {}, argsMatch: {}, result: "x" }] }] }],
    ["argsMatch that is not an object", matched("^a")],
    ["a $regex that is not a string", matched({ q: { $regex: 5 } })],
    ["a $regex with the g flag", matched({ q: { $regex: "a", $flags: "g" } })],
    ["a $regex with another key", matched({ q: { $regex: "a", extra: 1 } })],
    ["$flags without $regex", matched({ q: { $flags: "i" } })],
    ["a $schema that is not a schema", matched({ q: { $schema: 5 } })],
    ["a $schema with another key", matched({ q: { $schema: {}, $regex: "a" } })],
    ["a step beside a result", call({ step: { returns: "a" }, result: "b" })],
    ["a step that is not an object", call({ step: "hang" })],
    ["a step with a misspelled key", call({ step: { delayMS: 10 } })],
    ["a step with repeat", call({ step: { returns: "a", repeat: 2 } })],
    ['a step with "hang": "yes"', call({ step: { hang: "yes" } })],
    ["a step with two answers", call({ step: { returns: "a", raw: "b" } })],
    ["a step with a negative delay", call({ step: { delayMs: -1 } })],
    ["a step with a delay longer than a timer holds", call({ step: { delayMs: 3e9 } })],
    ["a step with structuredContent and no content", call({ step: { structuredContent: { a: 1 } } })],
    ["a step that throws a number", call({ step: { throws: 42 } })],
    ["a step with a bad stream mode", call({ step: { returns: "a", stream: { mode: "sse2" } } })],
    ["a resource with no reads", { scope: "shared", resources: [{ uri: "file:///a", reads: [] }] }],
    ["a resource without a uri", { scope: "shared", resources: [{ reads: [{ result: "a" }] }] }],
    ["a read with args", read({ args: {}, result: "a" })],
    ["a read with both result and error", read({ result: "a", error: "b" })],
    ["a read content with neither text nor blob", read({ result: [{ uri: "file:///a" }] })],
    ["a read error without a code", read({ error: { message: "gone" } })],
    ["a full read result with an extra key", read({ result: { contents: [], extra: 1 } })],
    ["a prompt with no gets", { scope: "shared", prompts: [{ name: "p", gets: [] }] }],
    ["a prompt argument with an unknown key", { scope: "shared", prompts: [{ name: "p", arguments: [{ name: "a", requird: true }], gets: [{ anyArgs: true, result: "x" }] }] }],
    ["a get with a step", get({ step: { hang: true } })],
    ["a get message with a bad role", get({ result: [{ role: "system", content: "x" }] })],
    ["a prompt result object without messages", get({ result: { description: "d" } })],
  ];
  for (const [what, block] of newKeys) {
    it(`refuses ${what}, as the loader does`, () => {
      expect(validate({ mcpFakes: block })).toBe(false);
      expect(loads(block)).toBe(false);
    });
  }

  const valid: Array<[string, unknown]> = [
    ["argsMatch with nested patterns", matched({ q: { $regex: "^a", $flags: "i" }, n: { $schema: { type: "integer" } }, tags: ["a", { $regex: "b" }], deep: { x: null } })],
    [
      "every step answer kind",
      {
        scope: "shared",
        tools: [
          {
            name: "t",
            calls: [
              { returns: 1 },
              { content: [{ type: "text", text: "a" }], structuredContent: { a: 1 } },
              { toolError: "no" },
              { throws: "x" },
              { throws: { code: -1, message: "m", data: [] } },
              { hang: true },
              { result: null },
              { disconnect: true },
              { raw: "}{" },
              { delayMs: 5 },
              { returns: "a", hang: false, stream: { mode: "sse", closeAfterEvents: 0, retryMs: 10 } },
            ].map((step, i) => ({ id: `s${i}`, args: { i }, step })),
          },
        ],
      },
    ],
    [
      "reads and gets of every result shape",
      {
        scope: { context: "c" },
        resources: [
          {
            uri: "file:///a",
            mimeType: "text/plain",
            reads: [
              { result: "a" },
              { result: { blob: "AA==" } },
              { result: [{ text: "a", uri: "file:///b" }] },
              { result: { contents: [{ text: "a" }] } },
              { result: { any: 1 } },
              { error: "gone" },
              { error: { code: -32002, message: "gone", data: 1 } },
            ],
          },
        ],
        prompts: [
          {
            name: "p",
            arguments: [{ name: "a", required: true }],
            gets: [
              { args: { a: "1" }, result: "x" },
              { argsMatch: { a: { $regex: "." } }, result: [{ role: "assistant", content: { type: "text", text: "y" } }] },
              { anyArgs: true, result: { messages: [], description: "d" } },
            ],
          },
        ],
      },
    ],
  ];
  for (const [what, block] of valid) {
    it(`accepts ${what}, as the loader does`, () => {
      expect(validate({ mcpFakes: block }), JSON.stringify(validate.errors)).toBe(true);
      expect(loads(block)).toBe(true);
    });
  }

  const broken: Array<[string, unknown]> = [
    ["a block without a scope", { tools: [tool] }],
    ["a misspelled key", { scope: "shared", undeclaredTool: "deny", tools: [tool] }],
    ["a shared block that denies", { scope: "shared", undeclaredTools: "deny", tools: [tool] }],
    ["a scope with neither test id nor context", { scope: {}, tools: [tool] }],
    ["a scope with an empty test id", { scope: { testId: "" }, tools: [tool] }],
    ["a mount without a leading slash", { scope: "shared", mount: "mcp", tools: [tool] }],
    ["a tool with no calls", { scope: "shared", tools: [{ name: "t", calls: [] }] }],
    ["a call with both args and anyArgs", { scope: "shared", tools: [{ name: "t", calls: [{ args: {}, anyArgs: true, result: "x" }] }] }],
    ["a call with neither args nor anyArgs", { scope: "shared", tools: [{ name: "t", calls: [{ result: "x" }] }] }],
    ["a call with both result and error", { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: "x", error: "y" }] }] }],
    ["anyArgs: false", { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: false, result: "x" }] }] }],
    ["a full result with an extra key", { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: { content: [], extra: 1 } }] }] }],
    ["content blocks without a type", { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, result: [{ text: "x" }] }] }] }],
    ["an error that is not text", { scope: "shared", tools: [{ name: "t", calls: [{ anyArgs: true, error: { message: "x" } }] }] }],
  ];
  for (const [what, block] of broken) {
    it(`refuses ${what}, as the loader does`, () => {
      expect(validate({ mcpFakes: block })).toBe(false);
      expect(loads(block)).toBe(false);
    });
  }
});
