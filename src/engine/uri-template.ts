/**
 * RFC 6570 URI templates, the subset MCP resource templates use: `{var}` (one segment, no "/"),
 * `{+var}` and `{#var}` (reserved expansion, may span "/"), and `{/var}`, `{.var}`, `{;a,b}`,
 * `{?a,b}`, `{&a,b}` forms read back from a concrete URI. Enough to tell which template a URI
 * belongs to and what its variables are.
 *
 * Matching is a single left-to-right pass with no backtracking, so its cost is linear in the
 * URI's length (a regular expression here took seconds on a 60 KB URI a client chose). Each
 * expression takes the longest run of the characters it may hold, up to the last place where
 * the template's next literal text follows; query and path-parameter forms are read by name.
 */

type Part = { literal: string } | { operator: string; names: string[] };

/** Characters an expression's text may not contain, by operator (the text ends before the first one). */
const STOPS: Record<string, string> = { "": "/?#", "+": "", "#": "", "/": "?#", ".": "/?#", ";": "/?#", "?": "#", "&": "#" };

/** The character an expression of each operator starts with when it has a value. */
const LEADS: Record<string, string> = { "#": "#", "/": "/", ".": ".", ";": ";", "?": "?", "&": "&" };

export class UriTemplate {
  private readonly parts: Part[] = [];
  readonly variables: string[] = [];

  constructor(readonly text: string) {
    let last = 0;
    for (const match of text.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
      if (match.index > last) this.parts.push({ literal: text.slice(last, match.index) });
      const names = match[2]!.split(",").map((name) => name.replace(/[*]$|:\d+$/, "").trim());
      this.variables.push(...names);
      this.parts.push({ operator: match[1]!, names });
      last = match.index + match[0].length;
    }
    if (last < text.length) this.parts.push({ literal: text.slice(last) });
  }

  /**
   * The variables of `uri` if it fits the template, else undefined. The record has no prototype,
   * so a variable named like an `Object.prototype` member is only there if the URI gave it.
   */
  match(uri: string): Record<string, string> | undefined {
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    let position = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i]!;
      if ("literal" in part) {
        if (!uri.startsWith(part.literal, position)) return undefined;
        position += part.literal.length;
        continue;
      }
      const end = expressionEnd(uri, position, part.operator, this.parts[i + 1]);
      if (end === undefined || !readExpression(uri.slice(position, end), part, values)) return undefined;
      position = end;
    }
    return position === uri.length ? values : undefined;
  }
}

/** Where the text of an expression starting at `start` ends, given the part after it; one forward scan, one backward search. */
function expressionEnd(uri: string, start: number, operator: string, next: Part | undefined): number | undefined {
  let stops = STOPS[operator]!;
  // Before another expression, stop where that one's text may begin ({+path}{?q} leaves "?..." to the query).
  if (next !== undefined && !("literal" in next)) stops += LEADS[next.operator] ?? "";
  let runEnd = start;
  while (runEnd < uri.length && !stops.includes(uri[runEnd]!)) runEnd++;
  if (next === undefined || !("literal" in next)) return runEnd;
  // The next literal may begin anywhere up to the end of the run: take its last place there.
  const found = uri.lastIndexOf(next.literal, runEnd);
  return found < start ? undefined : found;
}

/** Reads one expression's text into `values`; false when the text does not have the expression's shape. */
function readExpression(text: string, part: { operator: string; names: string[] }, values: Record<string, string>): boolean {
  const { operator, names } = part;
  switch (operator) {
    case "":
      return assignInOrder(text.split(","), names, values, { nonEmpty: true, exact: true });
    case "+":
      return assignInOrder(splitFirst(text, ",", names.length), names, values, { nonEmpty: false, exact: true });
    case "#":
      if (text === "") return true;
      return text.startsWith("#") && assignInOrder(splitFirst(text.slice(1), ",", names.length), names, values, { nonEmpty: false, exact: true });
    case "/":
    case ".":
      return text.startsWith(operator) && assignInOrder(text.slice(1).split(operator), names, values, { nonEmpty: false, exact: true });
    case ";":
      return text === "" || (text.startsWith(";") && assignByName(text.slice(1).split(";"), names, values));
    case "?":
    case "&":
      // The first pair may follow "?" or "&" (a query the template's literal text opened already).
      return text === "" || ((text.startsWith("?") || text.startsWith("&")) && assignByName(text.slice(1).split("&"), names, values));
    default:
      return false;
  }
}

/** `text` cut at the first `count - 1` separators: the last piece keeps the rest, separators and all. */
function splitFirst(text: string, separator: string, count: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (pieces.length < count - 1) {
    const at = rest.indexOf(separator);
    if (at === -1) break;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  pieces.push(rest);
  return pieces;
}

function assignInOrder(pieces: string[], names: string[], values: Record<string, string>, rule: { nonEmpty: boolean; exact: boolean }): boolean {
  if (rule.exact && pieces.length !== names.length) return false;
  if (rule.nonEmpty && pieces.some((piece) => piece === "")) return false;
  names.forEach((name, i) => (values[name] = safeDecode(pieces[i]!)));
  return true;
}

/** `name=value` pairs (a bare `name` has the empty value) assigned to the template's names; other names are ignored, the first of a repeated one wins. */
function assignByName(pairs: string[], names: string[], values: Record<string, string>): boolean {
  for (const pair of pairs) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (names.includes(name) && !Object.hasOwn(values, name)) values[name] = safeDecode(equals === -1 ? "" : pair.slice(equals + 1));
  }
  return true;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
