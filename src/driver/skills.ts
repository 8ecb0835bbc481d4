/**
 * The Skills extension (SEP-2640) as a host uses it: list the skills (no file is fetched then),
 * and read a skill's file only when asked, verified against the listing's size and digest (and,
 * for SKILL.md, its frontmatter) before anything of it is returned. A file that fails is never
 * handed over: the error says which check failed, what was listed and what came.
 */
import { isDeepStrictEqual } from "node:util";
import { FrontmatterError, readSkillMd } from "../protocol/skill-frontmatter.js";
import { DIRECTORY_READ, SKILL_MD, SKILLS_GET, SKILLS_LIST, skillDigest, skillDirectoryOf, type SkillEntry, type SkillFileEntry } from "../protocol/skills.js";
import { McpDriverError } from "./errors.js";
import type { CallOptions, JsonObject, RequestSpec } from "./request-types.js";

export type { SkillEntry as Skill, SkillFileEntry } from "../protocol/skills.js";

/** A skill file as read and verified. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  /** The raw bytes the digest covers. */
  bytes: Uint8Array;
  /** The bytes as UTF-8 text, for a text file. */
  text?: string;
  /** True when checked against a listed size and digest; false for a skill listed as "dynamic" (nothing to check against). */
  verified: boolean;
  /** SKILL.md only: its frontmatter and its markdown body. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

export type SkillVerificationCheck = "unlisted" | "size" | "digest" | "frontmatter";

/** A skill file failed verification; its content was not used. */
export class SkillVerificationError extends McpDriverError {
  override name = "SkillVerificationError";
  readonly check: SkillVerificationCheck;
  readonly uri: string;
  /** What the listing says (a size, a digest, the frontmatter) and what was read. */
  readonly listed: unknown;
  readonly received: unknown;
  /** `frontmatter`: one line per field that differs. */
  readonly differences: readonly string[];

  constructor(check: SkillVerificationCheck, uri: string, what: string, details: { listed?: unknown; received?: unknown; differences?: readonly string[] } = {}) {
    const advice =
      check === "unlisted"
        ? "Read only the files the skill's entry lists (skill.resources), or pass the file's path inside the skill."
        : "The server changed the file without changing its skills/list entry, or something in between altered it. List the skills again (listSkills()) and read it anew; if it still differs, the server is at fault.";
    super([`Skill file ${uri} failed verification (${check}): ${what}. Its content was not used. ${advice}`], { method: "resources/read" });
    this.check = check;
    this.uri = uri;
    this.listed = details.listed;
    this.received = details.received;
    this.differences = details.differences ?? [];
  }
}

/** How the driver sends a request (after the handshake, validated like every other). */
export type SkillSend = (method: string, params: JsonObject, spec: RequestSpec) => Promise<JsonObject>;

/** At most this many pages of one list: a server that keeps giving cursors does not loop the driver forever. */
const MAX_PAGES = 1000;

/** Every skill the server lists (every page); no file is fetched. */
export async function listSkills(send: SkillSend, options: CallOptions = {}): Promise<SkillEntry[]> {
  return (await allPages(send, SKILLS_LIST, {}, "skills", options)) as SkillEntry[];
}

/** One skill's entry by its SKILL.md URI (`skills/get`), listed or not. */
export async function getSkill(send: SkillSend, uri: string, options: CallOptions = {}): Promise<SkillEntry> {
  const result = await send(SKILLS_GET, { uri }, { ...options, label: `${SKILLS_GET} ${JSON.stringify(uri)}`, subject: uri });
  return result.skill as SkillEntry;
}

/** A directory's direct children (`resources/directory/read`, every page). */
export async function readSkillDirectory(send: SkillSend, uri: string, options: CallOptions = {}): Promise<JsonObject[]> {
  return (await allPages(send, DIRECTORY_READ, { uri }, "resources", options)) as JsonObject[];
}

/**
 * Reads one file of `skill` (SKILL.md unless `file` names another, by its path inside the skill
 * or its URI) and verifies it against the entry: listed, size, digest, and for SKILL.md the
 * frontmatter, field by field.
 */
export async function readSkillFile(send: SkillSend, skill: SkillEntry, file: string = SKILL_MD, options: CallOptions = {}): Promise<SkillFile> {
  const directory = skillDirectoryOf(skill.uri) ?? skill.uri;
  const uri = file === SKILL_MD ? skill.uri : /^[A-Za-z][A-Za-z0-9+.-]*:/.test(file) ? file : `${directory}/${file.replace(/^\/+/, "")}`;
  const listed = Array.isArray(skill.resources) ? skill.resources.find((entry) => entry.uri === uri) : undefined;
  if (Array.isArray(skill.resources) && listed === undefined) {
    throw new SkillVerificationError("unlisted", uri, `the skill ${skill.uri} does not list it (it lists ${skill.resources.map((entry) => entry.uri).join(", ") || "no file"})`);
  }
  const result = await send("resources/read", { uri }, { ...options, label: `resources/read ${JSON.stringify(uri)}`, subject: uri });
  const contents = Array.isArray(result.contents) ? (result.contents as JsonObject[]) : [];
  const content = contents.find((item) => item.uri === uri) ?? contents[0] ?? {};
  const bytes = typeof content.blob === "string" ? new Uint8Array(Buffer.from(content.blob, "base64")) : new Uint8Array(Buffer.from(typeof content.text === "string" ? content.text : "", "utf8"));
  if (listed !== undefined) verifyBytes(uri, listed, bytes);
  const text = typeof content.text === "string" ? content.text : undefined;
  const read: SkillFile = { uri, bytes, verified: listed !== undefined, ...(typeof content.mimeType === "string" ? { mimeType: content.mimeType } : {}), ...(text === undefined ? {} : { text }) };
  if (uri !== skill.uri) return read;
  const { frontmatter, body } = frontmatterOf(uri, text ?? Buffer.from(bytes).toString("utf8"));
  const differences = frontmatterDifferences(skill.frontmatter, frontmatter);
  if (differences.length > 0) {
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `its frontmatter differs from the listing's in ${differences.length === 1 ? "one field" : `${differences.length} fields`}: ${differences.join("; ")}`,
      {
        listed: skill.frontmatter,
        received: frontmatter,
        differences,
      },
    );
  }
  return { ...read, frontmatter, body };
}

/** Size first (cheap, and enough to refuse), then the digest. */
function verifyBytes(uri: string, listed: SkillFileEntry, bytes: Uint8Array): void {
  if (bytes.byteLength !== listed.size) {
    throw new SkillVerificationError("size", uri, `the listing says ${listed.size} bytes, the server sent ${bytes.byteLength}`, { listed: listed.size, received: bytes.byteLength });
  }
  const digest = skillDigest(bytes);
  if (digest !== listed.digest) throw new SkillVerificationError("digest", uri, `the listing says ${listed.digest}, the bytes read hash to ${digest}`, { listed: listed.digest, received: digest });
}

function frontmatterOf(uri: string, text: string): { frontmatter: Record<string, unknown>; body: string } {
  try {
    return readSkillMd(text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    throw new SkillVerificationError("frontmatter", uri, `its frontmatter cannot be read (${error.message}), so it cannot be compared with the listing's`, { differences: [error.message] });
  }
}

function frontmatterDifferences(listed: Record<string, unknown>, read: Record<string, unknown>): string[] {
  const differences: string[] = [];
  for (const key of new Set([...Object.keys(read), ...Object.keys(listed)])) {
    if (!isDeepStrictEqual(read[key] ?? null, listed[key] ?? null)) differences.push(`${key}: listed ${JSON.stringify(listed[key] ?? null)}, read ${JSON.stringify(read[key] ?? null)}`);
  }
  return differences;
}

async function allPages(send: SkillSend, method: string, params: JsonObject, key: string, options: CallOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await send(method, cursor === undefined ? params : { ...params, cursor }, { ...options, label: method, ...(typeof params.uri === "string" ? { subject: params.uri } : {}) });
    if (Array.isArray(result[key])) items.push(...(result[key] as unknown[]));
    const next = result.nextCursor;
    if (typeof next !== "string" || next.length === 0) return items;
    if (seen.has(next))
      throw new McpDriverError([`${method} gave the cursor ${JSON.stringify(next)} twice; the driver stopped after ${page + 1} pages rather than loop. A server's nextCursor must move forward.`], {
        method,
      });
    seen.add(next);
    cursor = next;
  }
  throw new McpDriverError([`${method} was still giving a nextCursor after ${MAX_PAGES} pages; the driver stopped there.`], { method });
}
