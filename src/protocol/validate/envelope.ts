/** JSON-RPC 2.0 envelope checks as MCP narrows them (named params only, no null request ids). */
import { isObject } from "../jsonrpc.js";
import { versionHas, type ProtocolVersion } from "../versions.js";
import { describeValue } from "../../util/text.js";
import { formatJsonPath, type PathSegment } from "./json-path.js";
import type { ValidationProblem, ValidationRule } from "./problem.js";

export type EnvelopeKind = "request" | "notification" | "response";

export interface EnvelopeCheck {
  /** What the message is, when that can be told at all. */
  kind?: EnvelopeKind;
  problems: ValidationProblem[];
}

export function checkEnvelope(value: unknown, prefix: readonly PathSegment[], version: ProtocolVersion): EnvelopeCheck {
  const problems: ValidationProblem[] = [];
  const report = (rule: ValidationRule, segments: PathSegment[], message: string) => problems.push({ path: formatJsonPath([...prefix, ...segments]), message, rule });

  if (!isObject(value)) {
    report("jsonrpc.message", [], `expected a JSON-RPC message (an object); got ${describeValue(value)}`);
    return { problems };
  }
  if (value.jsonrpc !== "2.0") {
    report("jsonrpc.version", ["jsonrpc"], value.jsonrpc === undefined ? 'required field "jsonrpc" is missing; expected "2.0"' : `expected "2.0"; got ${describeValue(value.jsonrpc)}`);
  }
  const hasId = value.id !== undefined;
  const hasResult = value.result !== undefined;
  const hasError = value.error !== undefined;

  if (value.method !== undefined) {
    if (typeof value.method !== "string") report("jsonrpc.method", ["method"], `expected a string; got ${describeValue(value.method)}`);
    if (hasId && typeof value.id !== "string" && typeof value.id !== "number") {
      const note = value.id === null ? " (MCP requests never use a null id)" : "";
      report("jsonrpc.id", ["id"], `expected a string or a number${note}; got ${describeValue(value.id)}`);
    }
    if (value.params !== undefined && !isObject(value.params)) {
      report("jsonrpc.params", ["params"], `expected an object (MCP params are always named); got ${describeValue(value.params)}`);
    }
    if (hasResult || hasError) {
      report("jsonrpc.message", [], 'expected "method" (a request or notification) or "result"/"error" (a response), not both');
    }
    return { kind: hasId ? "request" : "notification", problems };
  }

  if (!hasResult && !hasError) {
    report("jsonrpc.message", [], 'expected "method" (a request or notification) or "result"/"error" (a response); got an object with none of them');
    return { problems };
  }
  if (hasResult && hasError) report("jsonrpc.response", [], 'expected exactly one of "result" and "error"; got both');
  if (hasResult) {
    if (!isObject(value.result)) report("jsonrpc.response", ["result"], `expected an object; got ${describeValue(value.result)}`);
    if (!hasId) report("jsonrpc.id", ["id"], 'required field "id" is missing; expected a string or a number');
    else if (typeof value.id !== "string" && typeof value.id !== "number") {
      const note = value.id === null ? " (only an error response may have a null id)" : "";
      report("jsonrpc.id", ["id"], `expected a string or a number${note}; got ${describeValue(value.id)}`);
    }
  } else {
    // JSON-RPC answers with a null id when it could not read the request's; 2025-11-25 also allows none.
    if (!("id" in value) && !versionHas(version, "errorWithoutId")) {
      report("jsonrpc.id", ["id"], 'required field "id" is missing; expected a string, a number or null');
    } else if (hasId && value.id !== null && typeof value.id !== "string" && typeof value.id !== "number") {
      report("jsonrpc.id", ["id"], `expected a string, a number or null; got ${describeValue(value.id)}`);
    }
  }
  if (hasError) checkErrorObject(value.error, (segments, message) => report("jsonrpc.error", ["error", ...segments], message));
  return { kind: "response", problems };
}

function checkErrorObject(error: unknown, report: (segments: PathSegment[], message: string) => void): void {
  if (!isObject(error)) return report([], `expected an object with an integer "code" and a string "message"; got ${describeValue(error)}`);
  if (error.code === undefined) report(["code"], 'required field "code" is missing; expected an integer');
  else if (!Number.isInteger(error.code)) report(["code"], `expected an integer; got ${describeValue(error.code)}`);
  if (error.message === undefined) report(["message"], 'required field "message" is missing; expected a string');
  else if (typeof error.message !== "string") report(["message"], `expected a string; got ${describeValue(error.message)}`);
}
