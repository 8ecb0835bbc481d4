/**
 * A trace being taken: entries numbered as they come, grouped by call, kept in memory (the newest
 * `limit`) and, with a file, written as JSON Lines as they come (the first `limit`, then the last
 * one seen, carrying how many were dropped before it). Listeners hear each entry live.
 */
import { McpTestkitError } from "../errors.js";
import { RingBuffer } from "../util/ring-buffer.js";
import { logToStderr } from "../util/log.js";
import { errorText, typeLabel } from "../util/text.js";
import { CallGroups } from "./call-groups.js";
import { TRACE_FORMAT_VERSION, type TraceEntry, type TraceHeader } from "./entry.js";
import { TraceFile } from "./trace-file.js";

/** How many entries a trace keeps by default, in memory and in its file. */
export const DEFAULT_TRACE_LIMIT = 10_000;

/** What `trace` takes: `true` (in memory), a file path (JSON Lines, and in memory), or both spelled out. */
export type TraceOption = boolean | string | TraceOptions;

export interface TraceOptions {
  /** Write the trace to this file as JSON Lines, as messages pass (created with its folder, truncated). */
  file?: string;
  /** The most entries written to the file, and kept in memory (default 10,000; `Infinity` for no cap). */
  limit?: number;
  /** The most entries kept in memory when that should be fewer than `limit` (a long run's file). */
  keep?: number;
}

export interface TraceQuery {
  testId?: string;
}

export class TraceLog {
  readonly header: TraceHeader;
  readonly limit: number;
  private readonly kept: RingBuffer<TraceEntry>;
  private readonly file?: TraceFile;
  private readonly groups = new CallGroups();
  private seq = 0;
  private written = 0;
  /** Past the file's cap: the newest entry not written, and how many were not. */
  private unwritten?: TraceEntry;
  private unwrittenCount = 0;
  private listeners?: Set<(entry: TraceEntry) => void>;
  private closed = false;

  constructor(options: TraceOptions, source: TraceHeader["source"], target?: string) {
    this.limit = options.limit ?? DEFAULT_TRACE_LIMIT;
    this.header = { type: "mcp-testkit-trace", version: TRACE_FORMAT_VERSION, source, startedAt: Date.now(), ...(target !== undefined && { target }) };
    this.kept = new RingBuffer(Math.min(this.limit, options.keep ?? this.limit));
    if (options.file !== undefined) this.file = new TraceFile(options.file, this.header);
  }

  /** The file being written, if any. */
  get path(): string | undefined {
    return this.file?.path;
  }

  /** Entries dropped from memory to stay within `limit` (the oldest go). */
  get dropped(): number {
    return this.kept.dropped;
  }

  /** Numbers `draft` (its `seq` is replaced), puts it in its call's group, keeps it and writes it. */
  add(draft: TraceEntry): void {
    if (this.closed) return;
    const callId = this.groups.callOf(draft.from, draft.message, draft.callId, draft.sessionId);
    const entry: TraceEntry = { ...draft, seq: ++this.seq, ...(callId !== undefined && callId !== draft.callId && { callId }) };
    this.kept.push(entry);
    if (this.file !== undefined) this.writeToFile(entry);
    if (this.listeners !== undefined) for (const listener of this.listeners) tell(listener, entry);
  }

  private writeToFile(entry: TraceEntry): void {
    if (this.written < this.limit) {
      this.written++;
      this.file!.write(entry);
      return;
    }
    this.unwritten = entry;
    this.unwrittenCount++;
  }

  /** The entries kept, oldest first; the first carries `dropped` when older ones were dropped. */
  entries(query: TraceQuery = {}): TraceEntry[] {
    const testId = query.testId;
    const list = testId === undefined ? this.kept.toArray() : this.kept.filter((entry) => entry.testId === testId);
    const dropped = this.kept.dropped;
    // Dropped from memory means dropped before the oldest kept entry (of any test).
    if (dropped > 0 && list.length > 0) list[0] = { ...list[0]!, dropped };
    return list;
  }

  /** The trace as JSON Lines text: the header, then the entries kept. */
  text(query?: TraceQuery): string {
    return `${[this.header, ...this.entries(query)].map((line) => JSON.stringify(line)).join("\n")}\n`;
  }

  /** Hears each entry as it is added; returns a function that stops. A listener that throws is reported, not propagated. */
  onEntry(listener: (entry: TraceEntry) => void): () => void {
    if (typeof listener !== "function") throw new McpTestkitError(`onEntry(listener): the listener must be a function, got ${typeLabel(listener)}.`);
    this.listeners ??= new Set();
    this.listeners.add(listener);
    return () => this.listeners?.delete(listener);
  }

  /** Ends the trace: the file gets what is gathered (and the last entry past its cap) and closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.file === undefined) return;
    if (this.unwritten !== undefined) this.file.write({ ...this.unwritten, dropped: this.unwrittenCount - 1 });
    this.file.close();
  }
}

function tell(listener: (entry: TraceEntry) => void, entry: TraceEntry): void {
  try {
    listener(entry);
  } catch (error) {
    logToStderr("warn", `mcp-testkit: a trace listener threw: ${errorText(error)}`);
  }
}

/** The options `trace` stands for, or undefined when it is off; throws a teaching error for a bad value. */
export function traceOptionsOf(option: TraceOption | undefined, where: string): TraceOptions | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return {};
  if (typeof option === "string") {
    if (option === "") throw new McpTestkitError(`${where} "trace" is an empty file name; name a file such as "traces/run.jsonl", or pass true to keep the trace in memory.`);
    return { file: option };
  }
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    throw new McpTestkitError(`${where} "trace" must be true, a file name, or { file?, limit?, keep? }, got ${typeLabel(option)}.`);
  }
  for (const name of Object.keys(option)) {
    if (name !== "file" && name !== "limit" && name !== "keep") throw new McpTestkitError(`${where} "trace" takes { file?, limit?, keep? }; "${name}" is not one of them.`);
  }
  const { file, limit, keep } = option;
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 0))
    throw new McpTestkitError(`${where} "trace.keep" must be a whole number of entries kept in memory, 0 or more, got ${typeLabel(keep)}.`);
  if (file !== undefined && (typeof file !== "string" || file === "")) throw new McpTestkitError(`${where} "trace.file" must be a file name, got ${typeLabel(file)}.`);
  if (limit !== undefined && !((Number.isInteger(limit) || limit === Infinity) && limit >= 1)) {
    throw new McpTestkitError(`${where} "trace.limit" must be a whole number of entries, 1 or more, or Infinity for no cap, got ${typeLabel(limit)}.`);
  }
  return option;
}
