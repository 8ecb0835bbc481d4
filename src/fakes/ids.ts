/**
 * Block and entry ids, in the one stable form errors, the journal and the control API all show:
 * `file:tool#n`, `file:id`, `file[i]:tool#n` for the array form, `file@2` for a reload,
 * `code#n` and `control-api#n` for blocks added from code and through the control API.
 */
import type { FakeSourceKind } from "./types.js";

/** The part of a block id before any `[i]`: the file name with its reload suffix, or `code#n` / `control-api#n`. */
export function sourceBase(kind: FakeSourceKind, name: string | null, number: number): string {
  if (kind === "file") return number > 1 ? `${name}@${number}` : String(name);
  return `${kind}#${number}`;
}

export function blockId(base: string, position: number | null): string {
  return position === null ? base : `${base}[${position}]`;
}

/** A file's name in ids: relative to its fixtures directory, with forward slashes on every OS. */
export function fileName(path: string): string {
  return path.split("\\").join("/");
}
