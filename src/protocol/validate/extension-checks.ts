/**
 * What the extensions the validator knows add to results: MCP Apps (a tool's `_meta.ui`, a
 * `ui://` view's MIME type and `_meta.ui`) and Skills (the entries of `skills/list` and
 * `skills/get`, the children of `resources/directory/read`). Shapes the core schema leaves open
 * (`_meta`) or does not have (the extension's methods) are checked here, after it.
 */
import { APP_MIME_TYPE, APP_SCHEME, resourceUiProblems, toolUiProblems, type AppProblem } from "../apps.js";
import { isObject } from "../jsonrpc.js";
import { DIRECTORY_READ, SKILL_DIGEST_PATTERN, SKILLS_GET, SKILLS_LIST } from "../skills.js";
import { formatJsonPath, type PathSegment } from "./json-path.js";
import type { ValidationProblem } from "./problem.js";

type Json = Record<string, unknown>;

/** Problems in `result`, the answer to `method`, that the extensions' shapes find. */
export function extensionResultProblems(method: string, result: Json, prefix: readonly PathSegment[]): ValidationProblem[] {
  const at = [...prefix, "result"];
  const problems: ValidationProblem[] = [];
  const add = (path: PathSegment[], message: string) => problems.push({ path: formatJsonPath([...at, ...path]), message, rule: "result.shape" });
  const addAll = (path: PathSegment[], found: AppProblem[]) => {
    for (const problem of found) add([...path, ...problem.path], problem.message);
  };
  const each = (key: string, check: (item: Json, path: PathSegment[]) => void) => {
    if (!Array.isArray(result[key])) return;
    (result[key] as unknown[]).forEach((item, i) => {
      if (isObject(item)) check(item, [key, i]);
    });
  };
  const view = (item: Json, path: PathSegment[]) => {
    if (typeof item.uri === "string" && item.uri.startsWith(APP_SCHEME) && item.mimeType !== undefined && item.mimeType !== APP_MIME_TYPE) {
      add([...path, "mimeType"], `a ${APP_SCHEME} view must be served as "${APP_MIME_TYPE}"; got ${JSON.stringify(item.mimeType)}`);
    }
    const ui = isObject(item._meta) ? item._meta.ui : undefined;
    if (ui !== undefined && item.mimeType === APP_MIME_TYPE) addAll([...path, "_meta", "ui"], resourceUiProblems(ui));
  };
  switch (method) {
    case "tools/list":
      each("tools", (tool, path) => {
        const ui = isObject(tool._meta) ? tool._meta.ui : undefined;
        if (ui !== undefined) addAll([...path, "_meta", "ui"], toolUiProblems(ui));
      });
      break;
    case "resources/list":
      each("resources", view);
      break;
    case "resources/read":
      each("contents", view);
      break;
    case SKILLS_LIST:
      if (!Array.isArray(result.skills)) add(["skills"], "expected the list of skill entries");
      each("skills", (entry, path) => skillEntryProblems(entry, path, add));
      break;
    case SKILLS_GET:
      if (!isObject(result.skill)) add(["skill"], "expected the skill's entry { uri, frontmatter, resources }");
      else skillEntryProblems(result.skill, ["skill"], add);
      if (result.nextCursor !== undefined) add(["nextCursor"], "skills/get answers one entry, which is not a list: no nextCursor");
      break;
    case DIRECTORY_READ:
      if (!Array.isArray(result.resources)) add(["resources"], "expected the directory's children");
      each("resources", (child, path) => {
        if (typeof child.uri !== "string") add([...path, "uri"], "expected the child's URI");
      });
      break;
  }
  return problems;
}

function skillEntryProblems(entry: Json, path: PathSegment[], add: (path: PathSegment[], message: string) => void): void {
  if (typeof entry.uri !== "string") add([...path, "uri"], "expected the URI of the skill's SKILL.md");
  const frontmatter = entry.frontmatter;
  if (!isObject(frontmatter)) add([...path, "frontmatter"], "expected SKILL.md's frontmatter as an object with name and description");
  else
    for (const key of ["name", "description"]) {
      if (typeof frontmatter[key] !== "string" || frontmatter[key] === "") add([...path, "frontmatter", key], "expected a non-empty string (the Agent Skills specification requires it)");
    }
  if (entry.resources === "dynamic") return;
  if (!Array.isArray(entry.resources)) {
    add([...path, "resources"], 'expected the skill\'s files [{ uri, digest, size }], or "dynamic"');
    return;
  }
  entry.resources.forEach((file: unknown, i) => {
    const at = [...path, "resources", i];
    if (!isObject(file)) return add(at, "expected { uri, digest, size }");
    if (typeof file.uri !== "string") add([...at, "uri"], "expected the file's URI");
    if (typeof file.digest !== "string" || !SKILL_DIGEST_PATTERN.test(file.digest)) add([...at, "digest"], `expected "sha256:" and 64 lowercase hex digits; got ${JSON.stringify(file.digest)}`);
    if (!Number.isInteger(file.size) || (file.size as number) < 0) add([...at, "size"], `expected the file's length in bytes, a whole number; got ${JSON.stringify(file.size)}`);
  });
}
