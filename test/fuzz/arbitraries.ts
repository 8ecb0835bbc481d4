/**
 * What a hostile client sends: names that live on `Object.prototype`, values of every JSON type
 * where an object was expected, envelopes broken one field at a time, and long URIs built from
 * the characters URI template matching cares about.
 */
import { fc } from "@fast-check/vitest";
import { ClientRequestMethods } from "../../src/protocol/index.js";

/** Names a plain object answers without owning them. */
export const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
] as const;

/** The scenario the properties run against: one of each kind, with names a fuzzer may hit. */
export const KNOWN = {
  tools: ["echo", "weather"],
  prompts: ["greet"],
  resources: ["notes://today"],
  templates: ["search://q{?term,limit}", "repo://{owner}/{name}", "file:///{+path}"],
  promptArguments: ["name", "tone"],
};

/** Every request a client may send, and the notifications the engine acts on. */
export const METHODS = [...ClientRequestMethods, "notifications/initialized", "notifications/cancelled"] as const;

const json = fc.jsonValue({ maxDepth: 2 });

/** A name a client could send: known ones, prototype ones, and anything. */
export const hostileName = (known: readonly string[] = []) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) }, { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : fc.string() }, fc.string({ maxLength: 12 }));

/** An object keyed by hostile names, or something that is not an object at all. */
export const hostileObject = (known: readonly string[] = []) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(hostileName(known), fc.oneof(fc.string({ maxLength: 8 }), json), { maxKeys: 4 }) },
    fc.constant(null),
    fc.string({ maxLength: 8 }),
    fc.array(json, { maxLength: 3 }),
    fc.integer(),
  );

/** The characters the query expression and the simple expressions split on. */
const URI_PIECES = ["?", "&", "=", "#", "/", ",", "a", "?a", "a=", "?a=", "&b=", "%", "%zz", "+", "."];

/** A long URI as its parts (so a failure prints a short recipe, not a megabyte): a prefix, a short pattern repeated, a tail. */
export interface UriRecipe {
  prefix: string;
  pattern: string;
  repeat: number;
  tail: string;
}

export const uriRecipe = (maxRepeat: number): fc.Arbitrary<UriRecipe> =>
  fc.record({
    // Weighted toward what a query expression splits on, where backtracking used to hide.
    prefix: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("search://q", "search://q?term=x") }, fc.constantFrom("repo://", "repo://o/", "file:///", "notes://", "")),
    pattern: fc.array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom("?", "?a=", "a=", "&b=") }, fc.constantFrom(...URI_PIECES)), { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join("")),
    // Mostly long: the cost of matching shows at length.
    repeat: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: maxRepeat / 4, max: maxRepeat }) }, fc.integer({ min: 1, max: 50 })),
    tail: fc.oneof({ weight: 2, arbitrary: fc.constantFrom("#", "&") }, fc.constantFrom("", "&x", "/", "?")),
  });

export const buildUri = ({ prefix, pattern, repeat, tail }: UriRecipe): string => prefix + pattern.repeat(repeat) + tail;

/** A URI that may be long, built from a recipe. */
export const longUri = (maxRepeat: number) => uriRecipe(maxRepeat).map(buildUri);

/** Params for `method`, mostly shaped the way it expects, with hostile names and values inside. */
export function paramsFor(method: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 8, arbitrary: shapedParams(method) }, fc.constant(undefined), hostileObject(["_meta", "cursor", "name"]));
}

/** Params shaped the way `method` expects them, with hostile names and values where names and values go. */
export function shapedParams(method: string): fc.Arbitrary<Record<string, unknown>> {
  return (() => {
    switch (method) {
      case "initialize":
        return fc.record(
          { protocolVersion: fc.oneof(fc.constantFrom("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"), fc.string()), capabilities: hostileObject(), clientInfo: hostileObject() },
          { requiredKeys: [] },
        );
      case "logging/setLevel":
        return fc.record({ level: fc.oneof(fc.constantFrom("debug", "error"), hostileName()) }, { requiredKeys: [] });
      case "tools/call":
        return fc.record({ name: hostileName(KNOWN.tools), arguments: hostileObject(["city", "text"]), _meta: hostileObject(["progressToken"]) }, { requiredKeys: ["name"] });
      case "resources/read":
      case "resources/subscribe":
      case "resources/unsubscribe":
        return fc.record({ uri: fc.oneof(hostileName(KNOWN.resources), longUri(200)) });
      case "prompts/get":
        return fc.record({ name: hostileName(KNOWN.prompts), arguments: hostileObject(KNOWN.promptArguments) }, { requiredKeys: ["name"] });
      case "completion/complete":
        return fc.record(
          {
            ref: fc.oneof(
              { weight: 2, arbitrary: fc.record({ type: fc.constant("ref/prompt"), name: hostileName(KNOWN.prompts) }) },
              { weight: 2, arbitrary: fc.record({ type: fc.constant("ref/resource"), uri: hostileName(KNOWN.templates) }) },
              hostileObject(["type", "name", "uri"]),
            ),
            argument: fc.oneof(
              { weight: 3, arbitrary: fc.record({ name: hostileName([...KNOWN.promptArguments, "owner", "term"]), value: fc.string({ maxLength: 4 }) }) },
              hostileObject(["name", "value"]),
            ),
            context: fc.record({ arguments: hostileObject(KNOWN.promptArguments) }, { requiredKeys: [] }),
          },
          { requiredKeys: ["ref", "argument"] },
        );
      case "notifications/cancelled":
        return fc.record({ requestId: fc.oneof(fc.integer(), fc.string(), json), reason: json }, { requiredKeys: [] });
      default:
        return fc.record({ cursor: fc.oneof(fc.string({ maxLength: 8 }), json) }, { requiredKeys: [] });
    }
  })() as fc.Arbitrary<Record<string, unknown>>;
}

/** A request whose envelope is right, so the hostility is all in its params. */
export const wellFormedRequest: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.constantFrom(...ClientRequestMethods), fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.string({ maxLength: 6 })))
  .chain(([method, id]) => shapedParams(method).map((params) => ({ jsonrpc: "2.0", id, method, params })));

/** A JSON-RPC id, or something that is not one. */
export const anyId = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
  fc.string({ maxLength: 6 }),
  fc.constant(null),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.double(),
);

/** A message a hostile client might send: usually close to a valid request, sometimes anything. */
export const hostileMessage: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({
        method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS) }, hostileName(), json),
        jsonrpc: fc.oneof({ weight: 10, arbitrary: fc.constant("2.0") }, fc.constant("1.0"), json),
        hasJsonrpc: fc.oneof({ weight: 10, arbitrary: fc.constant(true) }, fc.constant(false)),
        id: fc.option(anyId, { freq: 6, nil: undefined }),
      })
      .chain(({ method, jsonrpc, hasJsonrpc, id }) =>
        (typeof method === "string" ? paramsFor(method) : fc.constant(undefined)).map((params) => {
          const message: Record<string, unknown> = { method };
          if (hasJsonrpc) message.jsonrpc = jsonrpc;
          if (id !== undefined) message.id = id;
          if (params !== undefined) message.params = params;
          return message;
        }),
      ),
  },
  // Responses to requests the mock never sent, and values that are not messages at all.
  fc.record({ jsonrpc: fc.constant("2.0"), id: anyId, result: json }, { requiredKeys: [] }),
  json,
);

/** The text of a body: usually JSON of a hostile message, sometimes bytes that are not JSON. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: hostileMessage.map((message) => JSON.stringify(message) ?? "null") },
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "{", "[", "[]", "{}", "null", '{"__proto__":{"jsonrpc":"2.0"}}', "\u0000", "\ufeff{}"),
);

/** A request with one hostile name where the method takes a client's name, the rest of it valid. */
export const nameInPlace: fc.Arbitrary<Record<string, unknown>> = hostileName().chain((name) =>
  fc
    .constantFrom<Record<string, unknown>[]>(
      [{ method: "tools/call", params: { name, arguments: {} } }],
      [{ method: "tools/call", params: { name: "echo", arguments: { [name]: 1 } } }],
      [{ method: "prompts/get", params: { name } }],
      [{ method: "prompts/get", params: { name: "greet", arguments: { name: "Ada", [name]: "x" } } }],
      [{ method: "completion/complete", params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name, value: "" } } }],
      [{ method: "completion/complete", params: { ref: { type: "ref/resource", uri: "repo://{owner}/{name}" }, argument: { name, value: "" } } }],
      [{ method: "completion/complete", params: { ref: { type: "ref/prompt", name }, argument: { name: "name", value: "" } } }],
      [{ method: "resources/read", params: { uri: name } }],
      [{ method: "resources/read", params: { uri: `search://q?${name}=1` } }],
      [{ method: "logging/setLevel", params: { level: name } }],
      [{ method: name }],
    )
    .map(([request]) => ({ jsonrpc: "2.0", id: 1, ...JSON.parse(JSON.stringify(request!)) })),
);
