/**
 * The argument checks of every "wait for N" (the mock's `waitForCalls`, the driver's
 * `waitForNotification(s)`): a typo such as `{ timeout: 100 }` would otherwise be ignored and the
 * wait would run on the default timeout, failing far from the mistake.
 */
import { McpTestkitError } from "../errors.js";
import { typeLabel } from "../util/text.js";
import { timerMsProblem } from "../util/timer-ms.js";
import { unknownKeysMessage, checkValueKinds, type ValueKind } from "./spec-checks.js";

/** The problem with a wait's arguments, or `undefined` when they are good. */
export function waitArgumentsProblem(api: string, count: number, options: unknown, kinds: Readonly<Record<string, ValueKind>>): McpTestkitError | undefined {
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
  const timeoutProblem = record.timeoutMs === undefined ? undefined : timerMsProblem("timeoutMs", record.timeoutMs);
  if (timeoutProblem !== undefined) return new McpTestkitError(`${where}: ${timeoutProblem}.`);
  try {
    checkValueKinds(record, kinds, where);
  } catch (error) {
    return error as McpTestkitError;
  }
  return undefined;
}
