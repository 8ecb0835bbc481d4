/**
 * Where a JSON text stops being JSON, said as a person reads a file: line, column and a caret
 * (scenario files, fixture files). Node gives a position for some syntax errors and none for
 * others, in words that change between Node versions; this scanner finds the offset and the
 * reason itself, so every error names a line and column, and no one reads Node's message.
 */

/** Where a JSON text breaks, and why, in the words of JSON.parse's own messages. */
export interface JsonSyntaxFault {
  offset: number;
  reason: string;
}

/** The first fault of `text` as JSON, or undefined if it is valid (or nested too deep to scan). */
export function findJsonFault(text: string): JsonSyntaxFault | undefined {
  let i = 0;
  const fail = (reason?: string): never => {
    throw { offset: i, reason: reason ?? unexpected(text, i) } satisfies JsonSyntaxFault;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[i] !== char) fail();
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length) {
      const char = text[i]!;
      if (char === '"') return void i++;
      if (char < " ") fail("Bad control character in string literal");
      if (char === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("Bad Unicode escape");
          i += 5;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail("Bad escaped character");
        else i++;
      } else i++;
    }
    fail("Unterminated string in JSON");
  };
  const digits = (missing: string) => {
    if (!(text[i]! >= "0" && text[i]! <= "9")) fail(i < text.length ? missing : undefined);
    while (text[i]! >= "0" && text[i]! <= "9") i++;
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits("No number after minus sign");
    if (text[i] === ".") {
      i++;
      digits("Unterminated fractional number");
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits("Exponent part is missing a number");
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (let first = true; ; first = false) {
        space();
        if (text[i] !== '"') fail(first || i >= text.length ? "Expected property name or '}'" : "Expected double-quoted property name");
        string();
        space();
        if (text[i] !== ":") fail("Expected ':' after property name");
        i++;
        value();
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail("Expected ',' or '}' after property value");
      }
    }
    if (char === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return void i++;
        else fail("Expected ',' or ']' after array element");
      }
    }
    if (char === '"') return string();
    if (char === "t") return literal("true");
    if (char === "f") return literal("false");
    if (char === "n") return literal("null");
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    fail();
  };
  try {
    value();
    space();
    if (i < text.length) fail("Unexpected non-whitespace character after JSON");
    return undefined;
  } catch (fault) {
    // A text nested deeper than the stack allows is not scanned: the caller says what JSON.parse said.
    if (fault instanceof RangeError) return undefined;
    if (fault instanceof Error) throw fault;
    const found = fault as JsonSyntaxFault;
    return { offset: Math.min(found.offset, text.length), reason: found.reason };
  }
}

/** The offset of the first character that makes `text` invalid JSON, or undefined if it is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  return findJsonFault(text)?.offset;
}

/** JSON.parse's words for a character that cannot come where it stands. */
function unexpected(text: string, offset: number): string {
  return offset >= text.length ? "Unexpected end of JSON input" : `Unexpected token '${text[offset]}'`;
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

/**
 * Why `text` is not JSON, with the line and column, and that line with a caret. The scanner finds
 * the reason itself; `parseError` (what JSON.parse threw) is said only for a text it cannot scan.
 */
export function describeJsonError(text: string, parseError: unknown): { reason: string; excerpt: string } {
  const fault = findJsonFault(text);
  if (fault === undefined) return { reason: parseError instanceof Error ? parseError.message : String(parseError), excerpt: "" };
  const { line, column } = lineAndColumn(text, fault.offset);
  const lineText = text.split("\n")[line - 1]!.replace(/\r$/, "");
  // A minified file is one long line: show the part around the error.
  const from = Math.max(0, column - 1 - 60);
  return {
    reason: `${fault.reason} at line ${line}, column ${column}`,
    excerpt: `\n  ${line} | ${lineText.slice(from, from + 120)}\n  ${" ".repeat(String(line).length)} | ${" ".repeat(column - 1 - from)}^`,
  };
}

/** The text without a leading byte order mark: editors on Windows may save one, and JSON.parse refuses it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
