/**
 * Where in an `mcpFakes` block a problem is: the keys each level takes (for did-you-mean), a
 * zod issue's path in words, its rule, and the id of the entry it is in, also for a block that
 * failed its schema.
 */
import type { z } from "zod";
import { isObject } from "../protocol/jsonrpc.js";
import { closest as closestName } from "../util/closest.js";
import type { FakeLoadRule } from "./load-errors.js";

export const BLOCK_KEYS = ["scope", "mount", "undeclaredTools", "tools", "resources", "prompts"];
export const SCOPE_KEYS = ["testId", "context"];
export const TOOL_KEYS = ["name", "description", "inputSchema", "calls"];
export const CALL_KEYS = ["id", "args", "anyArgs", "argsMatch", "result", "error", "step"];
export const RESOURCE_KEYS = ["uri", "name", "description", "mimeType", "reads"];
export const READ_KEYS = ["id", "result", "error", "fault"];
export const PROMPT_KEYS = ["name", "description", "arguments", "gets"];
export const GET_KEYS = ["id", "args", "anyArgs", "argsMatch", "result", "error", "fault"];
export const ARGUMENT_KEYS = ["name", "description", "required"];
/** Per list of a block: its items' keys, its entries' key and their keys. */
export const LISTS = {
  tools: { itemKeys: TOOL_KEYS, entriesKey: "calls", entryKeys: CALL_KEYS, noun: "a tool", entryNoun: "a call" },
  resources: { itemKeys: RESOURCE_KEYS, entriesKey: "reads", entryKeys: READ_KEYS, noun: "a resource", entryNoun: "a read" },
  prompts: { itemKeys: PROMPT_KEYS, entriesKey: "gets", entryKeys: GET_KEYS, noun: "a prompt", entryNoun: "a get" },
} as const;
export type ListKey = keyof typeof LISTS;

export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) text += typeof key === "number" ? `[${key}]` : text === "" ? String(key) : `.${String(key)}`;
  return text;
}

export function keysFor(path: readonly PropertyKey[]): { known: readonly string[]; noun: string } {
  if (path.length === 0) return { known: BLOCK_KEYS, noun: "a block" };
  if (path[path.length - 1] === "scope") return { known: SCOPE_KEYS, noun: "a scope" };
  const list = LISTS[path[0] as ListKey];
  if (path.length === 2) return { known: list.itemKeys, noun: list.noun };
  if (path[2] === "arguments") return { known: ARGUMENT_KEYS, noun: "a prompt argument" };
  return { known: list.entryKeys, noun: list.entryNoun };
}

export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const { known, noun } = keysFor(issue.path);
    return issue.keys
      .map((key) => {
        const guess = closestName(key, known);
        return `unknown key "${key}"${guess ? `; did you mean "${guess}"?` : "."} ${noun[0].toUpperCase()}${noun.slice(1)} has: ${known.join(", ")}`;
      })
      .join("; ");
  }
  return issue.message;
}

export function ruleOf(issue: z.core.$ZodIssue): FakeLoadRule {
  const declared = (issue as { params?: { rule?: FakeLoadRule } }).params?.rule;
  if (declared) return declared;
  if (issue.code === "unrecognized_keys") return "mcp-fakes/unknown-key";
  if (issue.path[0] === "scope") return "mcp-fakes/bad-scope";
  if (isEntryPath(issue.path)) return "mcp-fakes/bad-entry";
  return "mcp-fakes/bad-block";
}

export function isEntryPath(path: readonly PropertyKey[]): boolean {
  const list = LISTS[path[0] as ListKey];
  return list !== undefined && path[2] === list.entriesKey && typeof path[3] === "number";
}

/** An entry's id as `normalize` gives it: `block:id`, `block:tool#n`, `block:resource:<uri>#n`, `block:prompt:<name>#n`. */
export function entryId(blockId: string, list: ListKey, item: string, index: number, id: string | undefined): string {
  if (id !== undefined) return `${blockId}:${id}`;
  return list === "tools" ? `${blockId}:${item}#${index}` : `${blockId}:${list === "resources" ? "resource" : "prompt"}:${item}#${index}`;
}

export function rawEntryId(raw: unknown, path: readonly PropertyKey[], blockId: string): string | null {
  if (!isEntryPath(path)) return null;
  const list = path[0] as ListKey;
  const items = (raw as Record<string, unknown>)[list] as Array<Record<string, unknown>> | undefined;
  const item = items?.[path[1] as number];
  const entry = (item?.[LISTS[list].entriesKey] as Array<{ id?: unknown }> | undefined)?.[path[3] as number];
  const id = typeof entry?.id === "string" && entry.id !== "" ? entry.id : undefined;
  const nameKey = list === "resources" ? "uri" : "name";
  const name = typeof item?.[nameKey] === "string" ? (item[nameKey] as string) : `${list}[${String(path[1])}]`;
  return entryId(blockId, list, name, path[3] as number, id);
}

/** The items of a list of a raw block, and the entries of each, as far as they are arrays and objects (a block that failed its schema is walked too). */
export function rawEntries(raw: Record<string, unknown>, list: ListKey): Array<{ item: number; index: number; entry: Record<string, unknown> }> {
  const found: Array<{ item: number; index: number; entry: Record<string, unknown> }> = [];
  const items = raw[list];
  if (!Array.isArray(items)) return found;
  items.forEach((item: unknown, i) => {
    const entries = isObject(item) ? item[LISTS[list].entriesKey] : undefined;
    if (Array.isArray(entries)) entries.forEach((entry: unknown, index) => isObject(entry) && found.push({ item: i, index, entry }));
  });
  return found;
}

/** The `id`s used twice within a block that failed its schema (a loaded block's are checked by the store, against the mount too). */
export function repeatedIds(raw: Record<string, unknown>, blockId: string): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const list of Object.keys(LISTS) as ListKey[]) {
    for (const { entry } of rawEntries(raw, list)) {
      if (typeof entry.id !== "string" || entry.id === "") continue;
      const id = entryId(blockId, list, "", 0, entry.id);
      if (seen.has(id)) repeated.push(id);
      seen.add(id);
    }
  }
  return repeated;
}
