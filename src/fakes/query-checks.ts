/**
 * The checks of `inspect(query)` and `assertConsumed(query)`. A query that names nothing the
 * fakes know must not pass quietly: `assertConsumed({ testId: "checkout > pays" })` with a typo
 * in the id would find no blocks, hence no unused entries, and pass a test that used nothing.
 */
import { McpTestkitError } from "../errors.js";
import { checkKeys } from "../engine/spec-checks.js";
import { closest } from "../util/closest.js";
import { typeLabel } from "../util/text.js";
import type { FakesStore, MountFakes } from "./store.js";
import type { FakesListing, InspectQuery } from "./inspect.js";

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
 * Throws when the query names a mount with no fakes, or when no scoped block applies to it (the
 * blocks `listing` found, by the same levels a request is answered by): then nothing would be
 * checked. The message says why: the closest test id or context the blocks name and the known
 * ones, the mounts a test id's blocks are on, or the scopes that name it with another key.
 */
export function checkQueryFindsScopedBlocks(store: FakesStore, query: InspectQuery, listing: FakesListing, api: string): void {
  const mounts = [...store.mounts.values()];
  if (query.mount !== undefined && !store.mounts.has(query.mount)) {
    throw new McpTestkitError(
      `${api}: no fakes are loaded on mount ${JSON.stringify(query.mount)}${known(
        query.mount,
        mounts.map((m) => m.mount),
        "Mounts with fakes",
      )}`,
    );
  }
  if (listing.mounts.some((mount) => mount.blocks.some((block) => block.scope !== "shared"))) return;
  const asked = (["testId", "context"] as const).filter((key) => query[key] !== undefined && query[key] !== null);
  if (asked.length === 0) {
    throw new McpTestkitError(`${api} checks the scoped blocks of a test id or a context, and got neither: shared blocks are for every test and are never checked. Pass { testId } (or { context }).`);
  }
  const who = asked.map((key) => `${NOUN[key]} ${JSON.stringify(query[key])}`).join(" and ");
  const onMount = query.mount === undefined ? "" : ` on mount ${JSON.stringify(query.mount)}`;
  const hints = asked.map((key) => hintFor(mounts, query, key)).filter((hint) => hint !== "");
  throw new McpTestkitError(`${api}: no scoped block applies to ${who}${onMount}, so there is nothing to check.${hints.map((hint) => ` ${hint}`).join("")}`);
}

const NOUN = { testId: "test id", context: "context" } as const;

/** Why the blocks do not reach the asked `key`: no block names it (closest, known), its blocks are on other mounts, or they name it with other keys. */
function hintFor(mounts: readonly MountFakes[], query: InspectQuery, key: "testId" | "context"): string {
  const wanted = query[key]!;
  const names = new Set<string>();
  const homes = new Set<string>();
  const scopes = new Set<string>();
  for (const mount of mounts) {
    for (const block of mount.blocks) {
      const named = block.scope === "shared" ? undefined : block.scope[key];
      if (named === undefined) continue;
      names.add(named);
      if (named !== wanted) continue;
      if (query.mount !== undefined && mount.mount !== query.mount) homes.add(mount.mount);
      else scopes.add(JSON.stringify(block.scope));
    }
  }
  const noun = NOUN[key];
  if (scopes.size > 0) return `The blocks naming ${noun} ${JSON.stringify(wanted)} are scoped ${[...scopes].slice(0, LISTED).join(", ")}: ask with the same keys.`;
  if (homes.size > 0)
    return `The blocks naming ${noun} ${JSON.stringify(wanted)} are on mount ${[...homes].map((m) => JSON.stringify(m)).join(", ")}: ask for that mount, or leave "mount" out for all.`;
  return `No block names ${noun} ${JSON.stringify(wanted)}${known(wanted, names, `${key === "testId" ? "Test ids" : "Contexts"} the blocks name`)}`;
}

/** The end of a message about `wanted`: `; did you mean "x"? Label: "x", "y".`, `. Label: "x", "y".` or `. Label: none.` */
function known(wanted: string, names: Iterable<string>, label: string): string {
  const list = [...names];
  if (list.length === 0) return `. ${label}: none.`;
  const near = closest(wanted, list);
  const shown =
    list
      .slice(0, LISTED)
      .map((name) => JSON.stringify(name))
      .join(", ") + (list.length > LISTED ? `, and ${list.length - LISTED} more` : "");
  return `${near === undefined ? "." : `; did you mean ${JSON.stringify(near)}?`} ${label}: ${shown}.`;
}
