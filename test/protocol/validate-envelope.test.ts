/** validateMessage: the JSON-RPC envelope as MCP narrows it, input forms, JSON paths, versions, batches. */
import { describe, expect, it } from "vitest";
import { validateMessage } from "../../src/protocol/index.js";
import { fromClient, fromServer, notification, request, response, serverAnswers } from "./messages.js";

describe("validateMessage: input", () => {
  it("takes a JSON string or a parsed value", () => {
    const ping = request("ping");
    expect(validateMessage(JSON.stringify(ping), fromClient())).toEqual([]);
    expect(validateMessage(ping, fromClient())).toEqual([]);
  });

  it("reports text that is not JSON as one json.parse problem", () => {
    const problems = validateMessage("{", fromClient());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "$", rule: "json.parse" });
    expect(problems[0]!.message).toMatch(/^not valid JSON: /);
  });

  it("reports a value that is not a message object", () => {
    expect(validateMessage(42, fromClient())).toEqual([{ path: "$", rule: "jsonrpc.message", message: "expected a JSON-RPC message (an object); got 42" }]);
    expect(validateMessage(null, fromClient())).toEqual([{ path: "$", rule: "jsonrpc.message", message: "expected a JSON-RPC message (an object); got null" }]);
  });

  it("reports an object that is neither request, notification nor response", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1 }, fromClient())).toEqual([
      {
        path: "$",
        rule: "jsonrpc.message",
        message: 'expected "method" (a request or notification) or "result"/"error" (a response); got an object with none of them',
      },
    ]);
  });

  it("reports a message that is both a request and a response", () => {
    expect(validateMessage({ ...request("ping"), result: {} }, fromClient())).toEqual([
      { path: "$", rule: "jsonrpc.message", message: 'expected "method" (a request or notification) or "result"/"error" (a response), not both' },
    ]);
  });
});

describe("validateMessage: envelope rules", () => {
  it('jsonrpc.version: "2.0" is required', () => {
    expect(validateMessage({ ...request("ping"), jsonrpc: "1.0" }, fromClient())).toEqual([{ path: "$.jsonrpc", rule: "jsonrpc.version", message: 'expected "2.0"; got "1.0"' }]);
    expect(validateMessage({ id: 1, method: "ping" }, fromClient())).toEqual([{ path: "$.jsonrpc", rule: "jsonrpc.version", message: 'required field "jsonrpc" is missing; expected "2.0"' }]);
  });

  it("jsonrpc.method: method must be a string", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1, method: 5 }, fromClient())).toEqual([{ path: "$.method", rule: "jsonrpc.method", message: "expected a string; got 5" }]);
  });

  it("jsonrpc.id: MCP requests never use a null id", () => {
    expect(validateMessage(request("ping", undefined, null as never), fromClient())).toEqual([
      { path: "$.id", rule: "jsonrpc.id", message: "expected a string or a number (MCP requests never use a null id); got null" },
    ]);
    expect(validateMessage(request("ping", undefined, "req-1"), fromClient())).toEqual([]);
    expect(validateMessage({ jsonrpc: "2.0", id: [1], method: "ping" }, fromClient())).toEqual([{ path: "$.id", rule: "jsonrpc.id", message: "expected a string or a number; got an array" }]);
  });

  it("jsonrpc.params: params are always a named object in MCP", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: ["search"] }, fromClient())).toEqual([
      { path: "$.params", rule: "jsonrpc.params", message: "expected an object (MCP params are always named); got an array" },
    ]);
  });

  it("jsonrpc.response: exactly one of result and error; result is an object", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } }, fromServer())).toEqual([
      { path: "$", rule: "jsonrpc.response", message: 'expected exactly one of "result" and "error"; got both' },
    ]);
    expect(validateMessage(response("done"), fromServer())).toEqual([{ path: "$.result", rule: "jsonrpc.response", message: 'expected an object; got "done"' }]);
  });

  it("jsonrpc.id: a result response needs a string or number id", () => {
    expect(validateMessage({ jsonrpc: "2.0", result: {} }, fromServer())).toEqual([{ path: "$.id", rule: "jsonrpc.id", message: 'required field "id" is missing; expected a string or a number' }]);
    expect(validateMessage({ jsonrpc: "2.0", id: null, result: {} }, fromServer())).toEqual([
      { path: "$.id", rule: "jsonrpc.id", message: "expected a string or a number (only an error response may have a null id); got null" },
    ]);
  });

  it("jsonrpc.id: an error response may have a null id, and from 2025-11-25 none", () => {
    const error = { code: -32700, message: "Parse error" };
    expect(validateMessage({ jsonrpc: "2.0", id: null, error }, fromServer("2024-11-05"))).toEqual([]);
    expect(validateMessage({ jsonrpc: "2.0", error }, fromServer("2025-11-25"))).toEqual([]);
    expect(validateMessage({ jsonrpc: "2.0", error }, fromServer("2025-06-18"))).toEqual([
      { path: "$.id", rule: "jsonrpc.id", message: 'required field "id" is missing; expected a string, a number or null' },
    ]);
    expect(validateMessage({ jsonrpc: "2.0", id: true, error }, fromServer())).toEqual([{ path: "$.id", rule: "jsonrpc.id", message: "expected a string, a number or null; got true" }]);
  });

  it("jsonrpc.error: an integer code and a string message", () => {
    expect(validateMessage({ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: 2 } }, fromServer())).toEqual([
      { path: "$.error.code", rule: "jsonrpc.error", message: "expected an integer; got 1.5" },
      { path: "$.error.message", rule: "jsonrpc.error", message: "expected a string; got 2" },
    ]);
    expect(validateMessage({ jsonrpc: "2.0", id: 1, error: {} }, fromServer())).toEqual([
      { path: "$.error.code", rule: "jsonrpc.error", message: 'required field "code" is missing; expected an integer' },
      { path: "$.error.message", rule: "jsonrpc.error", message: 'required field "message" is missing; expected a string' },
    ]);
    expect(validateMessage({ jsonrpc: "2.0", id: 1, error: "boom" }, fromServer())).toEqual([
      { path: "$.error", rule: "jsonrpc.error", message: 'expected an object with an integer "code" and a string "message"; got "boom"' },
    ]);
  });

  it("without requestMethod a response is checked as an envelope only", () => {
    expect(validateMessage(response({ tools: "not a list" }), fromServer())).toEqual([]);
    expect(validateMessage(response({ tools: "not a list" }), serverAnswers("tools/list"))).toEqual([{ path: "$.result.tools", rule: "result.shape", message: 'expected an array; got "not a list"' }]);
  });
});

describe("validateMessage: versions", () => {
  it("defaults to the latest protocol version", () => {
    const withIcons = response({ tools: [{ name: "x", inputSchema: { type: "object" }, icons: [{ src: "https://example.com/x.png" }] }] });
    expect(validateMessage(withIcons, serverAnswers("tools/list"))).toEqual([]);
    expect(validateMessage(withIcons, serverAnswers("tools/list", "2025-06-18"))).toHaveLength(1);
  });

  it("version.unknown: an unknown version is one problem, and only the envelope is checked", () => {
    expect(validateMessage({ ...request("made/up"), jsonrpc: "1.0" }, fromClient("2030-01-01"))).toEqual([
      {
        path: "$",
        rule: "version.unknown",
        message: 'expected a protocol version this validator knows (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28); got "2030-01-01"; only the JSON-RPC envelope was checked',
      },
      { path: "$.jsonrpc", rule: "jsonrpc.version", message: 'expected "2.0"; got "1.0"' },
    ]);
  });
});

describe("validateMessage: JSON-RPC batches", () => {
  const batch = [request("ping", undefined, 1), notification("notifications/initialized"), { jsonrpc: "2.0", id: 3, method: "tools/call" }];

  it("validates each message of a batch in 2025-03-26, with indexed paths", () => {
    expect(validateMessage(batch, fromClient("2025-03-26"))).toEqual([{ path: "$[2].params", rule: "params.shape", message: 'required field "params" is missing; expected an object' }]);
  });

  it("reports an empty batch", () => {
    expect(validateMessage([], fromClient("2025-03-26"))).toEqual([{ path: "$", rule: "jsonrpc.message", message: "expected at least one message in a batch; got an empty array" }]);
  });

  it("reports batches in versions without them, both before and after 2025-03-26", () => {
    for (const version of ["2024-11-05", "2025-06-18", "2025-11-25"]) {
      expect(validateMessage(batch, fromClient(version))).toEqual([
        {
          path: "$",
          rule: "version.feature",
          message: `protocol version ${version} does not have JSON-RPC batches (feature "jsonRpcBatches", only from 2025-03-26 up to, not including, 2025-06-18)`,
        },
      ]);
    }
  });
});

describe("validateMessage: JSON paths", () => {
  it("quotes keys that are not plain identifiers and indexes arrays", () => {
    const result = {
      content: [
        { type: "text", text: "ok", _meta: { "io.example/x": 1 } },
        { type: "text", text: "ok", _meta: "x" },
      ],
    };
    expect(validateMessage(response(result), serverAnswers("tools/call"))).toEqual([{ path: "$.result.content[1]._meta", rule: "result.shape", message: 'expected an object; got "x"' }]);
    const args = { name: "x", arguments: { a: 1 }, _meta: { progressToken: true } };
    expect(validateMessage(request("tools/call", args), fromClient())).toEqual([{ path: "$.params._meta.progressToken", rule: "params.shape", message: "expected a string or a number; got true" }]);
    const prompt = { name: "p", arguments: { "first name": 3 } };
    expect(validateMessage(request("prompts/get", prompt), fromClient())).toEqual([{ path: '$.params.arguments["first name"]', rule: "params.shape", message: "expected a string; got 3" }]);
  });
});
