/**
 * Skills as a mock is given them (the `skills` option, a scenario's `skills`), checked and
 * turned into what the wire carries: the skill entry of `skills/list` (digest and size of each
 * file's bytes) and the files, served as `skill://` resources. A skill may be made to lie about
 * itself (`listed`), so a test can check that a host verifies what it reads.
 */
import { McpTestkitError } from "../../errors.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { FrontmatterError, readSkillMd, writeSkillMd } from "../../protocol/skill-frontmatter.js";
import { SKILL_DIGEST_PATTERN, SKILL_MD, SKILL_MD_MIME_TYPE, SKILL_SCHEME, skillDigest, skillMdUri, skillNameProblem, skillSize, type SkillEntry, type SkillFileEntry } from "../../protocol/skills.js";
import { typeLabel } from "../../util/text.js";
import type { ResourceDefinition } from "../catalog.js";
import { checkKeys, checkValueKinds, type ValueKind } from "../spec-checks.js";

type Json = Record<string, unknown>;

export interface SkillDefinition {
  /** SKILL.md's `description`: what the skill does and when to use it. Required unless `skillMd` is given. */
  description?: string;
  /** More frontmatter fields (`license`, `metadata`, `allowed-tools` …); `name` is the last segment of the skill's path. */
  frontmatter?: Json;
  /** SKILL.md's markdown, after the frontmatter. */
  body?: string;
  /** The whole SKILL.md as is, instead of `description`, `frontmatter` and `body`: its frontmatter is read for the listing. */
  skillMd?: string;
  /** The skill's other files, by their path inside it (`"references/FORMS.md"`): a text, or bytes. */
  files?: Record<string, string | Uint8Array>;
  /** `"dynamic"`: the entry lists no files (`resources: "dynamic"`); they are still served. Default `"listed"`. */
  manifest?: "listed" | "dynamic";
  /** The entry's `_meta`. */
  _meta?: Json;
  /**
   * What the listing claims where it is not the truth, to test that a host verifies what it
   * reads: another `frontmatter`, or another `digest` or `size` for a file (by its path, `"SKILL.md"` for SKILL.md).
   */
  listed?: { frontmatter?: Json; files?: Record<string, { digest?: string; size?: number }> };
}

/** A skill: its whole SKILL.md text, or a definition. Keyed by its path (`"pdf-processing"`, `"acme/billing/refunds"`). */
export type SkillSpec = string | SkillDefinition;

/** One skill, ready to serve. */
export interface SkillRecord {
  /** Its path, the URI's part between `skill://` and `/SKILL.md`. */
  readonly path: string;
  readonly entry: SkillEntry;
  /** Every file, by URI, as a resource of the catalog. */
  readonly files: ReadonlyMap<string, ResourceDefinition>;
}

const KINDS: Record<keyof SkillDefinition, ValueKind | undefined> = {
  description: "string",
  frontmatter: "object",
  body: "string",
  skillMd: "string",
  files: "object",
  manifest: undefined, // checked below
  _meta: "object",
  listed: "object",
};

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  ts: "text/x-typescript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  html: "text/html",
  csv: "text/csv",
};

export function normalizeSkill(path: string, spec: SkillSpec): SkillRecord {
  const where = `Skill "${path}"`;
  const name = checkSkillPath(path, where);
  const definition: SkillDefinition = typeof spec === "string" ? { skillMd: spec } : spec;
  if (!isObject(definition as unknown)) throw new McpTestkitError(`${where} must be its SKILL.md text or a definition { description, body?, files? }, got ${typeLabel(spec)}.`);
  checkKeys(definition, Object.keys(KINDS), where);
  checkValueKinds(definition as Json, KINDS, where);
  if (definition.manifest !== undefined && definition.manifest !== "listed" && definition.manifest !== "dynamic") {
    throw new McpTestkitError(`${where}: "manifest" must be "listed" or "dynamic", got ${typeLabel(definition.manifest)}.`);
  }
  const { frontmatter, text } = skillMdOf(definition, name, where);
  const uri = skillMdUri(path);
  const files = new Map<string, ResourceDefinition>();
  const manifest: SkillFileEntry[] = [];
  const listedFiles = listedOverrides(definition.listed, where);
  const add = (relative: string, content: string | Uint8Array, resource: ResourceDefinition) => {
    const fileUri = relative === SKILL_MD ? uri : `${SKILL_SCHEME}${path}/${relative}`;
    const claimed = listedFiles[relative];
    manifest.push({ uri: fileUri, digest: claimed?.digest ?? skillDigest(content), size: claimed?.size ?? skillSize(content) });
    files.set(fileUri, { ...resource, size: skillSize(content), ...(typeof content === "string" ? { text: content } : { blob: content }) });
  };
  add(SKILL_MD, text, { name: frontmatter.name, description: frontmatter.description, mimeType: SKILL_MD_MIME_TYPE });
  for (const [relative, content] of Object.entries(definition.files ?? {})) {
    checkFilePath(relative, where);
    if (typeof content !== "string" && !(content instanceof Uint8Array)) throw new McpTestkitError(`${where}: file "${relative}" must be a text or bytes (Uint8Array), got ${typeLabel(content)}.`);
    add(relative, content, { name: relative, mimeType: typeof content === "string" ? mimeTypeOf(relative) : "application/octet-stream" });
  }
  for (const relative of Object.keys(listedFiles)) {
    if (relative !== SKILL_MD && definition.files?.[relative] === undefined)
      throw new McpTestkitError(`${where}: "listed.files" names "${relative}", which is not a file of the skill (it has ${[SKILL_MD, ...Object.keys(definition.files ?? {})].join(", ")}).`);
  }
  const listedFrontmatter = definition.listed?.frontmatter ?? frontmatter;
  const entry: SkillEntry = { uri, frontmatter: listedFrontmatter as SkillEntry["frontmatter"], resources: definition.manifest === "dynamic" ? "dynamic" : manifest };
  if (definition._meta !== undefined) entry._meta = definition._meta;
  return { path, entry, files };
}

/** The skill's name (the path's last segment), after checking every segment. */
function checkSkillPath(path: string, where: string): string {
  const segments = path.split("/");
  if (path.length === 0 || segments.some((segment) => segment.length === 0 || segment === "." || segment === "..")) {
    throw new McpTestkitError(`${where}: a skill's path is one or more segments joined by "/" ("pdf-processing", "acme/billing/refunds"), with no empty, "." or ".." segment.`);
  }
  const name = segments.at(-1)!;
  const problem = skillNameProblem(name);
  if (problem !== undefined) throw new McpTestkitError(`${where}: its name "${name}" (the path's last segment) breaks the Agent Skills naming rules: ${problem}. For example "pdf-processing".`);
  return name;
}

function checkFilePath(relative: string, where: string): void {
  const segments = relative.split("/");
  if (relative === SKILL_MD) throw new McpTestkitError(`${where}: "files" may not hold "${SKILL_MD}"; it is made from "description", "frontmatter" and "body" (or given whole as "skillMd").`);
  if (segments.some((segment) => segment.length === 0 || segment === "." || segment === "..")) {
    throw new McpTestkitError(`${where}: file "${relative}" must be a path inside the skill ("references/FORMS.md"), with no empty, "." or ".." segment.`);
  }
}

/** SKILL.md's frontmatter and text, from the whole text or from its parts. */
function skillMdOf(definition: SkillDefinition, name: string, where: string): { frontmatter: SkillEntry["frontmatter"]; text: string } {
  if (definition.skillMd !== undefined) {
    const beside = (["description", "frontmatter", "body"] as const).filter((key) => definition[key] !== undefined);
    if (beside.length > 0) throw new McpTestkitError(`${where} gives "skillMd" and ${beside.map((key) => `"${key}"`).join(", ")}; "skillMd" is the whole SKILL.md, so give one or the other.`);
    let frontmatter: Json;
    try {
      frontmatter = readSkillMd(definition.skillMd).frontmatter;
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      throw new McpTestkitError(`${where}: its SKILL.md cannot be read: ${error.message}. SKILL.md begins with "---", YAML lines such as "name: ${name}" and "description: …", then "---".`);
    }
    if (frontmatter.name !== name)
      throw new McpTestkitError(`${where}: its SKILL.md says name: ${JSON.stringify(frontmatter.name)}, but the skill's name is its path's last segment, "${name}"; make them equal.`);
    if (typeof frontmatter.description !== "string" || frontmatter.description.length === 0)
      throw new McpTestkitError(`${where}: its SKILL.md has no description; the frontmatter needs "description: …".`);
    return { frontmatter: frontmatter as SkillEntry["frontmatter"], text: definition.skillMd };
  }
  if (typeof definition.description !== "string" || definition.description.length === 0) {
    throw new McpTestkitError(`${where} has no "description"; SKILL.md's frontmatter needs one, saying what the skill does and when to use it (or give the whole SKILL.md as "skillMd").`);
  }
  for (const key of ["name", "description"]) {
    if (definition.frontmatter?.[key] !== undefined)
      throw new McpTestkitError(`${where}: "frontmatter.${key}" is made for you (${key === "name" ? "the path's last segment" : 'from "description"'}); leave it out.`);
  }
  const frontmatter = { name, description: definition.description, ...definition.frontmatter } as SkillEntry["frontmatter"];
  return { frontmatter, text: writeSkillMd(frontmatter, definition.body ?? "") };
}

function listedOverrides(listed: SkillDefinition["listed"], where: string): Record<string, { digest?: string; size?: number }> {
  if (listed === undefined) return {};
  checkKeys(listed, ["frontmatter", "files"], `${where}: "listed"`);
  checkValueKinds(listed as Json, { frontmatter: "object", files: "object" }, `${where}: "listed"`);
  for (const [relative, claim] of Object.entries(listed.files ?? {})) {
    const at = `${where}: "listed.files[${JSON.stringify(relative)}]"`;
    if (!isObject(claim)) throw new McpTestkitError(`${at} must be { digest?, size? }, got ${typeLabel(claim)}.`);
    checkKeys(claim, ["digest", "size"], at);
    if (claim.digest !== undefined && (typeof claim.digest !== "string" || !SKILL_DIGEST_PATTERN.test(claim.digest))) {
      throw new McpTestkitError(`${at}.digest must be "sha256:" and 64 lowercase hex digits (a well-formed digest of other bytes), got ${typeLabel(claim.digest)}.`);
    }
    if (claim.size !== undefined && !(Number.isInteger(claim.size) && (claim.size as number) >= 0))
      throw new McpTestkitError(`${at}.size must be a whole number of bytes, got ${typeLabel(claim.size)}.`);
  }
  return listed.files ?? {};
}

function mimeTypeOf(relative: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(relative)?.[1]?.toLowerCase();
  return (extension !== undefined ? MIME_TYPES[extension] : undefined) ?? "text/plain";
}
