/**
 * Writes schemas/*.json, the JSON Schemas editors use for `$schema`, from the zod definitions
 * the mock checks with: `npm run schemas`. test/schemas.test.ts fails when the committed files
 * differ from what this builds, so a change to a step or a fixture entry shows in both.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { fixtureBlockSchema } from "../src/fakes/format.js";
import { stepSchemas } from "../src/formats/step.js";
import { FIXTURE_JSON_SCHEMA_DEFS } from "../src/fakes/fixture-json-schema.js";
import { scenarioFileSchema } from "./scenario-file.js";
import { surfaceFileSchema } from "../src/snapshot/surface-format.js";

const SCHEMAS_DIR = new URL("../schemas/", import.meta.url);
const BASE_ID = "https://mcp-testkit.dev/schemas/";
type Json = Record<string, unknown>;

/** zod's JSON Schema, minus what says nothing to an editor: the safe-integer bounds of every integer, a record's "any string key, any value". */
function toJsonSchema(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    // A check written as code (z.custom) is described by the JSON Schema in its metadata.
    unrepresentable: "any",
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      // JSON keys are strings: saying so says nothing.
      const names = jsonSchema.propertyNames as Json | undefined;
      if (names !== undefined && Object.keys(names).length === 1 && names.type === "string") delete jsonSchema.propertyNames;
      const values = jsonSchema.additionalProperties;
      if (jsonSchema.type === "object" && typeof values === "object" && Object.keys(values).length === 0) delete jsonSchema.additionalProperties;
    },
  }) as Json;
}

/** A document with `$schema`, `$id`, title and description first, then `head`, then the rest. */
function document(name: string, head: Json, body: Json): Json {
  const { $schema, title, description, ...rest } = body;
  return { $schema, $id: `${BASE_ID}${name}`, title, description, ...head, ...rest };
}

function fixtureFileSchema(): Json {
  const block = toJsonSchema(fixtureBlockSchema());
  const { $defs = {}, $schema } = block as { $defs?: Json; $schema?: string };
  return document(
    "mcp-fakes.schema.json",
    {
      title: "mcp-testkit fixture file (scenario fakes)",
      description:
        'A fixture file of scenario fakes: an object whose mcpFakes key holds one block or an array of blocks. Other keys are allowed (an LLM "fixtures" array is ignored). See docs/fakes.md.',
      type: "object",
      properties: {
        $schema: { type: "string" },
        mcpFakes: { oneOf: [{ $ref: "#/$defs/block" }, { type: "array", items: { $ref: "#/$defs/block" }, minItems: 1 }] },
      },
    },
    { $schema, $defs: { ...FIXTURE_JSON_SCHEMA_DEFS, fault: faultJsonSchema(), ...$defs } },
  );
}

/** A fault, as the step description says it (the fixture format checks it in code, so its zod schema is not in the block's). */
function faultJsonSchema(): Json {
  // A schema with an id comes back as a reference to its own definition.
  const { $defs } = toJsonSchema(stepSchemas().faultSchema) as { $defs: { fault: Json } };
  return $defs.fault;
}

function scenarioSchema(): Json {
  return document("scenario.schema.json", {}, toJsonSchema(scenarioFileSchema));
}

function surfaceSchema(): Json {
  return document("surface.schema.json", {}, toJsonSchema(surfaceFileSchema()));
}

const LINE = 120;

/** An object's members as JSON.stringify writes them: an undefined one left out. */
const members = (value: object) => Object.entries(value).filter(([, item]) => item !== undefined);

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  if (typeof value === "object" && value !== null)
    return `{${members(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${oneLine(item)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

/** JSON as people read it: a value on one line when it fits (after `lead` characters), else one member per line. */
function pretty(value: unknown, indent = "", lead = 0): string {
  const flat = oneLine(value);
  if (typeof value !== "object" || value === null || indent.length + lead + flat.length <= LINE) return flat;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${pretty(item, inner)}`)
    : members(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pretty(item, inner, JSON.stringify(key).length + 2)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${items.join(",\n")}\n${indent}${close}`;
}

/** Each file of schemas/ and its text. */
export function buildJsonSchemas(): Record<string, string> {
  const text = (schema: Json) => `${pretty(schema)}\n`;
  return { "mcp-fakes.schema.json": text(fixtureFileSchema()), "scenario.schema.json": text(scenarioSchema()), "surface.schema.json": text(surfaceSchema()) };
}

export const schemasDir = fileURLToPath(SCHEMAS_DIR);

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [name, text] of Object.entries(buildJsonSchemas())) {
    writeFileSync(new URL(name, SCHEMAS_DIR), text);
    console.log(`wrote schemas/${name}`);
  }
}
