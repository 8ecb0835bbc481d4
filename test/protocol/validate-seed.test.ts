/** Seed 000 parity: exactly the checks tnsai's McpSchemaValidator documents, one pass and one fail each. */
import { describe, expect, it } from "vitest";
import { isValid, validateRequest, validateResponse, validateToolDefinition } from "../../src/protocol/index.js";

function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  throw new Error("expected a parse error");
}

describe("validateRequest", () => {
  const valid = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

  it("accepts a request as a JSON string or as an object", () => {
    expect(validateRequest(JSON.stringify(valid))).toEqual([]);
    expect(validateRequest(valid)).toEqual([]);
  });

  it("reports text that does not parse", () => {
    expect(validateRequest("{not json")).toEqual([parseErrorOf("{not json")]);
  });

  it("reports JSON that is not an object", () => {
    expect(validateRequest("[1,2]")).toEqual(["expected a JSON-RPC request (a JSON object); got an array"]);
  });

  it('requires jsonrpc "2.0"', () => {
    expect(validateRequest({ ...valid, jsonrpc: "1.0" })).toEqual(['"jsonrpc" must be "2.0"; got "1.0"']);
    expect(validateRequest({ id: 1, method: "x" })).toEqual(['"jsonrpc" must be "2.0"; got nothing']);
  });

  it("requires a string method", () => {
    expect(validateRequest({ jsonrpc: "2.0", id: 1 })).toEqual(['"method" is missing']);
    expect(validateRequest({ ...valid, method: 42 })).toEqual(['"method" must be a string; got 42']);
  });

  it("allows an id that is a number, a string or null, or no id", () => {
    for (const id of [7, "abc", null]) expect(validateRequest({ ...valid, id })).toEqual([]);
    expect(validateRequest({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual([]);
    expect(validateRequest({ ...valid, id: true })).toEqual(['"id" must be a number, string or null; got true']);
    expect(validateRequest({ ...valid, id: { n: 1 } })).toEqual(['"id" must be a number, string or null; got an object']);
  });

  it("allows params that are an object or an array", () => {
    expect(validateRequest({ ...valid, params: [1, 2] })).toEqual([]);
    expect(validateRequest({ ...valid, params: "x" })).toEqual(['"params" must be an object or array; got "x"']);
    expect(validateRequest({ ...valid, params: null })).toEqual(['"params" must be an object or array; got null']);
  });

  it("does not check that the method is an MCP method or that params fit it (seed 000)", () => {
    expect(validateRequest({ jsonrpc: "2.0", id: 1, method: "made/up", params: { anything: true } })).toEqual([]);
  });

  it("lists every problem at once", () => {
    expect(validateRequest({ jsonrpc: 2, id: false, method: null, params: 3 })).toEqual([
      '"jsonrpc" must be "2.0"; got 2',
      '"method" must be a string; got null',
      '"id" must be a number, string or null; got false',
      '"params" must be an object or array; got 3',
    ]);
  });
});

describe("validateResponse", () => {
  const valid = { jsonrpc: "2.0", id: 1, result: {} };

  it("accepts result and error responses, as strings or objects", () => {
    expect(validateResponse(JSON.stringify(valid))).toEqual([]);
    expect(validateResponse({ jsonrpc: "2.0", id: "a", error: { code: -32601, message: "Method not found" } })).toEqual([]);
  });

  it("reports text that does not parse", () => {
    expect(validateResponse("")).toEqual([parseErrorOf("")]);
  });

  it('requires jsonrpc "2.0"', () => {
    expect(validateResponse({ ...valid, jsonrpc: "2" })).toEqual(['"jsonrpc" must be "2.0"; got "2"']);
  });

  it("requires an id (null counts as present)", () => {
    expect(validateResponse({ jsonrpc: "2.0", result: {} })).toEqual(['"id" is missing']);
    expect(validateResponse({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })).toEqual([]);
  });

  it("requires exactly one of result and error", () => {
    expect(validateResponse({ jsonrpc: "2.0", id: 1 })).toEqual(['a response must have exactly one of "result" and "error"; got neither']);
    expect(validateResponse({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } })).toEqual(['a response must have exactly one of "result" and "error"; got both']);
  });

  it("requires error to be an object with an integer code and a string message", () => {
    expect(validateResponse({ jsonrpc: "2.0", id: 1, error: "boom" })).toEqual(['"error" must be an object; got "boom"']);
    expect(validateResponse({ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } })).toEqual(['"error.code" must be an integer; got 1.5']);
    expect(validateResponse({ jsonrpc: "2.0", id: 1, error: { code: "-32600", message: "x" } })).toEqual(['"error.code" must be an integer; got "-32600"']);
    expect(validateResponse({ jsonrpc: "2.0", id: 1, error: { code: -32600 } })).toEqual(['"error.message" must be a string; got nothing']);
  });

  it("does not look inside result (seed 000)", () => {
    expect(validateResponse({ jsonrpc: "2.0", id: 1, result: "not an object" })).toEqual([]);
  });
});

describe("validateToolDefinition", () => {
  const valid = { name: "search", description: "Search issues", inputSchema: { type: "object" } };

  it("accepts a full and a minimal definition", () => {
    expect(validateToolDefinition(valid)).toEqual([]);
    expect(validateToolDefinition({ name: "x" })).toEqual([]);
    expect(validateToolDefinition(JSON.stringify(valid))).toEqual([]);
  });

  it("requires an object", () => {
    expect(validateToolDefinition("null")).toEqual(["expected a tool definition (a JSON object); got null"]);
  });

  it("requires a non-blank string name", () => {
    expect(validateToolDefinition({ ...valid, name: "   " })).toEqual(['"name" must be a non-blank string; got "   "']);
    expect(validateToolDefinition({ description: "d" })).toEqual(['"name" must be a non-blank string; got nothing']);
    expect(validateToolDefinition({ name: 5 })).toEqual(['"name" must be a non-blank string; got 5']);
  });

  it("requires description, if present, to be a string", () => {
    expect(validateToolDefinition({ ...valid, description: ["a"] })).toEqual(['"description" must be a string; got an array']);
  });

  it("requires inputSchema, if present, to be an object with a type", () => {
    expect(validateToolDefinition({ ...valid, inputSchema: "object" })).toEqual(['"inputSchema" must be an object; got "object"']);
    expect(validateToolDefinition({ ...valid, inputSchema: { properties: {} } })).toEqual(['"inputSchema" must have a "type"']);
  });
});

describe("isValid", () => {
  it("validates as a request when there is a method", () => {
    expect(isValid('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toBe(true);
    expect(isValid({ jsonrpc: "2.0", id: 1, method: 3 })).toBe(false);
  });

  it("validates as a response when there is a result or an error", () => {
    expect(isValid({ jsonrpc: "2.0", id: 1, result: {} })).toBe(true);
    expect(isValid({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "x" } })).toBe(true);
    expect(isValid({ jsonrpc: "2.0", id: 1, error: { code: "x", message: "x" } })).toBe(false);
  });

  it("is false for anything else", () => {
    expect(isValid({ jsonrpc: "2.0", id: 1 })).toBe(false);
    expect(isValid("not json")).toBe(false);
    expect(isValid("42")).toBe(false);
  });
});
