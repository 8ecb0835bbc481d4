/**
 * `skills/list`, `skills/get` and `resources/directory/read` (SEP-2640), served from the
 * catalog's skills. Skill files themselves are read with `resources/read`, as any resource.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { DIRECTORY_MIME_TYPE, DIRECTORY_READ, SKILL_SCHEME, SKILLS_GET, skillDirectoryOf } from "../../protocol/skills.js";
import { closest } from "../../util/closest.js";
import type { Catalog } from "../catalog.js";
import { RpcError } from "../outcome.js";
import { paginate } from "../pagination.js";
import { ok, type RequestHandler } from "../methods/handler-input.js";
import { requireString } from "../methods/params.js";

export const listSkills: RequestHandler = (input) => {
  // A page ends between entries: an entry and its file list are never split.
  const entries = [...input.state.catalog.skills.values()].map((skill) => skill.entry);
  const { page, nextCursor } = paginate(entries, input.params.cursor, input.state.pageSize);
  return ok(input, nextCursor === undefined ? { skills: page } : { skills: page, nextCursor });
};

export const getSkill: RequestHandler = (input) => {
  const uri = requireString(input.params, "uri", SKILLS_GET);
  const skill = input.state.catalog.skills.get(uri);
  if (skill === undefined) throw unknownSkill(uri, input.state.catalog);
  return ok(input, { skill: skill.entry });
};

export const readDirectory: RequestHandler = (input) => {
  const uri = requireString(input.params, "uri", DIRECTORY_READ).replace(/\/+$/, "");
  const catalog = input.state.catalog;
  const children = directoryChildren(catalog, uri);
  if (children === undefined) {
    const isFile = catalog.resources.has(uri);
    const near = closest(uri, directories(catalog));
    const hint = isFile ? `${uri} is a file, not a directory; read it with resources/read` : `no directory ${uri}${near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`}`;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${DIRECTORY_READ}: ${hint}`, { uri });
  }
  const { page, nextCursor } = paginate(children, input.params.cursor, input.state.pageSize);
  return ok(input, nextCursor === undefined ? { resources: page } : { resources: page, nextCursor });
};

/** The direct children of the directory `uri` inside a skill (files, then subdirectories as `inode/directory`), or undefined if it is none. */
function directoryChildren(catalog: Catalog, uri: string): Record<string, unknown>[] | undefined {
  const owner = [...catalog.skills.values()].find((skill) => {
    const root = `${SKILL_SCHEME}${skill.path}`;
    return uri === root || uri.startsWith(`${root}/`);
  });
  if (owner === undefined) return undefined;
  const prefix = `${uri}/`;
  const files: Record<string, unknown>[] = [];
  const subdirectories = new Map<string, Record<string, unknown>>();
  for (const fileUri of owner.files.keys()) {
    if (!fileUri.startsWith(prefix)) continue;
    const rest = fileUri.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) files.push(catalog.resources.get(fileUri)?.listing ?? { uri: fileUri, name: rest });
    else {
      const name = rest.slice(0, slash);
      if (!subdirectories.has(name)) subdirectories.set(name, { uri: `${prefix}${name}`, name, mimeType: DIRECTORY_MIME_TYPE });
    }
  }
  return files.length + subdirectories.size === 0 ? undefined : [...files, ...subdirectories.values()];
}

/** Every directory the skills have: each skill's own, and those inside it. */
function directories(catalog: Catalog): string[] {
  const found = new Set<string>();
  for (const skill of catalog.skills.values()) {
    const root = skillDirectoryOf(skill.entry.uri)!;
    found.add(root);
    for (const fileUri of skill.files.keys()) for (let dir = fileUri.slice(0, fileUri.lastIndexOf("/")); dir.length > root.length; dir = dir.slice(0, dir.lastIndexOf("/"))) found.add(dir);
  }
  return [...found];
}

/** -32602 for a URI that names no skill, with the closest the mock serves. */
function unknownSkill(uri: string, catalog: Catalog): RpcError {
  const known = [...catalog.skills.keys()];
  const near = closest(uri, known);
  const asDirectory = catalog.skills.has(`${uri.replace(/\/+$/, "")}/SKILL.md`) ? `; a skill is named by its SKILL.md URI: ${uri.replace(/\/+$/, "")}/SKILL.md` : "";
  const hint = asDirectory || (near === undefined ? (known.length === 0 ? "; the server serves no skills" : "") : `; did you mean ${JSON.stringify(near)}?`);
  return new RpcError(ErrorCode.InvalidParams, `Unknown skill: ${uri}${hint}`, { uri });
}
