/**
 * A path-level comparison of two JSON answers, as `verifyRecording` needs it: what differs and
 * where (`result.content.0.text`), with paths to ignore (ids, timestamps, `_meta`, the user's own)
 * and arrays whose order does not matter compared as bags.
 */
import { McpTestkitError } from "../errors.js";

/** One difference: at `path`, the recorded value (`expected`) and the live one (`actual`); a side is absent when the value is. */
export interface AnswerDifference {
  path: string;
  kind: "changed" | "added" | "removed";
  expected?: unknown;
  actual?: unknown;
}

export interface AnswerDiffOptions {
  /**
   * Paths left out of the comparison: dot-separated keys from the answer's root
   * (`result.structuredContent.requestId`, `error.message`), `*` for any one key or index, and a
   * leading `**.` for a key at any depth (`**.createdAt`).
   */
  ignore?: readonly string[];
  /** Arrays compared without regard to order: `true` for every array, or the paths of those arrays (same syntax as `ignore`). */
  unorderedArrays?: boolean | readonly string[];
}

/**
 * What is ignored unless `defaults: false`: `_meta` anywhere, and keys that name an id or a
 * time, which a live server gives anew each time. Two date-time strings also count as equal.
 */
export const DEFAULT_IGNORE: readonly string[] = ["**._meta", "**.id", "**.requestId", "**.timestamp", "**.createdAt", "**.updatedAt", "**.date", "**.time"];

/** ISO 8601 date-times (`2026-07-28T10:00:00Z`, with or without fraction and offset): a live server stamps anew. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

interface PathRule {
  anyDepth: boolean;
  segments: readonly string[];
  text: string;
}

/** Reads path rules, refusing a malformed one with what a path looks like. */
export function parsePathRules(paths: readonly string[], option: string): PathRule[] {
  return paths.map((text) => {
    const anyDepth = text.startsWith("**.");
    const segments = (anyDepth ? text.slice(3) : text).split(".");
    if (text.trim() === "" || segments.some((segment) => segment === "" || segment === "**")) {
      throw new McpTestkitError(
        `${option}: ${JSON.stringify(text)} is not a path. Expected dot-separated keys from the answer's root, such as result.structuredContent.requestId, result.content.*.text or **.createdAt (a key at any depth).`,
      );
    }
    return { anyDepth, segments, text };
  });
}

function matches(rule: PathRule, path: readonly string[]): boolean {
  const fits = (offset: number) => rule.segments.every((segment, index) => segment === "*" || segment === path[offset + index]);
  if (!rule.anyDepth) return path.length === rule.segments.length && fits(0);
  const offset = path.length - rule.segments.length;
  return offset >= 0 && fits(offset);
}

/** The differences between a recorded answer and a live one; none when they agree. */
export function diffAnswers(expected: unknown, actual: unknown, options: { ignore: readonly PathRule[]; unordered: boolean | readonly PathRule[] }): AnswerDifference[] {
  const differences: AnswerDifference[] = [];
  const ignored = (path: readonly string[]) => options.ignore.some((rule) => matches(rule, path));
  const unordered = (path: readonly string[]) => options.unordered === true || (Array.isArray(options.unordered) && options.unordered.some((rule) => matches(rule, path)));

  const walk = (left: unknown, right: unknown, path: string[], out: AnswerDifference[]): void => {
    if (path.length > 0 && ignored(path)) return;
    const where = path.join(".");
    if (Array.isArray(left) && Array.isArray(right)) {
      if (unordered(path)) return bag(left, right, path, out);
      const length = Math.max(left.length, right.length);
      for (let index = 0; index < length; index++) {
        const at = [...path, String(index)];
        if (index >= right.length) {
          if (!ignored(at)) out.push({ path: at.join("."), kind: "removed", expected: left[index] });
        } else if (index >= left.length) {
          if (!ignored(at)) out.push({ path: at.join("."), kind: "added", actual: right[index] });
        } else walk(left[index], right[index], at, out);
      }
      return;
    }
    if (isObject(left) && isObject(right)) {
      for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
        const at = [...path, key];
        if (!(key in right)) {
          if (!ignored(at)) out.push({ path: at.join("."), kind: "removed", expected: left[key] });
        } else if (!(key in left)) {
          if (!ignored(at)) out.push({ path: at.join("."), kind: "added", actual: right[key] });
        } else walk(left[key], right[key], at, out);
      }
      return;
    }
    if (Object.is(left, right)) return;
    if (typeof left === "string" && typeof right === "string" && DATE_TIME.test(left) && DATE_TIME.test(right)) return;
    out.push({ path: where, kind: "changed", expected: left, actual: right });
  };

  /** Each recorded item finds a live one equal to it (under the same rules); the rest were removed or added. */
  const bag = (left: unknown[], right: unknown[], path: string[], out: AnswerDifference[]): void => {
    const unused = new Set(right.map((_, index) => index));
    const unmatched: number[] = [];
    left.forEach((item, index) => {
      const found = [...unused].find((candidate) => {
        const trial: AnswerDifference[] = [];
        walk(item, right[candidate], [...path, String(index)], trial);
        return trial.length === 0;
      });
      if (found === undefined) unmatched.push(index);
      else unused.delete(found);
    });
    for (const index of unmatched) out.push({ path: [...path, String(index)].join("."), kind: "removed", expected: left[index] });
    for (const index of unused) out.push({ path: [...path, String(index)].join("."), kind: "added", actual: right[index] });
  };

  walk(expected, actual, [], differences);
  return differences;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
