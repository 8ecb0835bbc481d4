/**
 * The step checks, loaded when first needed: they are built on zod, whose import costs about
 * 100 ms, which a program that only imports the package (or only drives a server) should not
 * pay. `mockMcp()` awaits `loadStepChecks()` before it reads any step; after that the checks are
 * synchronous, as `setTool()` and the tool definitions need them.
 */
import { McpTestkitError } from "../errors.js";

type StepChecks = typeof import("./step.js");

let loaded: StepChecks | undefined;
let loading: Promise<StepChecks> | undefined;

export async function loadStepChecks(): Promise<StepChecks> {
  if (loaded !== undefined) return loaded;
  loading ??= import("./step.js").then((checks) => (loaded = checks));
  return loading;
}

/** The loaded checks; before `loadStepChecks()` has settled, an error saying so (a bug of ours, not the user's). */
export function stepChecks(): StepChecks {
  if (loaded === undefined) throw new McpTestkitError("The step checks are not loaded yet: await loadStepChecks() before a mock reads its steps (mockMcp() does).");
  return loaded;
}
