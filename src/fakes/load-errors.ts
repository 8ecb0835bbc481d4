/** The errors a load of fakes throws: one per problem, or one that lists them all. */
import { McpTestkitError } from "../errors.js";

/** Names of the load checks, stable for tests and tools. */
export type FakeLoadRule =
  | "mcp-fakes/bad-json"
  | "mcp-fakes/bad-file"
  | "mcp-fakes/bad-block"
  | "mcp-fakes/bad-scope"
  | "mcp-fakes/shared-deny"
  | "mcp-fakes/unknown-key"
  | "mcp-fakes/bad-entry"
  | "mcp-fakes/duplicate-tool"
  | "mcp-fakes/duplicate-id"
  | "mcp-fakes/duplicate-resource"
  | "mcp-fakes/duplicate-prompt"
  | "mcp-fakes/bad-regex"
  | "mcp-fakes/bad-schema"
  | "mcp-fakes/bad-pattern"
  | "mcp-fakes/bad-step";

export interface FakeLoadProblem {
  rule: FakeLoadRule;
  /** The file name, or null for blocks from code and the control API. */
  file: string | null;
  blockId: string | null;
  entryId: string | null;
  message: string;
}

/** A shadowed-entry warning: the load succeeds, the entry cannot match until an earlier one is used. */
export interface FakeLoadWarning {
  file: string | null;
  blockId: string;
  entryId: string;
  message: string;
}

/** Why an entry id cannot load: ids are unique per mount. */
export function duplicateIdText(entryId: string, where: "is already loaded" | "is used twice in this load", mount: string): string {
  return `entry id "${entryId}" ${where} on mount ${mount}; entry ids are unique per mount, so give this entry another "id"`;
}

export class FixtureLoadError extends McpTestkitError {
  override name = "FixtureLoadError";
  readonly rule: FakeLoadRule;
  readonly file: string | null;
  readonly blockId: string | null;
  readonly entryId: string | null;
  /** The rule the input breaks (the same as `rule`), so every mcp-testkit error has its `code`. */
  declare readonly code: FakeLoadRule;

  constructor(problem: FakeLoadProblem) {
    super(problem.message, { code: problem.rule });
    this.rule = problem.rule;
    this.file = problem.file;
    this.blockId = problem.blockId;
    this.entryId = problem.entryId;
  }

  toJSON(): FakeLoadProblem & { name: string } {
    return { name: this.name, rule: this.rule, file: this.file, blockId: this.blockId, entryId: this.entryId, message: this.detail };
  }
}

/** Several problems in one input: `errors` holds each, `warnings` the shadowed entries of the same input. */
export class McpFakesAddError extends FixtureLoadError {
  override name = "McpFakesAddError";
  readonly errors: FixtureLoadError[];
  readonly warnings: FakeLoadWarning[];

  constructor(problems: FakeLoadProblem[], warnings: FakeLoadWarning[]) {
    const first = problems[0];
    const lines = problems.map((problem, i) => `  ${i + 1}. ${problem.message}`).join("\n");
    super({ ...first, message: `${problems.length} problems in MCP fakes; nothing was added:\n${lines}` });
    this.errors = problems.map((problem) => new FixtureLoadError(problem));
    this.warnings = warnings;
  }
}

/** One problem throws a FixtureLoadError; several throw a McpFakesAddError listing them all. */
export function loadFailure(problems: FakeLoadProblem[], warnings: FakeLoadWarning[]): FixtureLoadError {
  return problems.length === 1 ? new FixtureLoadError(problems[0]) : new McpFakesAddError(problems, warnings);
}
