/**
 * SKILL.md's YAML frontmatter, written and read. The writer makes the plain YAML real skills use
 * (JSON-quoted where a plain scalar would be read differently). The reader takes the subset real
 * skills use: block mappings and sequences, plain, quoted and block scalars, JSON-style flow
 * values, typed as YAML 1.2's core schema. Anything else is refused with its line, never read
 * differently from a full YAML parser: a host compares this against the listing, so a guess
 * would be a verification done wrong.
 */
type Json = Record<string, unknown>;

/** Frontmatter the reader cannot take, with the line of SKILL.md (1 is the opening `---`). */
export class FrontmatterError extends Error {
  override name = "FrontmatterError";
  constructor(
    readonly reason: string,
    readonly line?: number,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
  }
}

/** SKILL.md's text: the frontmatter block, then the body. */
export function writeSkillMd(frontmatter: Json, body: string): string {
  return `---\n${writeMapping(frontmatter, "")}---\n${body.length > 0 && !body.startsWith("\n") ? "\n" : ""}${body}`;
}

function writeMapping(object: Json, indent: string): string {
  let text = "";
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined) continue;
    const head = `${indent}${plainOrQuoted(key)}:`;
    if (isObject(value) && Object.keys(value).length > 0) text += `${head}\n${writeMapping(value, `${indent}  `)}`;
    else if (Array.isArray(value) && value.length > 0) text += `${head}\n${value.map((item) => `${indent}  - ${scalar(item)}\n`).join("")}`;
    else text += `${head} ${scalar(value)}\n`;
  }
  return text;
}

/** A value on one line: plain where YAML reads it back as the same string, else JSON (YAML's flow style). */
function scalar(value: unknown): string {
  return typeof value === "string" ? plainOrQuoted(value) : JSON.stringify(value ?? null);
}

function plainOrQuoted(text: string): string {
  const plain = /^[A-Za-z0-9_(][^\n:#]*$/.test(text) && !/\s$/.test(text) && typed(text) === text;
  return plain ? text : JSON.stringify(text);
}

/** Splits SKILL.md into its frontmatter (as JSON) and its body. */
export function readSkillMd(text: string): { frontmatter: Json; body: string } {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") throw new FrontmatterError('SKILL.md must begin with a "---" line', 1);
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (close < 0) throw new FrontmatterError('the frontmatter has no closing "---" line');
  const frontmatter = new Reader(lines.slice(1, close), 2).document();
  return { frontmatter, body: lines.slice(close + 1).join("\n") };
}

interface Line {
  indent: number;
  text: string;
  no: number;
}

class Reader {
  private readonly lines: Line[];
  private at = 0;

  constructor(raw: string[], firstNo: number) {
    this.lines = [];
    raw.forEach((line, i) => {
      if (/^\s*(#.*)?$/.test(line)) return; // blank lines and comments say nothing
      if (/^ *\t/.test(line)) throw new FrontmatterError("tabs may not indent YAML", firstNo + i);
      const indent = line.length - line.trimStart().length;
      this.lines.push({ indent, text: line.trim(), no: firstNo + i });
    });
  }

  document(): Json {
    if (this.lines.length === 0) throw new FrontmatterError("the frontmatter is empty; it needs at least name and description");
    const value = this.mapping(this.lines[0]!.indent);
    const extra = this.lines[this.at];
    if (extra !== undefined) throw new FrontmatterError("unexpected indentation", extra.no);
    return value;
  }

  private mapping(indent: number): Json {
    const map: Json = {};
    for (let line = this.lines[this.at]; line !== undefined && line.indent >= indent; line = this.lines[this.at]) {
      if (line.indent > indent) throw new FrontmatterError("unexpected indentation", line.no);
      const match = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#][^:]*?)\s*:(?:\s+(.*))?$/.exec(line.text);
      if (match === null) throw new FrontmatterError(line.text.startsWith("- ") ? "a list must be the value of a key" : 'expected "key: value"', line.no);
      const key = String(readScalar(match[1]!, line.no));
      if (Object.hasOwn(map, key)) throw new FrontmatterError(`duplicate key "${key}"`, line.no);
      this.at++;
      // Defined, not assigned: a "__proto__" key from a server's SKILL.md is a key like any other.
      Object.defineProperty(map, key, { value: this.value(match[2] ?? "", line), enumerable: true, writable: true, configurable: true });
    }
    return map;
  }

  /** The value after `key:` on `line`, which may go on over the lines below. */
  private value(rest: string, line: Line): unknown {
    const next = this.lines[this.at];
    if (rest === "" || rest.startsWith("#")) {
      if (next === undefined || next.indent < line.indent || (next.indent === line.indent && !next.text.startsWith("- "))) return null;
      return next.text.startsWith("- ") ? this.sequence(next.indent) : this.mapping(next.indent);
    }
    if (/^[|>][+-]?$/.test(rest)) return this.blockScalar(rest, line.indent);
    if (/^[|>]/.test(rest)) throw new FrontmatterError("this block scalar header is not supported (use | or > with an optional - or +)", line.no);
    let text = stripComment(rest);
    // A plain scalar may go on over more indented lines, folded into one.
    let no = line.no;
    while (!/^["'[{]/.test(text) && this.lines[this.at] !== undefined && this.lines[this.at]!.indent > line.indent) {
      no = this.lines[this.at]!.no;
      text += ` ${stripComment(this.lines[this.at++]!.text)}`;
      // YAML reads "key: value" inside a plain value as a mapping it cannot be: refused, as a YAML parser refuses it.
      if (/:(\s|$)/.test(text)) break;
    }
    return readScalar(text, no);
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.lines[this.at]; line !== undefined && line.indent === indent && line.text.startsWith("- "); line = this.lines[this.at]) {
      this.at++;
      const rest = line.text.slice(2).trim();
      if (/^[^\s"'[{#][^:]*:(\s|$)/.test(rest)) throw new FrontmatterError("a mapping inside a list is not supported; write it as JSON ({...})", line.no);
      items.push(readScalar(stripComment(rest), line.no));
    }
    return items;
  }

  private blockScalar(header: string, parentIndent: number): string {
    const body: string[] = [];
    let indent: number | undefined;
    for (let line = this.lines[this.at]; line !== undefined && line.indent > parentIndent; line = this.lines[this.at]) {
      indent ??= line.indent;
      body.push(" ".repeat(Math.max(0, line.indent - indent)) + line.text);
      this.at++;
    }
    const text = header.startsWith(">") ? body.join(" ") : body.join("\n");
    return header.endsWith("-") ? text : `${text}\n`;
  }
}

function stripComment(text: string): string {
  if (/^["'[{]/.test(text)) return text.replace(/\s+#.*$/, (comment, offset: number) => (isClosed(text.slice(0, offset)) ? "" : comment));
  return text.replace(/\s+#.*$/, "");
}

function isClosed(text: string): boolean {
  const last = text.trimEnd().at(-1);
  return last === '"' || last === "'" || last === "]" || last === "}";
}

function readScalar(text: string, no: number): unknown {
  if (text.startsWith('"') || text.startsWith("[") || text.startsWith("{")) {
    try {
      return JSON.parse(text);
    } catch {
      throw new FrontmatterError(text.startsWith('"') ? "a double-quoted value this reader cannot take (JSON escapes only)" : "a flow value must be written as JSON", no);
    }
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new FrontmatterError("an unclosed single-quoted value", no);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (/:(\s|$)/.test(text)) throw new FrontmatterError('a plain value may not hold ": "; quote it', no);
  if (/^[&*!%@`]/.test(text)) throw new FrontmatterError(`"${text[0]}" starts an anchor, alias, tag or reserved value, which this reader does not take; quote the value`, no);
  return typed(text);
}

/** YAML 1.2 core schema: null, booleans, numbers; anything else is the string itself. */
function typed(text: string): unknown {
  if (/^(?:~|null|Null|NULL|)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number.parseFloat(text);
  return text;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
