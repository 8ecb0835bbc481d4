/**
 * Where a JSON text stops being JSON, said as a person reads a file: line, column and a caret
 * (scenario files, fixture files). Node gives a position for some syntax errors ("in JSON at
 * position 41") and none for others (`Unexpected token ','`), depending on the error and the
 * Node version; this scanner finds the offset itself, so every error can name a line and column.
 */

/** The offset of the first character that makes `text` invalid JSON, or undefined if it is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const char of word) if (text[i++] !== char) fail();
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length) {
      const char = text[i]!;
      if (char === '"') return void i++;
      if (char < " ") fail();
      if (char === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
        else i++;
      } else i++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ":") fail();
        i++;
        value();
        space();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail();
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
        else fail();
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
    if (i < text.length) fail();
    return undefined;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return Math.min(offset, text.length);
  }
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

/** Node's message without the text it quotes or its offset, the line and column instead, and that line with a caret. */
export function describeJsonError(message: string, text: string): { reason: string; excerpt: string } {
  const reason = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, [\s\S]*is not valid JSON$/, "");
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return { reason, excerpt: "" };
  const { line, column } = lineAndColumn(text, offset);
  const lineText = text.split("\n")[line - 1]!.replace(/\r$/, "");
  // A minified file is one long line: show the part around the error.
  const from = Math.max(0, column - 1 - 60);
  return {
    reason: `${reason} at line ${line}, column ${column}`,
    excerpt: `\n  ${line} | ${lineText.slice(from, from + 120)}\n  ${" ".repeat(String(line).length)} | ${" ".repeat(column - 1 - from)}^`,
  };
}

/** The text without a leading byte order mark: editors on Windows may save one, and JSON.parse refuses it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
