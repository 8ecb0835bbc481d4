/**
 * How the CLI prints the problems of a fixture file or a scenario, in `validate` and in `mock`
 * alike: one line each, `  <rule>: <what is wrong and what to do>.`. The rule comes first
 * because it is what a user searches the docs for.
 */
import type { MockOptionProblem } from "../../mock/option-problems.js";

/** `  rule: message.`, one line per problem (a message of several lines keeps them, indented under it). */
export function problemLines(problems: readonly Pick<MockOptionProblem, "rule" | "message">[]): string[] {
  return problems.map((problem) => `  ${problem.rule}: ${asSentence(problem.message).replaceAll("\n", "\n  ")}`);
}

/** Ends the first line with a full stop (the lines under it, such as a JSON excerpt with a caret, stay as they are). */
function asSentence(message: string): string {
  const [first = "", ...rest] = message.trimEnd().split("\n");
  return [/[.!?]$/.test(first) ? first : `${first}.`, ...rest].join("\n");
}
