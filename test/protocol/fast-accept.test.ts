/**
 * The validator's fast path (src/protocol/validate/schemas/fast-accept.ts) may only ever say
 * "valid" where zod says valid too. Every schema of every version is tried on valid samples and on
 * thousands of variants of them (each key dropped, each value replaced by odd ones, keys added);
 * wherever the fast path accepts, zod must accept. And it must accept the common valid messages,
 * or it would be no faster.
 */
import { describe, expect, it } from "vitest";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/protocol/versions.js";
import { acceptsFast } from "../../src/protocol/validate/schemas/fast-accept.js";
import { schemasFor } from "../../src/protocol/validate/schemas/schema-set.js";
import type { Schema } from "../../src/protocol/validate/schemas/combinators.js";
import { implementation, png, task, tool } from "./messages.js";

const text = { type: "text", text: "21°" };
const annotations = { audience: ["user", "assistant"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" };
const resource = { uri: "file:///a.txt", name: "a", mimeType: "text/plain", size: 12, annotations };

/** Valid params and results of the methods (for the latest version; older ones reject some parts). */
const samples: Record<string, unknown>[] = [
  // results
  {
    protocolVersion: "2025-11-25",
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {}, completions: {}, tasks: {} },
    serverInfo: { ...implementation, title: "Demo", icons: [{ src: "https://example.com/i.png", sizes: ["48x48"], theme: "dark" }] },
    instructions: "x",
  },
  {},
  {
    tools: [
      tool,
      { ...tool, name: "w", title: "W", outputSchema: { type: "object", properties: { c: { type: "number" } } }, annotations: { readOnlyHint: true }, execution: { taskSupport: "optional" } },
    ],
    nextCursor: "2",
  },
  { content: [text] },
  {
    content: [
      text,
      { type: "image", data: png, mimeType: "image/png", annotations },
      { type: "audio", data: png, mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "notes://x", text: "x" } },
      { type: "resource_link", uri: "file:///r.txt", name: "r" },
    ],
    structuredContent: { c: 21 },
    isError: false,
    _meta: { trace: 1 },
  },
  { task },
  { resources: [resource] },
  { resourceTemplates: [{ uriTemplate: "notes://{day}", name: "notes" }] },
  {
    contents: [
      { uri: "notes://today", text: "Ship it." },
      { uri: "file:///logo.png", mimeType: "image/png", blob: png },
    ],
  },
  { prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }] },
  {
    description: "Hi",
    messages: [
      { role: "user", content: text },
      { role: "assistant", content: { type: "resource", resource: { uri: "notes://x", text: "x" } } },
    ],
  },
  { completion: { values: ["Ada", "Alan"], total: 2, hasMore: false } },
  task,
  { tasks: [task] },
  { role: "assistant", content: text, model: "m", stopReason: "endTurn" },
  { action: "accept", content: { city: "Oslo", days: 3, ok: true, tags: ["a"] } },
  { roots: [{ uri: "file:///work", name: "work" }] },
  // params
  { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } }, clientInfo: implementation },
  { name: "echo", arguments: { text: "hi", n: 1, list: [1, "a", null], nested: { a: {} } }, _meta: { progressToken: 7 } },
  { name: "echo" },
  { cursor: "abc" },
  { uri: "file:///a.txt" },
  { name: "greet", arguments: { name: "Ada" } },
  { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" }, context: { arguments: { x: "y" } } },
  { level: "info" },
  { messages: [{ role: "user", content: text }], maxTokens: 10, modelPreferences: { hints: [{ name: "m" }], costPriority: 0.2 }, includeContext: "none", stopSequences: ["x"] },
  {
    message: "Who?",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string", minLength: 1 }, age: { type: "integer" }, ok: { type: "boolean" }, color: { type: "string", enum: ["r", "g"] } },
      required: ["name"],
    },
  },
  { mode: "url", message: "Sign in", elicitationId: "e1", url: "https://example.com/login" },
  { taskId: "t-1" },
  { requestId: 3, reason: "no longer needed" },
  { progressToken: 7, progress: 0.5, total: 1, message: "half" },
  { level: "warning", logger: "db", data: { rows: 3 } },
  { elicitationId: "e1" },
];

/** Values put in place of any part of a sample: wrong types, edge numbers, non-plain objects. */
class Thing {
  type = "text";
  text = "x";
}
const odd: unknown[] = [
  undefined,
  null,
  0,
  -0,
  -1,
  1.5,
  2,
  101,
  NaN,
  Infinity,
  "",
  "x",
  "text",
  "file:///a",
  "not base64!",
  true,
  false,
  [],
  [1],
  [text],
  {},
  { type: "text" },
  text,
  new Date(0),
  new Thing(),
  Object.create(null) as object,
  { constructor: class Fake {} },
  { [Symbol("s")]: 1 },
  JSON.parse('{"__proto__": {"x": 1}}') as object,
  [, 1],
];

/** Every variant of `value` with one part dropped or replaced, or a key added. */
function* variants(value: unknown, depth = 0): Generator<unknown> {
  if (depth > 4 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      for (const replacement of [...odd, ...variants(value[index], depth + 1)]) {
        const copy = [...value];
        copy[index] = replacement;
        yield copy;
      }
      yield value.filter((_, other) => other !== index);
    }
    yield [...value, ...odd.slice(0, 3)];
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const { [key]: dropped, ...rest } = record;
    yield rest;
    for (const replacement of [...odd, ...variants(dropped, depth + 1)]) yield { ...record, [key]: replacement };
  }
  yield { ...record, extra: 1, _meta: { a: 1 } };
}

function schemasOf(version: (typeof SUPPORTED_PROTOCOL_VERSIONS)[number]): [string, Schema][] {
  const set = schemasFor(version);
  return [
    ...[...set.params].map(([method, schema]): [string, Schema] => [`params of ${method}`, schema]),
    ...[...set.results].map(([method, schema]): [string, Schema] => [`result of ${method}`, schema]),
    ...[...set.errorData].map(([code, schema]): [string, Schema] => [`error data of ${code}`, schema]),
  ];
}

describe("the validator's fast path", () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS)("accepts nothing zod refuses (%s)", (version) => {
    const wrong: string[] = [];
    let accepted = 0;
    let tried = 0;
    for (const [name, schema] of schemasOf(version)) {
      for (const sample of samples) {
        for (const value of [sample, ...odd, ...variants(sample)]) {
          tried++;
          if (!acceptsFast(schema, value)) continue;
          accepted++;
          if (!schema.safeParse(value).success) wrong.push(`${name}: ${String(JSON.stringify(value))}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // A test that accepts nothing proves nothing.
    expect(tried).toBeGreaterThan(100_000);
    expect(accepted).toBeGreaterThan(1_000);
  });

  it("accepts the common valid messages", () => {
    const { params, results } = schemasFor("2025-11-25");
    expect(acceptsFast(results.get("tools/call")!, { content: [text] })).toBe(true);
    expect(acceptsFast(results.get("tools/call")!, samples[4])).toBe(true);
    expect(acceptsFast(results.get("tools/list")!, samples[2])).toBe(true);
    expect(acceptsFast(results.get("initialize")!, samples[0])).toBe(true);
    expect(acceptsFast(results.get("resources/read")!, samples[8])).toBe(true);
    expect(acceptsFast(params.get("tools/call")!, samples[18])).toBe(true);
    expect(acceptsFast(params.get("initialize")!, samples[17])).toBe(true);
    expect(acceptsFast(params.get("notifications/initialized")!, undefined)).toBe(true);
    expect(acceptsFast(params.get("notifications/progress")!, samples[30])).toBe(true);
  });
});
