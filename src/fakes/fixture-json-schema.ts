/**
 * What JSON Schema says of the values the fixture format checks with code rather than with zod
 * (a result's shapes, an argsMatch pattern, a scope): attached to the zod definition in
 * format.ts, and added to the $defs of schemas/mcp-fakes.schema.json (`npm run schemas`). They
 * change with those checks (results.ts, request-results.ts, arg-patterns.ts), which
 * test/fakes/schema.test.ts holds them to.
 */

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const oneOfRequired = (...keys: string[]) => keys.map((key) => ({ required: [key] }));

/** Whose calls the block answers. */
export const SCOPE_JSON_SCHEMA = {
  description: 'Whose calls the block answers: "shared" (every request), or a test id, a context, or both.',
  oneOf: [
    { const: "shared" },
    {
      type: "object",
      properties: { testId: { type: "string", minLength: 1 }, context: { type: "string", minLength: 1 } },
      additionalProperties: false,
      anyOf: oneOfRequired("testId", "context"),
    },
  ],
};

/** A call or a get matches by exactly one of these. */
export const ONE_MATCHER = { oneOf: oneOfRequired("args", "anyArgs", "argsMatch") };

/** The definitions the attachments above and in format.ts refer to. */
export const FIXTURE_JSON_SCHEMA_DEFS: Record<string, object> = {
  contentBlock: { type: "object", properties: { type: { type: "string" } }, required: ["type"] },
  fullResult: {
    description: "A full tools/call result, sent as is.",
    type: "object",
    properties: {
      content: { type: "array", items: ref("contentBlock") },
      isError: { type: "boolean" },
      structuredContent: { description: "An object, or in 2026-07-28 any JSON value (a legacy client gets a non-object left out)." },
      _meta: { type: "object" },
    },
    required: ["content"],
    additionalProperties: false,
  },
  result: {
    description: "A string (one text block), an array (the content), a full result (content, isError, structuredContent, _meta), or any other object (structuredContent plus its JSON text).",
    anyOf: [
      { type: "string" },
      { type: "array", items: ref("contentBlock") },
      ref("fullResult"),
      { type: "object", not: { anyOf: oneOfRequired("content", "isError", "structuredContent", "_meta") } },
    ],
  },
  pattern: {
    description:
      'An argsMatch pattern: an object matches a subset of keys at every depth, an array item by item, { "$regex", "$flags"? } a string, { "$schema" } any value valid against a JSON Schema, anything else exactly.',
    anyOf: [{ type: ["string", "number", "boolean", "null"] }, { type: "array", items: ref("pattern") }, ref("regexPattern"), ref("schemaPattern"), ref("subsetPattern")],
  },
  regexPattern: {
    type: "object",
    properties: {
      $regex: { type: "string", description: "A JavaScript regular expression, without slashes." },
      $flags: { type: "string", pattern: "^[dimsuv]*$", description: "Flags d, i, m, s, u, v (g and y are refused: they make a match depend on the one before)." },
    },
    required: ["$regex"],
    additionalProperties: false,
  },
  schemaPattern: {
    type: "object",
    properties: { $schema: { type: ["object", "boolean"], description: "A JSON Schema (2020-12) the value must be valid against." } },
    required: ["$schema"],
    additionalProperties: false,
  },
  subsetPattern: { type: "object", not: { anyOf: oneOfRequired("$regex", "$flags", "$schema") }, additionalProperties: ref("pattern") },
  argsMatch: {
    description: 'A partial match of the arguments: a subset of keys, with { "$regex" } and { "$schema" } leaves. See docs/fakes.md.',
    type: "object",
    $ref: "#/$defs/pattern",
  },
  resourceContent: {
    type: "object",
    properties: { uri: { type: "string" }, mimeType: { type: "string" }, text: { type: "string" }, blob: { type: "string" }, _meta: {} },
    oneOf: oneOfRequired("text", "blob"),
    additionalProperties: false,
  },
  readResult: {
    description: "A string (one text content), a content ({ text } or { blob }), an array of contents, { contents, _meta? }, or any other object (its JSON text).",
    anyOf: [
      { type: "string" },
      { type: "array", items: ref("resourceContent") },
      { type: "object", properties: { contents: { type: "array", items: ref("resourceContent") }, _meta: {} }, required: ["contents"], additionalProperties: false },
      { allOf: [{ not: { required: ["contents"] } }, { anyOf: oneOfRequired("text", "blob") }, ref("resourceContent")] },
      { type: "object", not: { anyOf: oneOfRequired("contents", "text", "blob") } },
    ],
  },
  promptMessage: {
    type: "object",
    properties: { role: { enum: ["user", "assistant"] }, content: { anyOf: [{ type: "string" }, ref("contentBlock")] } },
    required: ["role", "content"],
  },
  promptResult: {
    description: "A string (one user message), an array of messages, or { messages, description?, _meta? }.",
    anyOf: [
      { type: "string" },
      { type: "array", items: ref("promptMessage") },
      { type: "object", properties: { messages: { type: "array", items: ref("promptMessage") }, description: { type: "string" }, _meta: {} }, required: ["messages"], additionalProperties: false },
    ],
  },
};

export const fixtureRef = ref;

/** A read or a get: one answer (result or error), or a fault that ends the request itself (hang, disconnect, raw). */
export const ANSWER_OR_ENDING_FAULT = {
  oneOf: [
    { required: ["result"] },
    { required: ["error"] },
    {
      required: ["fault"],
      not: { anyOf: [{ required: ["result"] }, { required: ["error"] }] },
      properties: { fault: { anyOf: [{ required: ["hang"] }, { required: ["disconnect"] }, { required: ["raw"] }] } },
    },
  ],
};
export { oneOfRequired };
