/**
 * The journal of MCP traffic seen by fakes: every call a fake answered or failed, with its
 * request and response, plus whatever the engine records for other calls. It keeps the newest
 * `limit` entries, so a long-running mock cannot grow without end.
 */
import type { McpFakeErrorCode } from "./fake-errors.js";

export type McpFakeOutcome = "answered" | "mismatch" | "exhausted" | "not_declared" | "evicted";

export interface JournalEntry {
  /** Increasing number of the entry since the journal was created. */
  seq: number;
  time: string;
  service: "mcp";
  mount: string;
  sessionId: string | null;
  testId: string | null;
  context: string | null;
  method: string;
  request: { id?: string | number | null; params?: unknown };
  response: {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
    /** Only on tools/call entries that fakes handled (not on internal errors). */
    mcpFake?: { outcome: McpFakeOutcome; entryId?: string; code?: McpFakeErrorCode };
  };
}

export type NewJournalEntry = Omit<JournalEntry, "seq" | "time" | "service">;

export interface JournalQuery {
  testId?: string;
  context?: string;
  mount?: string;
  method?: string;
  /** An outcome, or "failed": every fake failure and every entry with response.error. */
  outcome?: McpFakeOutcome | "failed";
  offset?: number;
  limit?: number;
}

export function isFailure(entry: JournalEntry): boolean {
  const outcome = entry.response.mcpFake?.outcome;
  return (outcome !== undefined && outcome !== "answered") || entry.response.error !== undefined;
}

function keep(entry: JournalEntry, query: JournalQuery): boolean {
  if (query.testId !== undefined && entry.testId !== query.testId) return false;
  if (query.context !== undefined && entry.context !== query.context) return false;
  if (query.mount !== undefined && entry.mount !== query.mount) return false;
  if (query.method !== undefined && entry.method !== query.method) return false;
  if (query.outcome === "failed") return isFailure(entry);
  if (query.outcome !== undefined && entry.response.mcpFake?.outcome !== query.outcome) return false;
  return true;
}

export class FakesJournal {
  private ring: JournalEntry[] = [];
  private oldest = 0;
  private seq = 0;
  /** Entries that fell off the front. */
  dropped = 0;

  constructor(readonly limit: number) {}

  record(entry: NewJournalEntry): JournalEntry {
    const full: JournalEntry = { seq: ++this.seq, time: new Date().toISOString(), service: "mcp", ...entry };
    if (this.limit === 0) {
      this.dropped++;
    } else if (this.ring.length < this.limit) {
      this.ring.push(full);
    } else {
      this.ring[this.oldest] = full;
      this.oldest = (this.oldest + 1) % this.limit;
      this.dropped++;
    }
    return full;
  }

  /** Fills in the reply of an entry journaled before it was sent (a fake's step runs after the fake chose it). */
  complete(entry: JournalEntry, reply: { result?: unknown; error?: { code: number; message: string; data?: unknown } }): void {
    if (reply.result !== undefined) entry.response.result = reply.result;
    if (reply.error !== undefined) entry.response.error = reply.error;
  }

  /** Entries oldest first, filtered, then paged by offset and limit. */
  entries(query: JournalQuery = {}): JournalEntry[] {
    const found: JournalEntry[] = [];
    for (let i = 0; i < this.ring.length; i++) {
      const entry = this.ring[(this.oldest + i) % this.ring.length];
      if (keep(entry, query)) found.push(entry);
    }
    const offset = query.offset ?? 0;
    return found.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
  }

  get size(): number {
    return this.ring.length;
  }

  clear(): void {
    this.ring = [];
    this.oldest = 0;
    this.dropped = 0;
  }
}
