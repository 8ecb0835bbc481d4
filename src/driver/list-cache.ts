/**
 * The four lists, each fetched once across all its pages and kept until the server says it
 * changed (`list_changed` bumps the list's generation, so an answer fetched before the change is
 * not kept) or, in 2026-07-28, until its `ttlMs` has passed (the shortest of its pages'; 0:
 * asked again every time). A fetch that fails is forgotten, so the next call asks again. In
 * 2026-07-28 the `list_changed` notifications come through a subscription (list-changes.ts).
 */
import { LIST_KINDS, listKind, type ListKind } from "../protocol/list-kinds.js";
import { describePagingFailure, itemsOf, walkPages } from "../protocol/pagination.js";
import { ProtocolError, type ProcessContext } from "./errors.js";
import type { JsonObject, RequestSpec } from "./rpc-channel.js";

/** A server that keeps answering with new cursors is stopped here rather than looping forever. */
const maxPages = 10_000;

export type PageRequest = (method: string, params: JsonObject | undefined, spec: RequestSpec) => Promise<JsonObject>;

export class ListCache {
  private readonly lists = new Map<ListKind, { generation: number; items: Promise<unknown[]>; expiresAt: number }>();
  private readonly generations: Record<ListKind, number> = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
  private readonly changedBy = new Map<string, ListKind[]>();

  constructor(
    /** Sends one page's request (once the session is ready). */
    private readonly request: PageRequest,
    private readonly processContext: () => ProcessContext | undefined,
  ) {
    for (const { kind, listChanged } of LIST_KINDS) this.changedBy.set(listChanged, [...(this.changedBy.get(listChanged) ?? []), kind]);
  }

  /**
   * Called as each list fetch starts, before its first request: may start following list
   * changes (2026-07-28), and gives what the fetch waits for too before it hands its list back.
   */
  private beforeFetch: () => Promise<void> | undefined = () => undefined;

  /** Sets what runs as each list fetch starts (the era's way of following list changes). */
  followChangesWith(beforeFetch: () => Promise<void> | undefined): void {
    this.beforeFetch = beforeFetch;
  }

  get<T>(kind: ListKind, refresh: boolean): Promise<T[]> {
    const cached = this.lists.get(kind);
    if (!refresh && cached && cached.generation === this.generations[kind] && performance.now() < cached.expiresAt) return cached.items as Promise<T[]>;
    const entry = { generation: this.generations[kind], items: Promise.resolve<unknown[]>([]), expiresAt: Infinity };
    entry.items = this.fetchAll(kind, (ttlMs) => (entry.expiresAt = performance.now() + ttlMs));
    this.lists.set(kind, entry);
    entry.items.catch(() => {
      if (this.lists.get(kind) === entry) this.lists.delete(kind);
    });
    return entry.items as Promise<T[]>;
  }

  /** Whether a `list_changed` came since the cached list was fetched (its `ttlMs` running out does not count). */
  changedSinceFetch(kind: ListKind): boolean {
    const cached = this.lists.get(kind);
    return cached !== undefined && cached.generation !== this.generations[kind];
  }

  /** Every list is stale (the subscription that followed their changes lapsed). */
  noticeAll(): void {
    for (const kind of Object.keys(this.generations) as ListKind[]) this.generations[kind]++;
  }

  /** A notification: a `list_changed` makes the lists it names stale. */
  notice(method: string): void {
    for (const kind of this.changedBy.get(method) ?? []) this.generations[kind]++;
  }

  private async fetchAll(kind: ListKind, expireAfter: (ttlMs: number) => void): Promise<unknown[]> {
    const { method, key } = listKind(kind);
    const following = this.beforeFetch();
    const { pages, end } = await walkPages(
      (cursor, page) => this.request(method, cursor === undefined ? undefined : { cursor }, { label: cursor === undefined ? method : `${method} (page ${page})` }),
      maxPages,
    );
    if (following !== undefined) await following;
    if (end.kind !== "done") throw new ProtocolError(describePagingFailure(method, end), { method, process: this.processContext() });
    const ttls = pages.map((page) => page.ttlMs).filter((ttl): ttl is number => typeof ttl === "number" && ttl >= 0);
    if (ttls.length > 0) expireAfter(Math.min(...ttls));
    return itemsOf(pages, key);
  }
}
