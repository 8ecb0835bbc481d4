/**
 * Turns zod issues into ValidationProblems: a JSON path and our own "expected …; got …" text.
 * zod's default wording never reaches users; custom issues carry our message and rule in `params`.
 */
import type { z } from "zod";
import { describeOptions, describeValue } from "../../util/text.js";
import { formatJsonPath, type PathSegment } from "./json-path.js";
import type { ValidationProblem, ValidationRule } from "./problem.js";

type Issue = z.core.$ZodIssue;

/** Stands for "the key was absent" in issues re-raised from nested parses (see combinators). */
export const MISSING: unique symbol = Symbol("missing value");

/** What our custom issues carry in `params`. */
export interface CustomIssueParams {
  rule?: ValidationRule;
  /** Set when a required value is absent: what it should have been. */
  missingExpected?: string;
}

export function translateZodIssues(issues: readonly Issue[], prefix: readonly PathSegment[], defaultRule: ValidationRule): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  for (const issue of issues) translateIssue(issue, prefix, defaultRule, problems);
  return problems;
}

function translateIssue(issue: Issue, prefix: readonly PathSegment[], defaultRule: ValidationRule, out: ValidationProblem[]): void {
  const segments = [...prefix, ...issue.path.map((key) => (typeof key === "number" ? key : String(key)))];
  if (issue.code === "invalid_union" && !isSimpleUnion(issue.errors)) {
    // Report the branch that came closest instead of every branch's complaints.
    for (const inner of closestBranch(issue.errors)) translateIssue(inner, segments, defaultRule, out);
    return;
  }
  if (issue.code === "custom") {
    const params = (issue.params ?? {}) as CustomIssueParams;
    const message = params.missingExpected !== undefined ? missingMessage(segments, params.missingExpected) : issue.message;
    out.push({ path: formatJsonPath(segments), message, rule: params.rule ?? defaultRule });
    return;
  }
  const input = inputOf(issue);
  const expected = expectation(issue);
  const message = input === MISSING ? missingMessage(segments, expected) : `expected ${expected}; got ${describeGot(issue, input)}`;
  out.push({ path: formatJsonPath(segments), message, rule: defaultRule });
}

function inputOf(issue: Issue): unknown {
  const input = "input" in issue ? issue.input : MISSING;
  return input === undefined ? MISSING : input;
}

function missingMessage(segments: readonly PathSegment[], expected: string): string {
  const key = segments.at(-1);
  const name = typeof key === "string" ? `field ${JSON.stringify(key)}` : key === undefined ? "value" : `item [${key}]`;
  return `required ${name} is missing; expected ${expected}`;
}

/** zod's type names in our words; a name not listed here reads "a valid value", never zod's own. */
const typeNames: Record<string, string> = {
  // zod's word for "present" (a required key whose schema takes any value).
  nonoptional: "any JSON value",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  record: "an object",
  array: "an array",
  null: "null",
};

function expectation(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return Object.hasOwn(typeNames, issue.expected) ? typeNames[issue.expected]! : "a valid value";
    case "invalid_value":
      return describeOptions(issue.values);
    case "invalid_union":
      return joinAlternatives(issue.errors.map((branch) => expectation(branch[0]!)));
    case "too_small":
      return boundText(issue.origin, "at least", issue.inclusive === false ? ">" : ">=", issue.minimum);
    case "too_big":
      return boundText(issue.origin, "at most", issue.inclusive === false ? "<" : "<=", issue.maximum);
    case "invalid_format":
      return issue.format === "base64" ? "base64-encoded data" : `a string in ${issue.format} format`;
    default:
      return "a valid value";
  }
}

function boundText(origin: string, words: string, operator: string, bound: number | bigint): string {
  if (origin === "array" || origin === "set") return `${words} ${bound} items`;
  if (origin === "string") return `${words} ${bound} characters`;
  return `a number ${operator} ${bound}`;
}

function describeGot(issue: Issue, input: unknown): string {
  if ((issue.code === "too_small" || issue.code === "too_big") && (Array.isArray(input) || typeof input === "string")) {
    return Array.isArray(input) ? `${input.length} items` : `${input.length} characters`;
  }
  return describeValue(input);
}

/** A union where every branch failed on the value itself by type or literal: "a string or a number". */
function isSimpleUnion(branches: readonly (readonly Issue[])[]): boolean {
  return branches.every((branch) => branch.length === 1 && branch[0]!.path.length === 0 && (branch[0]!.code === "invalid_type" || branch[0]!.code === "invalid_value"));
}

function closestBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] {
  const depth = (branch: readonly Issue[]) => Math.max(0, ...branch.map((issue) => issue.path.length));
  return [...branches].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0] ?? [];
}

function joinAlternatives(options: readonly string[]): string {
  return options.length <= 1 ? (options[0] ?? "") : `${options.slice(0, -1).join(", ")} or ${options.at(-1)}`;
}
