/**
 * Redaction: what a recording must not write. Values at named paths, values under keys that name
 * a credential (`apiKey`, `password`, `access_token`, …) and text that looks like a secret (a
 * bearer token, a well-known API key prefix, a JWT, a private key) are replaced by a marker
 * before anything is kept, and each replacement is noted with its path and the rule that caught
 * it, so the file says what was taken out and where.
 */
import { REDACTED } from "../protocol/http-facts.js";
import { McpTestkitError } from "../errors.js";
import { describeValue } from "../util/text.js";

/** What a recording redacts besides the defaults. */
export interface RedactionOptions {
  /**
   * Paths whose values are replaced whole: dot-separated keys from the exchange's root
   * (`arguments.apiKey`, `result.structuredContent.session`, `serverInfo.build`), `*` for any
   * one key or index, and a leading `**.` for a key at any depth (`**.password`).
   */
  paths?: readonly string[];
  /** Text patterns: every match inside a string is replaced (a string is read as a regular expression). */
  patterns?: readonly (RegExp | string)[];
  /** The built-in rules (credential keys and secret-looking text). Default: true. */
  defaults?: boolean;
}

/** One replacement: where (the dotted path in what was redacted) and which rule found it. */
export interface Redaction {
  path: string;
  rule: string;
}

/** Keys whose values are credentials by name alone, at any depth. */
const CREDENTIAL_KEY =
  /^(authorization|proxy[-_]?authorization|cookie|set[-_]?cookie|password|passwd|passphrase|secret|client[-_]?secret|api[-_]?key|x[-_]?api[-_]?key|(access|refresh|id|auth|bearer|session)[-_]?token|token|private[-_]?key)$/i;

/** Secret-looking text, each with the rule name a file shows. */
const DEFAULT_PATTERNS: readonly { rule: string; pattern: RegExp }[] = [
  { rule: "private-key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { rule: "bearer-token", pattern: /\bBearer\s+[A-Za-z0-9\-._~+/]{8,}=*/g },
  { rule: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { rule: "openai-key", pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/g },
  { rule: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { rule: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { rule: "aws-access-key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { rule: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { rule: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { rule: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
];

/** What the path and pattern options are called, for errors: the API's names, or the CLI's flags. */
export interface OptionNames {
  paths: string;
  patterns: string;
}

const API_NAMES: OptionNames = { paths: "redact.paths", patterns: "redact.patterns" };

type PathMatcher = { rule: string; anyDepth: boolean; segments: readonly string[] };

export class Redactor {
  private readonly paths: readonly PathMatcher[];
  private readonly patterns: readonly { rule: string; pattern: RegExp }[];
  private readonly credentialKeys: boolean;

  /** `names`: what the options are called where they were given (the CLI's flags), for errors. */
  constructor(options: RedactionOptions = {}, names: OptionNames = API_NAMES) {
    const defaults = options.defaults ?? true;
    this.paths = (options.paths ?? []).map((path) => pathMatcher(path, names.paths));
    this.patterns = [...(defaults ? DEFAULT_PATTERNS : []), ...(options.patterns ?? []).map((pattern) => userPattern(pattern, names.patterns))];
    this.credentialKeys = defaults;
  }

  /** A copy of `value` with every secret replaced by the marker; `found` is told each replacement, by its path inside `value`. */
  redact<T>(value: T, found: Redaction[]): T {
    return this.walk(value, [], found) as T;
  }

  private walk(value: unknown, path: string[], found: Redaction[]): unknown {
    const byPath = this.pathRule(path);
    if (byPath !== undefined && value !== undefined) {
      found.push({ path: path.join("."), rule: byPath });
      return REDACTED;
    }
    if (typeof value === "string") return this.redactText(value, path, found);
    if (Array.isArray(value)) return value.map((item, index) => this.walk(item, [...path, String(index)], found));
    if (typeof value !== "object" || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (this.credentialKeys && CREDENTIAL_KEY.test(key) && (typeof item === "string" || typeof item === "number") && item !== "") {
        found.push({ path: [...path, key].join("."), rule: "credential-key" });
        copy[key] = REDACTED;
      } else copy[key] = this.walk(item, [...path, key], found);
    }
    return copy;
  }

  private redactText(text: string, path: readonly string[], found: Redaction[]): string {
    let out = text;
    for (const { rule, pattern } of this.patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(out)) continue;
      pattern.lastIndex = 0;
      out = out.replace(pattern, REDACTED);
      found.push({ path: path.join("."), rule });
    }
    return out;
  }

  /** The rule of the first user path that names `path`, if any. */
  private pathRule(path: readonly string[]): string | undefined {
    for (const matcher of this.paths) if (matches(matcher, path)) return matcher.rule;
    return undefined;
  }
}

/** A user path names `path` when its segments are the path's last ones, and (unless `**.`) all of them. */
function matches(matcher: PathMatcher, path: readonly string[]): boolean {
  const { segments } = matcher;
  if (path.length < segments.length || (!matcher.anyDepth && path.length !== segments.length)) return false;
  const tail = path.slice(path.length - segments.length);
  return segments.every((segment, index) => segment === "*" || segment === tail[index]);
}

function pathMatcher(path: string, option: string): PathMatcher {
  if (typeof path !== "string" || path.trim() === "" || path.includes("..")) {
    throw new McpTestkitError(`${option}: each path must be dot-separated keys such as "arguments.apiKey" or "**.password", got ${describeValue(path)}.`);
  }
  const anyDepth = path.startsWith("**.");
  const written = (anyDepth ? path.slice(3) : path.replace(/^\$\./, "")).replace(/\[(\d+|\*)\]/g, ".$1");
  return { rule: `path:${path}`, anyDepth, segments: written.split(".") };
}

function userPattern(pattern: RegExp | string, option: string): { rule: string; pattern: RegExp } {
  if (pattern instanceof RegExp) return { rule: `pattern:${pattern.source}`, pattern: new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`) };
  if (typeof pattern !== "string" || pattern === "") throw new McpTestkitError(`${option}: each pattern must be a RegExp or a non-empty string, got ${describeValue(pattern)}.`);
  try {
    return { rule: `pattern:${pattern}`, pattern: new RegExp(pattern, "g") };
  } catch (error) {
    throw new McpTestkitError(`${option}: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message}).`);
  }
}

/** An argument pattern that matches a redacted value: any value at all (the recorded one is gone). */
const ANY_VALUE = { $schema: {} };

/**
 * The `argsMatch` a replay uses for arguments that lost values to redaction: every value as it
 * was recorded, and any value where the marker stands; undefined when nothing was redacted
 * (the exact `args` match stays).
 */
export function argsMatchFor(args: Record<string, unknown>): Record<string, unknown> | undefined {
  let redacted = false;
  const pattern = (value: unknown): unknown => {
    if (typeof value === "string" && value.includes(REDACTED)) {
      redacted = true;
      return ANY_VALUE;
    }
    if (Array.isArray(value)) return value.map(pattern);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, pattern(item)]));
    return value;
  };
  const match = pattern(args) as Record<string, unknown>;
  return redacted ? match : undefined;
}
