/**
 * The checks of `inspect(query)` and `assertConsumed(query)`. A query that names nothing the
 * fakes know must not pass quietly: `assertConsumed({ testId: "checkout > pays" })` with a typo
 * in the id would find no blocks, hence no unused entries, and pass a test that used nothing.
 */
import { McpTestkitError } from "../errors.js";
import { checkKeys } from "../engine/spec-checks.js";
import { closest } from "../util/closest.js";
import { typeLabel } from "../util/text.js";
import type { FakesStore } from "./store.js";
import type { InspectQuery } from "./inspect.js";

const QUERY_KEYS = ["testId", "context", "mount"] as const;
/** At most this many known names are listed in a message. */
const LISTED = 10;

/** Throws unless `query` is `{ testId?, context?, mount? }` with string (or null) values. */
export function checkInspectQuery(query: unknown, api: string): asserts query is InspectQuery {
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    throw new McpTestkitError(`${api} takes a query { testId?, context?, mount? }, got ${typeLabel(query)}.`);
  }
  checkKeys(query, QUERY_KEYS, `${api}'s query`);
  const record = query as Record<string, unknown>;
  for (const key of ["testId", "context"] as const) {
    const value = record[key];
    if (value !== undefined && value !== null && typeof value !== "string") {
      throw new McpTestkitError(`${api}'s query: "${key}" must be a string (or null for none), got ${typeLabel(value)}.`);
    }
  }
  if (record.mount !== undefined && typeof record.mount !== "string") {
    throw new McpTestkitError(`${api}'s query: "mount" must be a mount path such as "/mcp", got ${typeLabel(record.mount)}.`);
  }
}

/**
 * Throws when the query names a mount with no fakes, or a test id or context that no scoped
 * block on the queried mounts names: the closest known one, the known ones, or where that
 * test id's blocks are.
 */
export function checkQueryNamesFakes(store: FakesStore, query: InspectQuery, api: string): void {
  const mounts = [...store.mounts.values()];
  if (query.mount !== undefined && !store.mounts.has(query.mount)) {
    throw new McpTestkitError(`${api}: no fakes are loaded on mount ${JSON.stringify(query.mount)}${known(query.mount, mounts.map((m) => m.mount), "Mounts with fakes")}`);
  }
  for (const key of ["testId", "context"] as const) {
    const wanted = query[key];
    if (wanted === undefined || wanted === null) continue;
    const where = new Map<string, Set<string>>();
    for (const mount of mounts) {
      for (const block of mount.blocks) {
        const named = block.scope === "shared" ? undefined : block.scope[key];
        if (named !== undefined) (where.get(named) ?? where.set(named, new Set()).get(named)!).add(mount.mount);
      }
    }
    const homes = where.get(wanted);
    if (homes !== undefined && (query.mount === undefined || homes.has(query.mount))) continue;
    const noun = key === "testId" ? "test id" : "context";
    if (homes !== undefined) {
      throw new McpTestkitError(`${api}: no scoped block on mount ${JSON.stringify(query.mount)} names ${noun} ${JSON.stringify(wanted)}; its blocks are on ${[...homes].map((m) => JSON.stringify(m)).join(", ")}. Ask for that mount, or leave "mount" out for all.`);
    }
    throw new McpTestkitError(`${api}: no scoped block names ${noun} ${JSON.stringify(wanted)}, so there is nothing to check${known(wanted, where.keys(), `${key === "testId" ? "Test ids" : "Contexts"} the blocks name`)}`);
  }
}

/** "; did you mean "x"? Known: a, b." or "." with the list, or ". None is loaded." */
function known(wanted: string, names: Iterable<string>, label: string): string {
  const list = [...names];
  if (list.length === 0) return `. ${label}: none.`;
  const near = closest(wanted, list);
  const shown = list.slice(0, LISTED).map((name) => JSON.stringify(name)).join(", ") + (list.length > LISTED ? `, and ${list.length - LISTED} more` : "");
  return `${near === undefined ? "." : `; did you mean ${JSON.stringify(near)}?`} ${label}: ${shown}.`;
}
