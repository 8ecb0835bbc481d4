/**
 * Properties of the diff, over generated JSON Schemas: a schema compared with itself, or with a
 * copy whose keys, `required`, `enum`, `type` lists and `anyOf` branches are in another order,
 * shows no change; and a surface compared with itself shows none either, in either direction.
 */
import { describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { diffSurfaces, type ServerSurface } from "../../src/index.js";

type Json = Record<string, unknown>;

const names = fc.constantFrom("a", "b", "c", "id", "name", "limit", "tags", "x.y");
const scalar = fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null));

/** A JSON Schema of the kinds tools declare: typed leaves, objects with required members, arrays, enums, unions, references. */
const schema: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record(
      {
        type: fc.oneof(fc.constantFrom("string", "number", "integer", "boolean", "null"), fc.uniqueArray(fc.constantFrom("string", "number", "null", "boolean"), { minLength: 1, maxLength: 3 })),
        description: fc.string({ maxLength: 8 }),
        minimum: fc.integer({ min: 0, max: 10 }),
        maxLength: fc.integer({ min: 1, max: 20 }),
        pattern: fc.constantFrom("^a", "[0-9]+"),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ enum: fc.uniqueArray(scalar, { minLength: 1, maxLength: 5, selector: (value) => JSON.stringify(value) }) }),
    fc
      .record({ properties: fc.dictionary(names, tie("node"), { maxKeys: 4 }), additionalProperties: fc.boolean() }, { requiredKeys: ["properties"] })
      .chain((object) => fc.subarray(Object.keys(object.properties)).map((required) => ({ type: "object", ...object, required }) as Json)),
    fc.record({ type: fc.constant("array"), items: tie("node"), minItems: fc.integer({ min: 0, max: 3 }), uniqueItems: fc.boolean() }, { requiredKeys: ["type", "items"] }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.constant({ $ref: "#/$defs/shared" }),
  ),
})).node;

/** A document whose `#/$defs/shared` resolves, so generated references point somewhere. */
const document = fc.tuple(schema, schema).map(([root, shared]) => ({ ...root, $defs: { shared } }) as Json);

/** The same schema written in another order: keys reversed, and every list whose order means nothing reversed. */
function reordered(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => reordered(item));
    return key === "required" || key === "enum" || key === "type" || key === "anyOf" ? items.reverse() : items;
  }
  if (typeof value !== "object" || value === null) return value;
  const copy: Json = {};
  for (const name of Object.keys(value).reverse()) copy[name] = reordered((value as Json)[name], name);
  return copy;
}

function surface(input: Json, output: Json): ServerSurface {
  return { mcpSurface: 1, serverInfo: { name: "s", version: "1" }, tools: [{ name: "t", inputSchema: input, outputSchema: output }], resources: [], resourceTemplates: [], prompts: [] };
}

describe("a schema compared with itself", () => {
  it.prop([document, document], { numRuns: 300 })("shows no change, as input or output", (input, output) => {
    expect(diffSurfaces(surface(input, output), surface(structuredClone(input), structuredClone(output))).changes).toEqual([]);
  });

  it.prop([document, document], { numRuns: 300 })("shows no change when its keys and unordered lists are reordered", (input, output) => {
    const diff = diffSurfaces(surface(input, output), surface(reordered(input) as Json, reordered(output) as Json));
    expect(diff.changes).toEqual([]);
  });

  it.prop([document], { numRuns: 200 })("shows a change that breaks one direction or the other when it differs, never none for a changed constraint", (input) => {
    const narrowed = { ...input, maxProperties: 0 };
    const asInput = diffSurfaces(surface(input, {}), surface(narrowed, {}));
    expect(asInput.changes.map((change) => change.class)).toContain("breaking");
  });
});
