/**
 * The journal of MCP traffic seen by fakes: every call a fake answered or failed, with its
 * request and response, plus whatever the engine records for other calls. It keeps the newest
 * `limit` entries, so a long-running mock cannot grow without end.
 */
import { RingBuffer } from "../util/ring-buffer.js";
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

/** The time as ISO text, made once per millisecond: a faked call journals on every call, several to a millisecond under load. */
let lastMs = Number.NaN;
let lastIso = "";
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

export class FakesJournal {
  private readonly ring: RingBuffer<JournalEntry>;
  private seq = 0;

  constructor(readonly limit: number) {
    this.ring = new RingBuffer(limit);
  }

  /** Entries that fell off the front (since the last `clear()`). */
  get dropped(): number {
    return this.ring.dropped;
  }

  record(entry: NewJournalEntry): JournalEntry {
    return this.add(entry, entry.response);
  }

  /** `record({ ...head, response })`, without the spread: a faked call journals on every call. */
  add(head: Omit<NewJournalEntry, "response">, response: JournalEntry["response"]): JournalEntry {
    const full: JournalEntry = {
      seq: ++this.seq,
      time: isoNow(),
      service: "mcp",
      mount: head.mount,
      sessionId: head.sessionId,
      testId: head.testId,
      context: head.context,
      method: head.method,
      request: head.request,
      response,
    };
    this.ring.push(full);
    return full;
  }

  /** Fills in the reply of an entry journaled before it was sent (a fake's step runs after the fake chose it). */
  complete(entry: JournalEntry, reply: { result?: unknown; error?: { code: number; message: string; data?: unknown } }): void {
    if (reply.result !== undefined) entry.response.result = reply.result;
    if (reply.error !== undefined) entry.response.error = reply.error;
  }

  /** Entries oldest first, filtered, then paged by offset and limit. */
  entries(query: JournalQuery = {}): JournalEntry[] {
    const found = this.ring.filter((entry) => keep(entry, query));
    const offset = query.offset ?? 0;
    return found.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
  }

  get size(): number {
    return this.ring.size;
  }

  /** Forgets the entries and the dropped count; numbering goes on. */
  clear(): void {
    this.ring.clear();
  }
}
