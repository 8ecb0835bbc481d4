/**
 * Reading fixture files: a JSON object whose `mcpFakes` key holds the fakes, beside any other
 * keys (an LLM `fixtures` array is accepted and ignored). A directory is read recursively and
 * each file is named by its path relative to that directory.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileName } from "./ids.js";
import type { FakeLoadProblem } from "./load-errors.js";
import { describeJsonError, withoutByteOrderMark } from "../util/json-syntax.js";

export interface FixtureFakes {
  name: string;
  /** The `mcpFakes` value, or undefined when the file has none. */
  mcpFakes?: unknown;
  /** Whether the file had an LLM `fixtures` array (ignored here). */
  llmFixtures: boolean;
  problem?: FakeLoadProblem;
}

const fileProblem = (name: string, rule: FakeLoadProblem["rule"], message: string): FixtureFakes => ({
  name,
  llmFixtures: false,
  problem: { rule, file: name, blockId: null, entryId: null, message: `${name}: ${message}` },
});

/** The fakes of one parsed fixture file (or control-API body). */
export function fakesOfFixture(name: string, parsed: unknown): FixtureFakes {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fileProblem(
      name,
      "mcp-fakes/bad-file",
      `expected a JSON object with an "mcpFakes" key (and optionally "fixtures"), received ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`,
    );
  }
  const object = parsed as Record<string, unknown>;
  return { name, ...(object.mcpFakes !== undefined && { mcpFakes: object.mcpFakes }), llmFixtures: Array.isArray(object.fixtures) };
}

export function readFixtureFile(path: string, name = fileName(path)): FixtureFakes {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return fileProblem(name, "mcp-fakes/bad-file", `cannot be read (${(error as Error).message})`);
  }
  text = withoutByteOrderMark(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const { reason, excerpt } = describeJsonError(text, error);
    return fileProblem(name, "mcp-fakes/bad-json", `is not valid JSON: ${reason}${excerpt}`);
  }
  return fakesOfFixture(name, parsed);
}

/** The .json files under `dir`, sorted, each with its path and its name relative to `dir`. */
export function fixtureFilesIn(dir: string): Array<{ path: string; name: string }> {
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".json"))
    .map((entry) => fileName(entry))
    .sort();
  return names.map((name) => ({ path: join(dir, name), name: fileName(relative(dir, join(dir, name))) }));
}
