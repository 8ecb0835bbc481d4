/**
 * The JSON Schema shipped for fixture files (`schemas/mcp-fakes.schema.json`, for `$schema` in
 * editors) and the loader agree: every example and test fixture is valid for both, and each
 * broken block below is refused by both.
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

  const tool = { name: "t", calls: [{ anyArgs: true, result: "ok" }] };
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
