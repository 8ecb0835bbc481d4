/**
 * The Skills extension (SEP-2640) as data: its identifier, methods, URI layout, digest and the
 * shape of a skill entry. Shared by the mock (which serves skills), the driver (which verifies
 * them) and the validator, so each side reads the wire the same way.
 */
import { createHash } from "node:crypto";

/** The identifier a server declares under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
export const SKILLS_LIST = "skills/list";
export const SKILLS_GET = "skills/get";
/** Lists a directory resource's direct children; served when the capability says `directoryRead: true`. */
export const DIRECTORY_READ = "resources/directory/read";
/** The `mimeType` of a directory among a directory's children. */
export const DIRECTORY_MIME_TYPE = "inode/directory";
export const SKILL_MD = "SKILL.md";
export const SKILL_MD_MIME_TYPE = "text/markdown";
export const SKILL_SCHEME = "skill://";
/** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
export const SKILL_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
/** The Agent Skills naming rules: 1-64 of a-z, 0-9 and "-", no "-" first, last or twice in a row. */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
/** What a host must accept and a server should stay under, per skill. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });

/** One file of a skill, with what a host needs to verify it. */
export interface SkillFileEntry {
  uri: string;
  digest: string;
  size: number;
}

/** A skill as `skills/list` and `skills/get` carry it. */
export interface SkillEntry {
  /** The URI of the skill's SKILL.md. */
  uri: string;
  /** SKILL.md's YAML frontmatter as JSON (at least `name` and `description`). */
  frontmatter: Record<string, unknown> & { name: string; description: string };
  /** Every file of the skill, SKILL.md included, or "dynamic" (no manifest). */
  resources: SkillFileEntry[] | "dynamic";
  _meta?: Record<string, unknown>;
}

/** The digest of a file's raw bytes (a string is its UTF-8 bytes). */
export function skillDigest(content: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(content).digest("hex")}`;
}

/** The byte length of a file (a string's UTF-8 length). */
export function skillSize(content: string | Uint8Array): number {
  return typeof content === "string" ? Buffer.byteLength(content, "utf8") : content.byteLength;
}

/** `skill://<path>/SKILL.md` for the skill at `path` ("pdf-processing", "acme/billing/refunds"). */
export function skillMdUri(path: string): string {
  return `${SKILL_SCHEME}${path}/${SKILL_MD}`;
}

/** The skill's directory URI from its SKILL.md URI (any scheme), or undefined for another URI. */
export function skillDirectoryOf(skillMd: string): string | undefined {
  return skillMd.endsWith(`/${SKILL_MD}`) ? skillMd.slice(0, -(SKILL_MD.length + 1)) : undefined;
}

/** The skill's name, the last path segment before SKILL.md, or undefined when `uri` is no SKILL.md URI. */
export function skillNameOf(uri: string): string | undefined {
  const directory = skillDirectoryOf(uri);
  const start = directory?.indexOf("://") ?? -1;
  if (directory === undefined || start < 0) return undefined;
  const segments = directory
    .slice(start + 3)
    .split("/")
    .filter((segment) => segment.length > 0);
  return segments.at(-1);
}

/** Why `name` breaks the naming rules, or undefined when it keeps them. */
export function skillNameProblem(name: string): string | undefined {
  if (SKILL_NAME_PATTERN.test(name)) return undefined;
  if (name.length === 0 || name.length > 64) return `it has ${name.length} characters (1 to 64 allowed)`;
  if (/[^a-z0-9-]/.test(name)) return "only lowercase letters, digits and '-' are allowed";
  return "it may not start or end with '-' or hold '--'";
}
