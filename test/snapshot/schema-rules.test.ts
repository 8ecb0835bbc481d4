/**
 * The direction rules, case by case: each pair of schemas is one tool's input or output schema
 * before and after a release, with the class its worst change must get. An input schema breaks
 * callers when it accepts less; an output schema breaks consumers when it promises less. Every
 * expected class here was checked by hand against that sentence.
 */
import { describe, expect, it } from "vitest";
import { diffSurfaces, type ServerSurface } from "../../src/index.js";

type Schema = Record<string, unknown> | boolean;
type Expected = "breaking" | "compatible" | "informational" | "none";

function surfaceWith(direction: "input" | "output", schema: Schema): ServerSurface {
  const tool = direction === "input" ? { name: "t", inputSchema: schema } : { name: "t", inputSchema: { type: "object" }, outputSchema: schema };
  return { mcpSurface: 1, serverInfo: { name: "s", version: "1" }, tools: [tool], resources: [], resourceTemplates: [], prompts: [] };
}

function worst(direction: "input" | "output", before: Schema, after: Schema): { class: Expected; messages: string[] } {
  const diff = diffSurfaces(surfaceWith(direction, before), surfaceWith(direction, after));
  const order: Expected[] = ["breaking", "compatible", "informational"];
  return { class: order.find((name) => diff.changes.some((change) => change.class === name)) ?? "none", messages: diff.changes.map((change) => change.message) };
}

const obj = (properties: Record<string, Schema>, required: string[] = [], extra: Record<string, unknown> = {}) => ({ type: "object", properties, required, ...extra });
const str = { type: "string" };
const num = { type: "number" };

// [name, before, after, class as input, class as output]
const PAIRS: Array<[string, Schema, Schema, Expected, Expected]> = [
  ["identical", obj({ a: str }, ["a"]), obj({ a: str }, ["a"]), "none", "none"],
  ["a property becomes required", obj({ a: str }), obj({ a: str }, ["a"]), "breaking", "compatible"],
  ["a property becomes optional", obj({ a: str }, ["a"]), obj({ a: str }), "compatible", "breaking"],
  ["a new required property", obj({ a: str }), obj({ a: str, b: num }, ["b"]), "breaking", "compatible"],
  ["a new optional property", obj({ a: str }), obj({ a: str, b: num }), "compatible", "compatible"],
  ["a property removed (extra properties allowed)", obj({ a: str, b: num }), obj({ a: str }), "compatible", "breaking"],
  ["a property removed under additionalProperties: false", obj({ a: str, b: num }, [], { additionalProperties: false }), obj({ a: str }, [], { additionalProperties: false }), "breaking", "breaking"],
  ["a required output property removed", obj({ a: str, b: num }, ["a", "b"]), obj({ a: str }, ["a"]), "compatible", "breaking"],
  ["type narrows: string | number → string", { type: ["string", "number"] }, str, "breaking", "compatible"],
  ["type widens: string → string | null", str, { type: ["string", "null"] }, "compatible", "breaking"],
  ["type number → integer narrows", num, { type: "integer" }, "breaking", "compatible"],
  ["type integer → number widens", { type: "integer" }, num, "compatible", "breaking"],
  ["type changes: string → number", str, num, "breaking", "breaking"],
  ["enum narrows", { type: "string", enum: ["a", "b", "c"] }, { type: "string", enum: ["a", "b"] }, "breaking", "compatible"],
  ["enum widens", { type: "string", enum: ["a", "b"] }, { type: "string", enum: ["a", "b", "c"] }, "compatible", "breaking"],
  ["enum reordered", { enum: ["a", "b", "c"] }, { enum: ["c", "a", "b"] }, "none", "none"],
  ["const added (was any string)", str, { type: "string", const: "x" }, "breaking", "compatible"],
  ["maximum tightens", { type: "integer", maximum: 100 }, { type: "integer", maximum: 50 }, "breaking", "compatible"],
  ["maximum loosens", { type: "integer", maximum: 50 }, { type: "integer", maximum: 100 }, "compatible", "breaking"],
  ["minimum added", num, { type: "number", minimum: 0 }, "breaking", "compatible"],
  ["minLength removed", { type: "string", minLength: 3 }, str, "compatible", "breaking"],
  ["maxItems tightens", { type: "array", maxItems: 10 }, { type: "array", maxItems: 5 }, "breaking", "compatible"],
  ["pattern added", str, { type: "string", pattern: "^[a-z]+$" }, "breaking", "compatible"],
  ["pattern changed", { type: "string", pattern: "^a" }, { type: "string", pattern: "^b" }, "breaking", "breaking"],
  ["additionalProperties: false added", obj({ a: str }), obj({ a: str }, [], { additionalProperties: false }), "breaking", "compatible"],
  ["additionalProperties: false removed", obj({ a: str }, [], { additionalProperties: false }), obj({ a: str }), "compatible", "breaking"],
  ["nested property type narrows", obj({ p: obj({ x: num }) }), obj({ p: obj({ x: { type: "integer" } }) }), "breaking", "compatible"],
  ["array items' type widens", { type: "array", items: str }, { type: "array", items: { type: ["string", "number"] } }, "compatible", "breaking"],
  ["uniqueItems added", { type: "array", items: str }, { type: "array", items: str, uniqueItems: true }, "breaking", "compatible"],
  ["description changed only", { type: "string", description: "a name" }, { type: "string", description: "the name" }, "informational", "informational"],
  ["title and default changed", { type: "string", title: "A", default: "x" }, { type: "string", title: "B", default: "y" }, "informational", "informational"],
  ["anyOf loses a branch", { anyOf: [str, num] }, { anyOf: [str] }, "breaking", "compatible"],
  ["anyOf gains a branch", { anyOf: [str] }, { anyOf: [str, num] }, "compatible", "breaking"],
  ["anyOf reordered", { anyOf: [str, num] }, { anyOf: [num, str] }, "none", "none"],
  [
    "$ref target narrows",
    { $defs: { P: { type: "number" } }, type: "object", properties: { p: { $ref: "#/$defs/P" } } },
    { $defs: { P: { type: "integer" } }, type: "object", properties: { p: { $ref: "#/$defs/P" } } },
    "breaking",
    "compatible",
  ],
  ["inlined $ref: no change", { $defs: { P: str }, type: "object", properties: { p: { $ref: "#/$defs/P" } } }, { type: "object", properties: { p: str } }, "none", "none"],
  [
    "draft-07 definitions, required added inside",
    { definitions: { P: obj({ x: str }) }, $ref: "#/definitions/P" },
    { definitions: { P: obj({ x: str }, ["x"]) }, $ref: "#/definitions/P" },
    "breaking",
    "compatible",
  ],
  ["schema true → false", true, false, "breaking", "compatible"],
  ["dependentRequired added", obj({ a: str, b: str }), obj({ a: str, b: str }, [], { dependentRequired: { a: ["b"] } }), "breaking", "compatible"],
  ["prefixItems item narrows", { type: "array", prefixItems: [num, str] }, { type: "array", prefixItems: [{ type: "integer" }, str] }, "breaking", "compatible"],
  ["x- vendor keyword changed", { type: "string", "x-ui": "text" }, { type: "string", "x-ui": "area" }, "informational", "informational"],
  ["zod's safe-integer bounds say nothing", { type: "integer" }, { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 }, "none", "none"],
  ["multipleOf 2 → 4 narrows", { type: "integer", multipleOf: 2 }, { type: "integer", multipleOf: 4 }, "breaking", "compatible"],
];

describe("direction-aware schema rules: hand-checked pairs", () => {
  it("has at least 30 pairs", () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(30);
  });

  for (const [name, before, after, asInput, asOutput] of PAIRS) {
    it(`${name}: input ${asInput}, output ${asOutput}`, () => {
      const input = worst("input", before, after);
      const output = worst("output", before, after);
      expect({ input: input.class, output: output.class }, [...input.messages, ...output.messages].join("\n")).toEqual({ input: asInput, output: asOutput });
    });
  }
});

describe("what a change says", () => {
  it("names the tool, the direction, the path and why it breaks", () => {
    const diff = diffSurfaces(surfaceWith("input", obj({ limit: { type: "integer", maximum: 100 } })), surfaceWith("input", obj({ limit: { type: "integer", maximum: 50 } })));
    expect(diff.changes).toEqual([
      {
        kind: "changed",
        class: "breaking",
        path: ["tools", "t", "inputSchema", "properties", "limit", "maximum"],
        message: 'tool "t" input: maximum 100 → 50 (tightened) (accepts less: calls that worked may be refused)',
        before: 100,
        after: 50,
      },
    ]);
  });

  it("follows a recursive $ref once and stops", () => {
    const tree = (leaf: Schema) => ({ $defs: { node: { type: "object", properties: { value: leaf, children: { type: "array", items: { $ref: "#/$defs/node" } } } } }, $ref: "#/$defs/node" });
    const diff = diffSurfaces(surfaceWith("input", tree(num)), surfaceWith("input", tree({ type: "integer" })));
    expect(diff.changes.map((change) => change.path.join("."))).toEqual(["tools.t.inputSchema.properties.value.type"]);
  });

  it("leaves a reference it cannot resolve as it is, and fetches nothing", () => {
    const remote = { type: "object", properties: { p: { $ref: "https://example.com/schemas/p.json" } } };
    expect(diffSurfaces(surfaceWith("input", remote), surfaceWith("input", remote)).changes).toEqual([]);
    const other = { type: "object", properties: { p: { $ref: "https://example.com/schemas/q.json" } } };
    const diff = diffSurfaces(surfaceWith("input", remote), surfaceWith("input", other));
    expect(diff.changes.map((change) => [change.class, change.path.join(".")])).toEqual([["breaking", "tools.t.inputSchema.properties.p.$ref"]]);
  });

  it("resolves an anchor and an embedded $id", () => {
    const withAnchor = (type: string) => ({ $defs: { n: { $anchor: "num", type } }, type: "object", properties: { p: { $ref: "#num" } } });
    expect(worst("input", withAnchor("number"), withAnchor("integer")).class).toBe("breaking");
    const withId = (type: string) => ({ $defs: { n: { $id: "urn:n", type } }, type: "object", properties: { p: { $ref: "urn:n" } } });
    expect(worst("output", withId("integer"), withId("number")).class).toBe("breaking");
  });
});
