/**
 * The driver's checks of what it is given, before anything is spawned or sent: its options, and
 * each call's options (a misspelled `{ timeout: 300 }` is named, with the closest key).
 */
import { traceOptionsOf } from "../trace/trace-log.js";
import { McpTestkitError } from "../errors.js";
import { checkKeys, checkValueKinds } from "../engine/spec-checks.js";
import { timerMsProblem } from "../util/timer-ms.js";
import { typeLabel } from "../util/text.js";
import { checkNegotiation } from "./discover-negotiation.js";
import type { DriverOptions } from "./options.js";
import type { CallOptions } from "./request-types.js";
import { checkRoots } from "./server-requests.js";

/** What a call's options may hold, and of what kind. */
const CALL_OPTION_KINDS = { timeoutMs: "number", signal: "object", onProgress: "function", onServerRequest: "function" } as const;

/** Throws for a call's options the driver would not read (`{ timeout: 300 }`) or could not honour, naming the closest key. */
export function checkCallOptions(options: unknown, api: string): void {
  const where = `${api}()'s options`;
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new McpTestkitError(`${where} must be an object { timeoutMs?, signal?, onProgress?, onServerRequest? }, got ${typeLabel(options)}.`);
  checkKeys(options, Object.keys(CALL_OPTION_KINDS), where);
  const { timeoutMs } = options as CallOptions;
  const problem = timeoutMs === undefined ? undefined : timerMsProblem("timeoutMs", timeoutMs, { min: 1 });
  if (problem !== undefined) throw new McpTestkitError(`${where}: ${problem}.`);
  checkValueKinds(options as Record<string, unknown>, CALL_OPTION_KINDS, where);
}

/** Throws a McpTestkitError for bad driver options (before anything is spawned). */
export function checkOptions(options: DriverOptions): void {
  const timeoutProblem = options.requestTimeout === undefined ? undefined : timerMsProblem("requestTimeout", options.requestTimeout, { min: 1 });
  if (timeoutProblem !== undefined) throw new McpTestkitError(`${timeoutProblem}.`);
  if (options.roots !== undefined) checkRoots(options.roots);
  checkNegotiation(options);
  traceOptionsOf(options.trace, "the driver's option");
  const rounds = options.maxInputRounds;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 1000)) {
    throw new McpTestkitError(`maxInputRounds must be an integer from 1 to 1000, got ${String(rounds)}.`);
  }
  if (options.observers !== undefined && !Array.isArray(options.observers)) {
    throw new McpTestkitError(`observers must be an array of observer objects, got ${typeof options.observers}.`);
  }
  if (options.followListChanges !== undefined && typeof options.followListChanges !== "boolean") {
    throw new McpTestkitError(`followListChanges must be true or false, got ${typeof options.followListChanges}.`);
  }
  if (options.traceContext !== undefined && typeof options.traceContext !== "boolean") {
    throw new McpTestkitError(`traceContext must be true or false, got ${typeof options.traceContext}.`);
  }
  for (const name of ["onSampling", "onElicitation"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw new McpTestkitError(`${name} must be a function (params) => result, got ${typeof options[name]}.`);
    }
  }
}
