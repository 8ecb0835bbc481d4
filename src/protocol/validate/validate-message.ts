/**
 * Per-method, per-version validation: the envelope first, then params (requests, notifications)
 * or result (responses, given the request's method) against that revision's MCP schema.
 */
import { isObject } from "../jsonrpc.js";
import { isKnownVersion, KNOWN_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, versionHas, type Feature, type ProtocolVersion } from "../versions.js";
import { describeValue } from "../../util/text.js";
import { checkEnvelope } from "./envelope.js";
import { httpHeaderProblems } from "./http-header-checks.js";
import { formatJsonPath, type PathSegment } from "./json-path.js";
import { extensionResultProblems } from "./extension-checks.js";
import { isInputMethod } from "../methods.js";
import { featuresOfMethod, lookupMethod, methodsSentBy, oppositeDirection, senderOf, unavailableMethodMessage, type MethodKind } from "./method-catalog.js";
import type { MessageDirection, ValidateMessageOptions, ValidationProblem } from "./problem.js";
import { readJsonInput } from "./read-json-input.js";
import { issuesOf, type Schema } from "./schemas/combinators.js";
import { featureProblemMessage } from "./schemas/kit.js";
import { schemasFor } from "./schemas/schema-set.js";
import { translateZodIssues } from "./zod-issues.js";

/**
 * Checks one JSON-RPC message (or a JSON string of one) as sent in `direction` under
 * `protocolVersion`. Returns every problem found; an empty list means valid.
 */
export function validateMessage(message: unknown, options: ValidateMessageOptions): ValidationProblem[] {
  let value = message;
  if (typeof message === "string") {
    const input = readJsonInput(message);
    if (!input.ok) return [{ path: "$", message: input.problem, rule: "json.parse" }];
    value = input.value;
  }
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  if (!isKnownVersion(version)) {
    // Without that revision's schema only the JSON-RPC envelope can be judged.
    const unknown: ValidationProblem = {
      path: "$",
      rule: "version.unknown",
      message: `expected a protocol version this validator knows (${KNOWN_PROTOCOL_VERSIONS.join(", ")}); got ${describeValue(version)}; only the JSON-RPC envelope was checked`,
    };
    return [unknown, ...checkEnvelope(value, [], version).problems];
  }
  const problems = Array.isArray(value) ? validateBatch(value, options.direction, version) : validateOne(value, [], options.direction, version, options.requestMethod);
  if (options.headers !== undefined) problems.push(...httpHeaderProblems(value, { ...options, headers: options.headers }, version));
  return problems;
}

function validateBatch(batch: unknown[], direction: MessageDirection, version: ProtocolVersion): ValidationProblem[] {
  if (!versionHas(version, "jsonRpcBatches")) {
    return [{ path: "$", rule: "version.feature", message: featureProblemMessage("jsonRpcBatches", version) }];
  }
  if (batch.length === 0) return [{ path: "$", rule: "jsonrpc.message", message: "expected at least one message in a batch; got an empty array" }];
  // Responses in a batch answer different requests, so only their envelopes are checked.
  return batch.flatMap((item, index) => validateOne(item, [index], direction, version, undefined));
}

function validateOne(value: unknown, prefix: readonly PathSegment[], direction: MessageDirection, version: ProtocolVersion, requestMethod: string | undefined): ValidationProblem[] {
  const envelope = checkEnvelope(value, prefix, version);
  const problems = envelope.problems;
  if (envelope.kind === undefined || !isObject(value)) return problems;
  const schemas = schemasFor(version);

  if (envelope.kind === "response") {
    if (value.error !== undefined) checkErrorData(value.error, prefix, schemas.errorData, problems);
    if (requestMethod === undefined || !isObject(value.result)) return problems;
    // The request travelled the other way.
    const methodProblem = checkMethod(requestMethod, oppositeDirection(direction), "request", version, prefix, "requestMethod");
    if (methodProblem) return [...problems, methodProblem];
    const envelopeSchema = schemas.modern.resultEnvelope(requestMethod);
    if (envelopeSchema) parseWith(envelopeSchema, value.result, prefix, "result", "result.shape", problems);
    // An input_required result (MRTR) is not the method's result yet: it has its own shape.
    const asksForInput = envelopeSchema !== undefined && value.result.resultType === "input_required" && isInputMethod(requestMethod);
    const schema = asksForInput ? schemas.modern.inputRequiredResult : schemas.results.get(requestMethod);
    if (schema) parseAgain(schema, value.result, prefix, "result", "result.shape", problems);
    if (!asksForInput) problems.push(...extensionResultProblems(requestMethod, value.result, prefix));
    return problems;
  }

  if (typeof value.method !== "string") return problems;
  const methodProblem = checkMethod(value.method, direction, envelope.kind, version, prefix, "method");
  if (methodProblem) return [...problems, methodProblem];
  // An envelope problem with params (not an object) has been reported already.
  const schema = schemas.params.get(value.method);
  if (schema && (value.params === undefined || isObject(value.params))) {
    parseWith(schema, value.params, prefix, "params", "params.shape", problems);
  }
  // 2026-07-28: every client request names its version, capabilities and client in `_meta`.
  const requestEnvelope = schemas.modern.requestEnvelope;
  if (requestEnvelope && envelope.kind === "request" && direction === "client-to-server" && (value.params === undefined || isObject(value.params))) {
    parseAgain(requestEnvelope, value.params, prefix, "params", "params.shape", problems);
  }
  return problems;
}

/** `parseWith` for a second schema over the same value: what the first found already is not added again. */
function parseAgain(schema: Schema, value: unknown, prefix: readonly PathSegment[], key: "params" | "result", rule: "params.shape" | "result.shape", problems: ValidationProblem[]): void {
  const found: ValidationProblem[] = [];
  parseWith(schema, value, prefix, key, rule, found);
  if (found.length === 0) return;
  const seen = new Set(problems.map((problem) => `${problem.path} ${problem.message}`));
  problems.push(...found.filter((problem) => !seen.has(`${problem.path} ${problem.message}`)));
}

/** Adds to `problems` what `schema` finds wrong with `value`, the member `key` of the message at `prefix`. */
function parseWith(schema: Schema, value: unknown, prefix: readonly PathSegment[], key: "params" | "result", rule: "params.shape" | "result.shape", problems: ValidationProblem[]): void {
  const issues = issuesOf(schema, value);
  if (issues.length > 0) problems.push(...translateZodIssues(issues, [...prefix, key], rule));
}

/** Error codes that promise a `data` shape (e.g. -32042 lists the URL elicitations to complete). */
function checkErrorData(error: unknown, prefix: readonly PathSegment[], errorData: ReadonlyMap<number, Schema>, problems: ValidationProblem[]): void {
  if (!isObject(error) || typeof error.code !== "number") return;
  const schema = errorData.get(error.code);
  if (!schema) return;
  const issues = issuesOf(schema, error.data);
  if (issues.length > 0) problems.push(...translateZodIssues(issues, [...prefix, "error", "data"], "error.data"));
}

/** Whether `direction`'s side may send `method` as a `kind` in `version`; a problem if not. */
function checkMethod(
  method: string,
  direction: MessageDirection,
  kind: MethodKind,
  version: ProtocolVersion,
  prefix: readonly PathSegment[],
  where: "method" | "requestMethod",
): ValidationProblem | undefined {
  const lookup = lookupMethod(method, direction, kind);
  const sender = senderOf(direction);
  // A loop, not find(): this runs for every message, and a callback per call is garbage per call.
  let feature: Feature | undefined;
  for (const needed of featuresOfMethod(method, sender)) {
    if (versionHas(version, needed)) continue;
    feature = needed;
    break;
  }
  if (lookup.found === "yes" && feature === undefined) return undefined;
  // requestMethod is an option, not part of the message, so its problems sit at the message root.
  const path = formatJsonPath(where === "method" ? [...prefix, "method"] : prefix);
  const label = where === "method" ? "" : "requestMethod: ";
  if (lookup.found === "other-kind") {
    const name = JSON.stringify(method);
    const message =
      where === "requestMethod"
        ? `${label}${name} is a notification, and notifications get no response`
        : lookup.kind === "notification"
          ? `${name} is a notification; expected no "id"`
          : `${name} is a request; expected an "id"`;
    return { path, rule: "method.kind", message };
  }
  if (lookup.found !== "yes") {
    const known = methodsSentBy(direction, kind, version)
      .map((name) => JSON.stringify(name))
      .join(", ");
    const why = lookup.found === "other-direction" ? `${JSON.stringify(method)} is not sent by the ${sender}` : `unknown method ${JSON.stringify(method)}`;
    return { path, rule: "method.unknown", message: `${label}${why}; expected one of the ${sender}'s ${kind}s: ${known}` };
  }
  // A method this side may send, but its version lacks the feature (so `feature` is set).
  return { path, rule: "version.feature", message: `${label}${JSON.stringify(method)} is not available: ${unavailableMethodMessage(method, sender, feature!, version)}` };
}
