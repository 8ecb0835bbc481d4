/**
 * The JSON-RPC shape checks, with the names and results of tnsai's McpSchemaValidator, so tests
 * written against it run unchanged (no method or params meaning; `validateMessage` does that). Each returns problem texts,
 * empty when valid.
 */
import { isObject } from "../jsonrpc.js";
import { describeValue } from "../../util/text.js";
import { readJsonInput } from "./read-json-input.js";

/** Parses; `jsonrpc` is "2.0"; `method` a string; `id`, if present, a number, string or null; `params`, if present, an object or array. */
export function validateRequest(json: string | object): string[] {
  return withObject(json, "a JSON-RPC request", (message) => {
    const problems = checkJsonRpcVersion(message);
    if (!("method" in message)) problems.push('"method" is missing');
    else if (typeof message.method !== "string") problems.push(`"method" must be a string; got ${describeValue(message.method)}`);
    if ("id" in message && !isSeedRequestId(message.id)) {
      problems.push(`"id" must be a number, string or null; got ${describeValue(message.id)}`);
    }
    if ("params" in message && (typeof message.params !== "object" || message.params === null)) {
      problems.push(`"params" must be an object or array; got ${describeValue(message.params)}`);
    }
    return problems;
  });
}

/** Parses; `jsonrpc` is "2.0"; `id` present; exactly one of `result` and `error`; `error` an object with an integer `code` and a string `message`. */
export function validateResponse(json: string | object): string[] {
  return withObject(json, "a JSON-RPC response", (message) => {
    const problems = checkJsonRpcVersion(message);
    if (!("id" in message)) problems.push('"id" is missing');
    const hasResult = "result" in message;
    const hasError = "error" in message;
    if (hasResult && hasError) problems.push('a response must have exactly one of "result" and "error"; got both');
    if (!hasResult && !hasError) problems.push('a response must have exactly one of "result" and "error"; got neither');
    if (hasError) problems.push(...checkErrorObject(message.error));
    return problems;
  });
}

/** An object with a non-blank string `name`; `description`, if present, a string; `inputSchema`, if present, an object with a `type`. */
export function validateToolDefinition(node: string | object): string[] {
  return withObject(node, "a tool definition", (tool) => {
    const problems: string[] = [];
    if (typeof tool.name !== "string" || tool.name.trim() === "") {
      problems.push(`"name" must be a non-blank string; got ${describeValue(tool.name)}`);
    }
    if ("description" in tool && typeof tool.description !== "string") {
      problems.push(`"description" must be a string; got ${describeValue(tool.description)}`);
    }
    if ("inputSchema" in tool) {
      if (!isObject(tool.inputSchema)) problems.push(`"inputSchema" must be an object; got ${describeValue(tool.inputSchema)}`);
      else if (!("type" in tool.inputSchema)) problems.push('"inputSchema" must have a "type"');
    }
    return problems;
  });
}

/** Validates as a request if there is a `method`, as a response if there is a `result` or `error`; false otherwise. */
export function isValid(json: string | object): boolean {
  const input = readJsonInput(json);
  if (!input.ok || !isObject(input.value)) return false;
  if ("method" in input.value) return validateRequest(input.value).length === 0;
  if ("result" in input.value || "error" in input.value) return validateResponse(input.value).length === 0;
  return false;
}

function withObject(json: unknown, what: string, check: (value: Record<string, unknown>) => string[]): string[] {
  const input = readJsonInput(json);
  if (!input.ok) return [input.problem];
  if (!isObject(input.value)) return [`expected ${what} (a JSON object); got ${describeValue(input.value)}`];
  return check(input.value);
}

function checkJsonRpcVersion(message: Record<string, unknown>): string[] {
  return message.jsonrpc === "2.0" ? [] : [`"jsonrpc" must be "2.0"; got ${describeValue(message.jsonrpc)}`];
}

function isSeedRequestId(id: unknown): boolean {
  return id === null || typeof id === "string" || typeof id === "number";
}

function checkErrorObject(error: unknown): string[] {
  if (!isObject(error)) return [`"error" must be an object; got ${describeValue(error)}`];
  const problems: string[] = [];
  if (!Number.isInteger(error.code)) problems.push(`"error.code" must be an integer; got ${describeValue(error.code)}`);
  if (typeof error.message !== "string") problems.push(`"error.message" must be a string; got ${describeValue(error.message)}`);
  return problems;
}
