/** What a surface diff is made of: one change, its kind and class, and the helpers every rule uses to make one. */
import { describeValue } from "./schema-keywords.js";
import { compareText } from "./surface.js";

type Json = Record<string, unknown>;

export type ChangeClass = "breaking" | "compatible" | "informational";
export type ChangeKind = "added" | "removed" | "changed";

/** One difference between two surfaces. */
export interface SurfaceChange {
  kind: ChangeKind;
  class: ChangeClass;
  /** Where, as segments: `["tools", "search", "inputSchema", "properties", "limit", "maximum"]`. */
  path: string[];
  /** What changed and why it is classed so, in one line. */
  message: string;
  before?: unknown;
  after?: unknown;
}

export type Push = (change: SurfaceChange) => void;

/** A change of one value, its kind from which side has it. */
export function changeOf(path: string[], changeClass: ChangeClass, what: string, before: unknown, after: unknown, why?: string): SurfaceChange {
  const kind: ChangeKind = before === undefined ? "added" : after === undefined ? "removed" : "changed";
  const words =
    kind === "added" ? `${what} added: ${describeValue(after)}` : kind === "removed" ? `${what} removed (was ${describeValue(before)})` : `${what} ${describeValue(before)} → ${describeValue(after)}`;
  return { kind, class: changeClass, path, message: why === undefined ? words : `${words}: ${why}`, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) };
}

export function unionKeys(a: Json, b: Json): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareText);
}
