/**
 * The argument checks of every "wait for N" (the mock's `waitForCalls`, the driver's
 * `waitForNotification(s)`): a typo such as `{ timeout: 100 }` would otherwise be ignored and the
 * wait would run on the default timeout, failing far from the mistake.
 */
import { McpTestkitError } from "../errors.js";
import { typeLabel } from "../util/text.js";
import { unknownKeysMessage, checkValueKinds, type ValueKind } from "./spec-checks.js";

/** The longest delay setTimeout honours (a longer one fires at once). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The problem with a wait's arguments, or `undefined` when they are good. */
export function waitArgumentsProblem(
  api: string,
  count: number,
  options: unknown,
  kinds: Readonly<Record<string, ValueKind>>,
): McpTestkitError | undefined {
  if (!(Number.isInteger(count) && count >= 0)) {
    return new McpTestkitError(`${api}(): the count must be a whole number >= 0, got ${typeLabel(count)}.`);
  }
  if (options === undefined) return undefined;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    return new McpTestkitError(`${api}(): options must be an object { ${Object.keys(kinds).join(", ")} }, got ${typeLabel(options)}.`);
  }
  const record = options as Record<string, unknown>;
  const where = `${api}()'s options`;
  const unknown = Object.keys(record).filter((key) => !(key in kinds));
  if (unknown.length > 0) return new McpTestkitError(unknownKeysMessage(where, unknown, Object.keys(kinds)));
  // setTimeout fires at once for a delay past 2^31 - 1 ms, and never waits for Infinity.
  const timeoutMs = record.timeoutMs;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs >= 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
    return new McpTestkitError(`${where}: "timeoutMs" must be a number of ms from 0 to ${MAX_TIMEOUT_MS}, got ${typeLabel(timeoutMs)}.`);
  }
  try {
    checkValueKinds(record, kinds, where);
  } catch (error) {
    return error as McpTestkitError;
  }
  return undefined;
}
