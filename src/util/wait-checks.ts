/**
 * The argument checks of every "wait for N" (the mock's `waitForCalls`, the driver's
 * `waitForNotification(s)`): a typo such as `{ timeout: 100 }` would otherwise be ignored and the
 * wait would run on the default timeout, failing far from the mistake.
 */
import { McpTestkitError } from "../errors.js";
import { typeLabel } from "./text.js";
import { unknownKeysMessage, checkValueKinds, type ValueKind } from "../engine/spec-checks.js";

/** The problem with a wait's arguments, or `undefined` when they are good. */
export function waitArgumentsProblem(
  api: string,
  count: number,
  options: unknown,
  kinds: Readonly<Record<string, ValueKind>>,
): McpTestkitError | undefined {
  if (!(Number.isInteger(count) && count >= 0)) {
    return new McpTestkitError(`${api}: the count must be a whole number >= 0, got ${typeLabel(count)}.`);
  }
  if (options === undefined) return undefined;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    return new McpTestkitError(`${api}: options must be an object { ${Object.keys(kinds).join(", ")} }, got ${typeLabel(options)}.`);
  }
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !(key in kinds));
  if (unknown.length > 0) return new McpTestkitError(unknownKeysMessage(`${api} options`, unknown, Object.keys(kinds)));
  try {
    checkValueKinds(record, kinds, `${api} options`);
  } catch (error) {
    return error as McpTestkitError;
  }
  const timeoutMs = record.timeoutMs;
  if (timeoutMs !== undefined && (timeoutMs as number) < 0) {
    return new McpTestkitError(`${api} options: "timeoutMs" must be a number of ms >= 0, got ${String(timeoutMs)}.`);
  }
  return undefined;
}
