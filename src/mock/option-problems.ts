/**
 * Every problem of a mock's options at once. The checks stop at the first problem they meet,
 * which is right for a mock that works; for one that does not, a scenario with four typos would
 * take four runs to fix. So when `mockMcp()` refuses its options, each part is checked again on
 * its own (each option, each tool, resource and prompt, the fixtures), so no problem hides another.
 * This runs only on the way to an error: a mock whose options are fine pays nothing for it.
 */
import { Catalog } from "../engine/catalog.js";
import { Engine } from "../engine/engine.js";
import { McpTestkitError, errorDetail } from "../errors.js";
import { FixtureLoadError, McpFakesAddError } from "../fakes/index.js";
import { isObject } from "../protocol/jsonrpc.js";
import { FakesBinding, type FakesBindingOptions, type FixturesOption } from "./fakes-binding.js";
import { checkMockOptions, MOCK_OPTION_KINDS } from "./option-checks.js";

/** One problem of the options: the rule it breaks (a fixture rule such as `mcp-fakes/bad-scope`, else `mcp-testkit/scenario`) and what to fix. */
export interface MockOptionProblem {
  rule: string;
  /** The fixture file, block and entry of a fixture problem; null for the options' own. */
  file: string | null;
  blockId: string | null;
  entryId: string | null;
  /** What is wrong and what to do, without the `[mcp-testkit]` prefix. */
  message: string;
}

/** The rule of a problem in the options themselves (not in a fixture file): a scenario is mockMcp() options. */
export const SCENARIO_RULE = "mcp-testkit/scenario";

/** `mockMcp()` options with more than one problem: `problems` holds each, in the order of the options. */
export class MockOptionsError extends McpTestkitError {
  override name = "MockOptionsError";
  readonly problems: readonly MockOptionProblem[];

  constructor(problems: readonly MockOptionProblem[]) {
    super(`${problems.length} problems in the mockMcp() options; fix each:\n${problems.map((problem, i) => `  ${i + 1}. ${problem.message}`).join("\n")}`);
    this.problems = problems;
  }
}

/** The problems one error stands for, each with its rule. */
export function problemsOf(error: Error): MockOptionProblem[] {
  if (error instanceof MockOptionsError) return [...error.problems];
  if (error instanceof McpFakesAddError) return error.errors.flatMap(problemsOf);
  if (error instanceof FixtureLoadError) return [{ rule: error.rule, file: error.file, blockId: error.blockId, entryId: error.entryId, message: error.detail }];
  return [{ rule: SCENARIO_RULE, file: null, blockId: null, entryId: null, message: errorDetail(error) }];
}

/** What a check of misused options throws: ours, and the range and type errors of lower parts. */
function isOptionError(error: unknown): error is Error {
  return error instanceof McpTestkitError || error instanceof TypeError || error instanceof RangeError;
}

const CATALOG_KEYS = ["tools", "resources", "prompts", "skills", "apps"] as const;

/** `make()`, or the error for every problem of `options` when it throws (see `everyProblem`). */
export function withEveryProblem<T>(options: Record<string, unknown>, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw everyProblem(options, error);
  }
}

/**
 * The error to throw for options that `first` refused: `first` itself when one part of the
 * options is wrong (its class and message unchanged), a `MockOptionsError` listing every
 * problem when several are.
 */
export function everyProblem(options: Record<string, unknown>, first: unknown): unknown {
  if (!isOptionError(first)) return first;
  const failures: Error[] = [];
  const check = (part: () => unknown) => {
    try {
      part();
    } catch (error) {
      if (!isOptionError(error)) throw error;
      failures.push(error);
    }
  };
  // The unknown keys together, as one problem that names each; then each known option alone.
  const unknown = Object.entries(options).filter(([key]) => !Object.hasOwn(MOCK_OPTION_KINDS, key));
  if (unknown.length > 0) check(() => checkMockOptions(Object.fromEntries(unknown)));
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(MOCK_OPTION_KINDS, key) || key === "fixtures" || key === "fakesOptions" || (CATALOG_KEYS as readonly string[]).includes(key)) continue;
    check(() => {
      checkMockOptions({ [key]: value });
      new Engine({ [key]: value });
    });
  }
  for (const key of CATALOG_KEYS) {
    const entries = options[key];
    if (entries === undefined) continue;
    if (!isObject(entries)) check(() => new Catalog({ [key]: entries }));
    else for (const [name, spec] of Object.entries(entries)) check(() => new Catalog({ [key]: { [name]: spec } }));
  }
  const fakes = (fakesOptions: unknown) => new FakesBinding(new Engine(), "/mcp", () => undefined, fakesOptions as FakesBindingOptions);
  const before = failures.length;
  if (options.fakesOptions !== undefined) check(() => (checkMockOptions({ fakesOptions: options.fakesOptions }), fakes(options.fakesOptions)));
  // The fixtures with default fakes options when their own are wrong: that problem is said once.
  const fakesOptions = failures.length === before ? options.fakesOptions : undefined;
  if (options.fixtures !== undefined) {
    // Each path or block alone, on one binding (so blocks from code keep their numbers).
    const binding = fakes(fakesOptions);
    for (const item of Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures]) check(() => binding.loadOption(item as FixturesOption));
  }
  // One part wrong (or a problem only the whole shows): the first error says it best.
  if (failures.length <= 1) return first;
  return new MockOptionsError(failures.flatMap(problemsOf));
}
