// A fixture file that is not JSON is refused with the reason and the place, found by mcp-testkit
// itself (Node's words and positions differ between versions), as an editor would show them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFakes, FixtureLoadError } from "../../src/fakes/index.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-testkit-json-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loadError(name: string, text: string): FixtureLoadError {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    createFakes().loadFiles([{ path: file, name }]);
  } catch (error) {
    if (error instanceof FixtureLoadError) return error;
    throw error;
  }
  throw new Error(`${name} loaded`);
}

describe("a fixture file that is not JSON", () => {
  it.each([
    ["a trailing comma", `{ "scope": "shared", }`, "Expected double-quoted property name", 1, 22],
    ["an unfinished object", `{ "scope": "shared"`, "Expected ',' or '}' after property value", 1, 20],
    ["a missing colon", `{ "scope" "shared" }`, "Expected ':' after property name", 1, 11],
    ["a bare word", `{ "scope": shared }`, "Unexpected token 's'", 1, 12],
    ["a word cut short", `{ "a": tru }`, "Unexpected token ' '", 1, 11],
    ["an unterminated string", `{ "scope": "shared`, "Unterminated string in JSON", 1, 19],
    ["a bad escape", `{ "scope": "sh\\x" }`, "Bad escaped character", 1, 16],
    ["a raw line break in a string", `{ "scope": "sh\nared" }`, "Bad control character in string literal", 1, 15],
    ["a minus with no number", `{ "n": - }`, "No number after minus sign", 1, 9],
    ["a fraction with no digits", `{ "n": 1. }`, "Unterminated fractional number", 1, 10],
    ["an array missing a comma", `[{ "scope": "shared" } {}]`, "Expected ',' or ']' after array element", 1, 24],
    ["text after the value", `{ "scope": "shared" } x`, "Unexpected non-whitespace character after JSON", 1, 23],
    ["nothing at all", ``, "Unexpected end of JSON input", 1, 1],
  ])("%s: the reason, line and column, and the line with a caret", (label, text, reason, line, column) => {
    const error = loadError(`${label.replaceAll(" ", "-")}.json`, text);
    expect(error.code).toBe("mcp-fakes/bad-json");
    expect(error.detail).toContain(`is not valid JSON: ${reason} at line ${line}, column ${column}`);
    const caretLine = error.detail.split("\n").at(-1)!;
    expect(caretLine.indexOf("^") - caretLine.indexOf("|") - 2).toBe(column - 1);
  });
});
