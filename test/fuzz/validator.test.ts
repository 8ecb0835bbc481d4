/**
 * Fuzzing the validator: a valid message stays valid under changes that mean nothing (key order,
 * extra `_meta`, extra keys where the schema is open), a message broken at one field is reported
 * at that field's path, and no value at all makes it throw or take long.
 */
import { describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { validateMessage, type ValidateMessageOptions } from "../../src/protocol/index.js";
import { hostileMessage, PROTOTYPE_NAMES } from "./arbitraries.js";
import { ANSWER_BOUND_MS } from "./bounds.js";
import { budget, testTimeout } from "./budget.js";

type Path = Array<string | number>;

interface Baseline {
  label: string;
  message: Record<string, unknown>;
  options: ValidateMessageOptions;
  /** Fields whose value is checked: replacing one with a value of another type must be reported at its path. */
  typed: Path[];
}

const client: ValidateMessageOptions = { direction: "client-to-server", protocolVersion: "2025-11-25" };
const answers = (requestMethod: string): ValidateMessageOptions => ({ direction: "server-to-client", requestMethod, protocolVersion: "2025-11-25" });

const BASELINES: Baseline[] = [
  {
    label: "initialize",
    message: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true } }, clientInfo: { name: "c", version: "1" } } },
    options: client,
    typed: [
      ["params", "protocolVersion"],
      ["params", "clientInfo", "name"],
      ["params", "capabilities"],
    ],
  },
  {
    label: "tools/call",
    message: { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "search", arguments: { q: "x" }, _meta: { progressToken: 3 } } },
    options: client,
    typed: [
      ["params", "name"],
      ["params", "arguments"],
    ],
  },
  {
    label: "tools/list result",
    message: { jsonrpc: "2.0", id: 2, result: { tools: [{ name: "search", description: "Search", inputSchema: { type: "object", properties: { q: { type: "string" } } } }] } },
    options: answers("tools/list"),
    typed: [
      ["result", "tools"],
      ["result", "tools", 0, "name"],
      ["result", "tools", 0, "inputSchema"],
    ],
  },
  {
    label: "tools/call result",
    message: { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "hi" }], isError: false } },
    options: answers("tools/call"),
    typed: [
      ["result", "content"],
      ["result", "content", 0, "text"],
      ["result", "isError"],
    ],
  },
  {
    label: "resources/read result",
    message: { jsonrpc: "2.0", id: 4, result: { contents: [{ uri: "notes://today", mimeType: "text/plain", text: "Ship" }] } },
    options: answers("resources/read"),
    typed: [
      ["result", "contents"],
      ["result", "contents", 0, "uri"],
    ],
  },
  {
    label: "completion/complete result",
    message: { jsonrpc: "2.0", id: 5, result: { completion: { values: ["Ada"], total: 1, hasMore: false } } },
    options: answers("completion/complete"),
    typed: [
      ["result", "completion"],
      ["result", "completion", "values"],
      ["result", "completion", "hasMore"],
    ],
  },
  {
    label: "notifications/progress",
    message: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 } },
    options: { direction: "server-to-client", protocolVersion: "2025-11-25" },
    typed: [
      ["params", "progress"],
      ["params", "total"],
    ],
  },
  {
    label: "error response",
    message: { jsonrpc: "2.0", id: 6, error: { code: -32602, message: "Invalid params" } },
    options: answers("tools/call"),
    typed: [
      ["error", "code"],
      ["error", "message"],
    ],
  },
];

/** A copy with every object's keys in an order `shuffle` chooses. */
function reorder(value: unknown, shuffle: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => reorder(item, shuffle));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of shuffle(Object.keys(value))) out[key] = reorder((value as Record<string, unknown>)[key], shuffle);
  return out;
}

/** A deep copy with `at` replaced by `value`. */
function replaced(message: unknown, at: Path, value: unknown): unknown {
  const copy = structuredClone(message) as Record<string | number, unknown>;
  let target = copy;
  for (const segment of at.slice(0, -1)) target = target[segment] as Record<string | number, unknown>;
  target[at.at(-1)!] = value;
  return copy;
}

function formatPath(at: Path): string {
  return "$" + at.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}

const baseline = fc.constantFrom(...BASELINES);

/** A `_meta` key anyone may add (progressToken has a type of its own, so it is left out). */
const metaKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.string({ minLength: 1, maxLength: 8 }).filter((key) => key !== "progressToken"),
);

/** A value of a JSON type that the typed field does not have (every typed field above is one type only). */
function otherType(current: unknown): fc.Arbitrary<unknown> {
  const kinds: Array<[string, fc.Arbitrary<unknown>]> = [
    ["string", fc.string({ maxLength: 5 })],
    ["number", fc.integer()],
    ["boolean", fc.boolean()],
    ["array", fc.array(fc.integer(), { maxLength: 2 })],
    ["object", fc.constant({ unexpected: true })],
    ["null", fc.constant(null)],
  ];
  const kind = current === null ? "null" : Array.isArray(current) ? "array" : typeof current;
  return fc.oneof(...kinds.filter(([name]) => name !== kind).map(([, arbitrary]) => arbitrary));
}

describe("fuzz: the validator", () => {
  it.prop([baseline.chain((base) => fc.tuple(fc.constant(base), fc.func(fc.integer()), fc.dictionary(metaKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })))], budget(300, 3))(
    "a valid message stays valid with its keys in any order and extra _meta",
    ([base, order, extraMeta]) => {
      expect(validateMessage(base.message, base.options), `${base.label} baseline`).toEqual([]);
      const shuffle = (keys: string[]) => [...keys].sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
      const moved = reorder(base.message, shuffle) as Record<string, Record<string, unknown> | undefined>;
      const holder = moved.params ?? moved.result;
      if (holder !== undefined) holder._meta = { ...(holder._meta as object | undefined), ...extraMeta };
      expect(validateMessage(moved, base.options)).toEqual([]);
    },
    testTimeout(3),
  );

  it.prop(
    [baseline.chain((base) => fc.constantFrom(...base.typed).chain((at) => fc.tuple(fc.constant(base), fc.constant(at), otherType(at.reduce<any>((value, segment) => value[segment], base.message)))))],
    budget(300, 3),
  )(
    "a message with one field of the wrong type is reported at that field's path",
    ([base, at, value]) => {
      const problems = validateMessage(replaced(base.message, at, value), base.options);
      const path = formatPath(at);
      expect(
        problems.map((problem) => problem.path),
        `${base.label} with ${path} = ${JSON.stringify(value)}`,
      ).toContainEqual(expect.stringMatching(new RegExp(`^${path.replace(/[$.[\]]/g, "\\$&")}`)));
    },
    testTimeout(3),
  );

  it.prop(
    [
      fc.oneof(hostileMessage, fc.jsonValue({ maxDepth: 6 }), fc.string()),
      fc.constantFrom<ValidateMessageOptions["direction"]>("client-to-server", "server-to-client"),
      fc.constantFrom(undefined, "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01"),
      fc.constantFrom(undefined, "tools/call", "initialize", "constructor", "__proto__"),
    ],
    budget(500, 4),
  )(
    "any value, string or message gets a list of problems, each with a path and a message, in bounded time, and nothing thrown",
    (value, direction, protocolVersion, requestMethod) => {
      const start = performance.now();
      const problems = validateMessage(value, { direction, protocolVersion, requestMethod });
      // Only a hang guard, far above a normal check: a runaway regex would block here.
      expect(performance.now() - start).toBeLessThan(ANSWER_BOUND_MS);
      expect(Array.isArray(problems)).toBe(true);
      for (const problem of problems) {
        expect(problem.path.startsWith("$")).toBe(true);
        expect(typeof problem.message).toBe("string");
      }
    },
    testTimeout(4),
  );
});
