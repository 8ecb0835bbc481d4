/**
 * JSON Schemas (a tool's `inputSchema` / `outputSchema`, a prompt's arguments) as a few lines
 * for people: one line per property with its type, whether it is required, its default and
 * description; nested objects indented. `--json` prints the schemas themselves.
 */
import { isObject } from "../../protocol/jsonrpc.js";
import { clip } from "../../util/text.js";

/** How deep nested object properties are listed. */
const MAX_DEPTH = 3;

/** The lines describing an object schema's properties, each starting with `indent`. */
export function describeProperties(schema: unknown, indent: string, depth = 0): string[] {
  if (!isObject(schema)) return [`${indent}(not a JSON Schema object: ${JSON.stringify(schema)})`];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  const names = Object.keys(properties);
  if (names.length === 0) {
    return [`${indent}${schema.additionalProperties === false || depth > 0 ? "(no parameters)" : "(no declared parameters)"}`];
  }
  const lines: string[] = [];
  for (const name of names) {
    const property = properties[name];
    const parts = [`${name}${required.has(name) ? "" : "?"}: ${describeType(property)}`];
    if (isObject(property)) {
      if (property.default !== undefined) parts.push(`= ${clip(JSON.stringify(property.default), 40)}`);
      if (typeof property.description === "string" && property.description.trim() !== "") parts.push(`— ${clip(oneLine(property.description), 100)}`);
    }
    lines.push(`${indent}${parts.join(" ")}`);
    if (isObject(property) && depth + 1 < MAX_DEPTH) {
      const nested =
        property.type === "object" && isObject(property.properties)
          ? property
          : property.type === "array" && isObject(property.items) && isObject(property.items.properties)
            ? property.items
            : undefined;
      if (nested) lines.push(...describeProperties(nested, `${indent}  `, depth + 1));
    }
  }
  return lines;
}

/** `string`, `"a" | "b"`, `number (0..10)`, `array of string`, `object`, `string | null`. */
export function describeType(schema: unknown): string {
  if (schema === true) return "any";
  if (!isObject(schema)) return "unknown";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return options.map((option) => describeType(option)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : typeof schema.type === "string" ? schema.type : schema.properties ? "object" : "any";
  if (type === "array") {
    const items = schema.items;
    return isObject(items) ? `array of ${describeType(items)}` : "array";
  }
  const range = [schema.minimum, schema.maximum].some((bound) => typeof bound === "number") ? ` (${schema.minimum ?? ""}..${schema.maximum ?? ""})` : "";
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  return `${type}${range}${format}`;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export { clip } from "../../util/text.js";
