/**
 * The one `nextCursor` loop. MCP lists come in pages: each result may carry a `nextCursor` to
 * ask for the next one. A server can break that in three ways (a cursor that is not a string, one
 * that comes back, cursors that never end); the loop stops on each and says which, and the
 * caller decides whether that is an exception (the driver) or a finding (`check`).
 */
export type PageWalkEnd =
  | { kind: "done" }
  /** `fetch` returned undefined: the caller stopped (a page failed, say). */
  | { kind: "stopped"; page: number }
  | { kind: "not-a-string"; page: number; cursor: unknown }
  | { kind: "repeated"; page: number; cursor: string }
  | { kind: "too-many"; maxPages: number };

export interface PageWalk<P> {
  pages: P[];
  end: PageWalkEnd;
}

/**
 * Fetches page after page: `fetch(cursor, page)` gets undefined as the cursor for the first
 * page. At most `maxPages` pages are fetched.
 */
export async function walkPages<P extends Record<string, unknown>>(fetch: (cursor: string | undefined, page: number) => Promise<P | undefined>, maxPages: number): Promise<PageWalk<P>> {
  const pages: P[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetch(cursor, page);
    if (result === undefined) return { pages, end: { kind: "stopped", page } };
    pages.push(result);
    const next = result.nextCursor;
    if (next === undefined) return { pages, end: { kind: "done" } };
    if (typeof next !== "string") return { pages, end: { kind: "not-a-string", page, cursor: next } };
    if (cursors.has(next)) return { pages, end: { kind: "repeated", page, cursor: next } };
    cursors.add(next);
    cursor = next;
  }
  return { pages, end: { kind: "too-many", maxPages } };
}

/** The items of every page, from the result field `key`. */
export function itemsOf(pages: readonly Record<string, unknown>[], key: string): unknown[] {
  const items: unknown[] = [];
  for (const page of pages) {
    const pageItems = page[key];
    if (Array.isArray(pageItems)) items.push(...(pageItems as unknown[]));
  }
  return items;
}

/**
 * Why a walk over `method`'s pages did not end well, as one sentence for an exception (the
 * driver's lists, the kit's assertions); `check` words the same ends as findings of its own.
 */
export function describePagingFailure(method: string, end: Exclude<PageWalkEnd, { kind: "done" }>): string {
  switch (end.kind) {
    case "too-many":
      return `${method}: the server was still returning a nextCursor after ${end.maxPages} pages.`;
    case "not-a-string":
      return `${method}: the server returned nextCursor ${JSON.stringify(end.cursor)} (not a string), so the pages would never end.`;
    case "repeated":
      return `${method}: the server returned nextCursor ${JSON.stringify(end.cursor)} a second time, so the pages would never end.`;
    case "stopped":
      return `${method}: paging stopped at page ${end.page}.`;
  }
}
