/**
 * `diffSurfaces(before, after)`: what changed between two surfaces of a server, each change
 * classed by whom it breaks. A removed tool, resource, template or prompt, and a lost
 * capability, break clients. Schemas are compared by direction: an input schema breaks callers
 * when it accepts less, an output schema breaks consumers when it promises less (schema-diff.ts
 * says which way each difference goes). Words, titles and hints are informational.
 */
import { compareSchemas, type SchemaDirection, type SchemaEffect } from "./schema-diff.js";
import { changeOf, unionKeys, type ChangeClass, type ChangeKind, type Push, type SurfaceChange } from "./changes.js";
import { canonical } from "./schema-diff.js";
export type { ChangeClass, ChangeKind, SurfaceChange } from "./changes.js";
import { compareText, SURFACE_LISTS, type ServerSurface } from "./surface.js";
import { ignoreMatcher } from "./change-paths.js";
import { compareCapabilities, compareExecution, comparePromptArguments } from "./surface-rules.js";

type Json = Record<string, unknown>;

export interface SurfaceDiff {
  /** Breaking changes first, then compatible, then informational; each group in path order. */
  changes: SurfaceChange[];
  counts: Record<ChangeClass, number>;
  /** Parts of the surface one side does not have (a recording holds no capabilities), so they were not compared. */
  notCompared: string[];
  /** How many changes `ignore` left out. */
  ignored: number;
}

export interface DiffSurfacesOptions {
  /**
   * Paths to leave out, dot-separated, `*` for one segment and `**` for any number, a name with
   * dots in brackets: `serverInfo.version`, `tools.*.description`, `resources["file:///a.txt"]`.
   * A change under an ignored path is left out too.
   */
  ignore?: readonly string[];
}

const CLASS_ORDER: Record<ChangeClass, number> = { breaking: 0, compatible: 1, informational: 2 };

/** Every change from `before` to `after`, classed. */
export function diffSurfaces(before: ServerSurface, after: ServerSurface, options: DiffSurfacesOptions = {}): SurfaceDiff {
  const changes: SurfaceChange[] = [];
  const push = (change: SurfaceChange) => changes.push(change);
  const notCompared: string[] = [];

  compareInfo(before, after, push, notCompared);
  if (before.capabilities !== undefined && after.capabilities !== undefined) compareCapabilities(before.capabilities, after.capabilities, push);
  else if (before.capabilities !== undefined || after.capabilities !== undefined)
    notCompared.push(`capabilities (only the ${before.capabilities === undefined ? "second" : "first"} side says what they are)`);

  for (const { list, key, noun } of SURFACE_LISTS) {
    const was = byKey(before[list] ?? [], key);
    const now = byKey(after[list] ?? [], key);
    for (const [name, item] of was) {
      const path = [list, name];
      const other = now.get(name);
      if (other === undefined) {
        push({ kind: "removed", class: "breaking", path, message: `${noun} "${name}" removed: clients that use it fail`, before: item });
        continue;
      }
      compareItem(noun, name, item, other, path, push);
    }
    for (const [name, item] of now) if (!was.has(name)) push({ kind: "added", class: "compatible", path: [list, name], message: `${noun} "${name}" added`, after: item });
  }

  const ignored = ignoreMatcher(options.ignore ?? []);
  const kept = changes.filter((change) => !ignored(change.path));
  kept.sort((a, b) => CLASS_ORDER[a.class] - CLASS_ORDER[b.class] || comparePaths(a.path, b.path));
  const counts: Record<ChangeClass, number> = { breaking: 0, compatible: 0, informational: 0 };
  for (const change of kept) counts[change.class]++;
  return { changes: kept, counts, notCompared, ignored: changes.length - kept.length };
}

/** The class of the worst change (`"none"` for no change). */
export function worstClass(diff: SurfaceDiff): ChangeClass | "none" {
  return diff.counts.breaking > 0 ? "breaking" : diff.counts.compatible > 0 ? "compatible" : diff.counts.informational > 0 ? "informational" : "none";
}

function compareInfo(before: ServerSurface, after: ServerSurface, push: Push, notCompared: string[]): void {
  if (before.protocolVersion !== after.protocolVersion && before.protocolVersion !== undefined && after.protocolVersion !== undefined) {
    push(changed(["protocolVersion"], "informational", `protocol version ${before.protocolVersion} → ${after.protocolVersion}`, before.protocolVersion, after.protocolVersion));
  }
  if (before.serverInfo !== undefined && after.serverInfo !== undefined) compareWords(["serverInfo"], before.serverInfo, after.serverInfo, "server info", push);
  else if (before.serverInfo !== undefined || after.serverInfo !== undefined) notCompared.push(`server info (only the ${before.serverInfo === undefined ? "second" : "first"} side says what it is)`);
  if (before.instructions !== after.instructions) {
    push(changeOf(["instructions"], "informational", "instructions", before.instructions, after.instructions));
  }
}

/** Each key of two objects whose change is informational (server info, annotations, words). */
function compareWords(path: string[], before: Json, after: Json, noun: string, push: Push): void {
  for (const key of unionKeys(before, after)) {
    if (canonical(before[key]) === canonical(after[key])) continue;
    push(changeOf([...path, key], "informational", `${noun} ${key}`, before[key], after[key]));
  }
}

/** Keys of a listed item with a rule of their own; the rest are informational. */
const ITEM_RULES = new Set(["name", "uri", "uriTemplate", "inputSchema", "outputSchema", "execution", "mimeType", "arguments", "annotations"]);

function compareItem(noun: string, name: string, before: Json, after: Json, path: string[], push: Push): void {
  const label = `${noun} "${name}"`;
  if (noun === "tool") {
    compareSchema(label, "input", before.inputSchema ?? {}, after.inputSchema ?? {}, [...path, "inputSchema"], push);
    compareOutputSchema(label, before.outputSchema, after.outputSchema, [...path, "outputSchema"], push);
    compareExecution(label, before.execution, after.execution, [...path, "execution"], push);
  }
  if (noun === "prompt") comparePromptArguments(label, before.arguments, after.arguments, [...path, "arguments"], push);
  if (before.mimeType !== after.mimeType) {
    push(changeOf([...path, "mimeType"], "breaking", `${label} mimeType`, before.mimeType, after.mimeType, "readers get another kind of content"));
  }
  const annotations = (item: Json) => (typeof item.annotations === "object" && item.annotations !== null ? (item.annotations as Json) : {});
  compareWords([...path, "annotations"], annotations(before), annotations(after), `${label} annotation`, push);
  for (const key of unionKeys(before, after)) {
    if (ITEM_RULES.has(key) || canonical(before[key]) === canonical(after[key])) continue;
    push(changeOf([...path, key], "informational", `${label} ${key}`, before[key], after[key]));
  }
}

function compareOutputSchema(label: string, before: unknown, after: unknown, path: string[], push: Push): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    push({ kind: "added", class: "compatible", path, message: `${label} now declares an output schema`, after });
    return;
  }
  if (after === undefined) {
    push({ kind: "removed", class: "breaking", path, message: `${label} no longer declares an output schema: consumers lose the structured content it promised`, before });
    return;
  }
  compareSchema(label, "output", before, after, path, push);
}

function compareSchema(label: string, direction: SchemaDirection, before: unknown, after: unknown, path: string[], push: Push): void {
  for (const finding of compareSchemas(before, after)) {
    const kind: ChangeKind = finding.effect === "added" || finding.before === undefined ? "added" : finding.after === undefined ? "removed" : "changed";
    const changeClass = classOf(finding.effect, direction);
    push({
      kind,
      class: changeClass,
      path: [...path, ...finding.path],
      message: `${label} ${direction}: ${finding.what}${reasonOf(finding.effect, direction)}`,
      ...(finding.before === undefined ? {} : { before: finding.before }),
      ...(finding.after === undefined ? {} : { after: finding.after }),
    });
  }
}

/** How a schema difference lands on its readers: an input read by callers, an output by consumers. */
export function classOf(effect: SchemaEffect, direction: SchemaDirection): ChangeClass {
  switch (effect) {
    case "annotation":
      return "informational";
    case "added":
      return "compatible";
    case "incomparable":
    case "removed":
      return "breaking";
    case "narrower":
      return direction === "input" ? "breaking" : "compatible";
    case "wider":
      return direction === "input" ? "compatible" : "breaking";
  }
}

function reasonOf(effect: SchemaEffect, direction: SchemaDirection): string {
  if (effect === "annotation" || effect === "added") return "";
  if (effect === "removed") return direction === "input" ? " (accepts less: calls that pass it are refused)" : " (promises less: consumers that read it lose it)";
  if (effect === "incomparable") return direction === "input" ? " (accepts different values: calls that worked may be refused)" : " (promises different values)";
  if (direction === "input") return effect === "narrower" ? " (accepts less: calls that worked may be refused)" : " (accepts more)";
  return effect === "wider" ? " (promises less: consumers may get what they did not expect)" : " (promises more)";
}

function changed(path: string[], changeClass: ChangeClass, message: string, before: unknown, after: unknown): SurfaceChange {
  return { kind: "changed", class: changeClass, path, message, before, after };
}

function byKey(items: readonly Json[], key: string): Map<string, Json> {
  const map = new Map<string, Json>();
  for (const item of items) map.set(String(item[key]), item);
  return map;
}

function comparePaths(a: string[], b: string[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const order = compareText(a[index]!, b[index]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}
