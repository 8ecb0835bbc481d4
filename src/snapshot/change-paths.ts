/**
 * A change's path as text (`tools.search.inputSchema.properties.limit`, a segment with a dot or a
 * bracket written `["file:///a.txt"]`), and the `ignore` patterns that match paths: the same
 * syntax, with `*` for one segment and `**` for any number of them.
 */
import { McpTestkitError } from "../errors.js";

const PLAIN_SEGMENT = /^[A-Za-z0-9_$\-:/@]+$/;

/** The path as people read and write it. */
export function pathText(path: readonly string[]): string {
  let text = "";
  for (const segment of path) {
    if (PLAIN_SEGMENT.test(segment) && segment !== "*" && segment !== "**") text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** A pattern's segments: `tools.*.description` → ["tools", "*", "description"]. */
export function parsePattern(pattern: string): string[] {
  const segments: string[] = [];
  let index = 0;
  const fail = (why: string) => {
    throw new McpTestkitError(`ignore path "${pattern}" is malformed: ${why}. Write segments with dots, * for one segment, ** for any, and a name with dots as ["a.b"], e.g. tools.*.description`, {
      code: "bad_ignore_path",
    });
  };
  if (pattern.trim() === "") fail("it is empty");
  while (index < pattern.length) {
    if (pattern[index] === "[") {
      const end = pattern.indexOf('"]', index + 2);
      if (pattern[index + 1] !== '"' || end === -1) fail(`a bracket at ${index + 1} must hold a quoted name, ["name"]`);
      try {
        segments.push(JSON.parse(pattern.slice(index + 1, end + 1)) as string);
      } catch {
        fail(`the name in brackets at ${index + 1} is not a JSON string`);
      }
      index = end + 2;
      if (pattern[index] === ".") index++;
      continue;
    }
    let end = index;
    while (end < pattern.length && pattern[end] !== "." && pattern[end] !== "[") end++;
    if (end === index) fail(`an empty segment at ${index + 1}`);
    segments.push(pattern.slice(index, end));
    index = pattern[end] === "." ? end + 1 : end;
    if (pattern[end] === "." && index === pattern.length) fail("it ends with a dot");
  }
  return segments;
}

/** A test that says whether a change's path is ignored: it is, when a pattern matches the path or a path above it. */
export function ignoreMatcher(patterns: readonly string[]): (path: readonly string[]) => boolean {
  const parsed = patterns.map(parsePattern);
  if (parsed.length === 0) return () => false;
  return (path) => parsed.some((pattern) => matchesPrefix(pattern, 0, path, 0));
}

/** Whether `pattern[p..]` matches `path[i..]` or a path above it. */
function matchesPrefix(pattern: readonly string[], p: number, path: readonly string[], i: number): boolean {
  if (p === pattern.length) return true;
  const segment = pattern[p]!;
  if (segment === "**") {
    for (let skip = i; skip <= path.length; skip++) if (matchesPrefix(pattern, p + 1, path, skip)) return true;
    return false;
  }
  if (i === path.length) return false;
  return (segment === "*" || segment === path[i]) && matchesPrefix(pattern, p + 1, path, i + 1);
}
