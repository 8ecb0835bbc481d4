/**
 * Reads what `mcp-testkit view` is given into timeline data: a trace (JSON Lines) as it is, and
 * a HAR, a mock's call record, a journal or a recording through their readers. The kind is
 * judged by content, not by the file's name, so a renamed file still reads.
 */
import { McpTestkitError } from "../errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { TRACE_FORMAT_VERSION, type TraceEntry, type TraceHeader } from "../trace/entry.js";
import { entriesFromHar, entriesFromJournal, entriesFromRecord, entriesFromRecording, type ReadEntries } from "./input-readers.js";
import type { TimelineData } from "./timeline-data.js";

/** The stable code of every error reading an input; the message says what was expected. */
export const VIEW_INPUT_ERROR = "MCP_VIEW_INPUT";

const KINDS_EXPECTED =
  'a trace (JSON Lines starting with {"type":"mcp-testkit-trace"}), a HAR ("log"."entries"), a call record ({"calls": [...]}), a journal (GET /__mcp-testkit/journal) or a recording (mcp-testkit record --out)';

/** Reads `text` (the content of `name`) into the page's data; throws a McpTestkitError saying what it expected. */
export function readTimelineInput(text: string, name: string): TimelineData {
  const trimmed = text.trimStart();
  if (trimmed === "") throw inputError(`"${name}" is empty; expected ${KINDS_EXPECTED}.`);
  const firstLine = trimmed.slice(0, trimmed.indexOf("\n") === -1 ? undefined : trimmed.indexOf("\n"));
  const header = parseLine(firstLine);
  if (isObject(header) && header.type === "mcp-testkit-trace") return readTrace(trimmed, name);
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch (error) {
    throw inputError(`"${name}" is neither JSON nor a trace: ${(error as Error).message}; expected ${KINDS_EXPECTED}.`);
  }
  const read = readDocument(document);
  if (read === undefined) throw inputError(`"${name}" is JSON of no kind the timeline reads (${describeTop(document)}); expected ${KINDS_EXPECTED}.`);
  const header0: TraceHeader = { type: "mcp-testkit-trace", version: TRACE_FORMAT_VERSION, source: "import", startedAt: read.entries[0]?.at ?? 0 };
  return { header: header0, entries: read.entries, title: name, kind: read.kind, ...(read.notes.length > 0 && { notes: read.notes }) };
}

function readDocument(document: unknown): (ReadEntries & { kind: Exclude<TimelineData["kind"], "trace" | "live"> }) | undefined {
  if (Array.isArray(document)) return { kind: "journal", ...entriesFromJournal(document) };
  if (!isObject(document)) return undefined;
  if (isObject(document.log) && Array.isArray(document.log.entries)) return { kind: "har", ...entriesFromHar(document.log.entries) };
  if (Array.isArray(document.calls)) return { kind: "record", ...entriesFromRecord(document.calls) };
  if (Array.isArray(document.entries) && document.entries.every((entry) => isObject(entry) && "method" in entry && "response" in entry)) {
    return { kind: "journal", ...entriesFromJournal(document.entries) };
  }
  if (isObject(document.mcpFakes) || Array.isArray(document.fixtures) || isObject(document.fixtures)) return { kind: "recording", ...entriesFromRecording(document) };
  return undefined;
}

/** A trace file: its header, then one entry a line; a torn last line (a crash mid-write) is left out. */
function readTrace(text: string, name: string): TimelineData {
  const lines = text.split("\n");
  const header = JSON.parse(lines[0]!) as TraceHeader;
  if (typeof header.version !== "number" || header.version > TRACE_FORMAT_VERSION) {
    throw inputError(`"${name}" is a trace of format version ${String(header.version)}; this mcp-testkit reads version ${TRACE_FORMAT_VERSION} and older: update mcp-testkit to view it.`);
  }
  const entries: TraceEntry[] = [];
  const notes: string[] = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === "") continue;
    const entry = parseLine(line);
    if (isEntry(entry)) {
      entries.push(entry);
      continue;
    }
    const last = lines.slice(index + 1).every((rest) => rest.trim() === "");
    if (last && entry === undefined) {
      notes.push(`The last line (${index + 1}) was cut off, as when the writer stopped mid-line; it is left out.`);
      continue;
    }
    throw inputError(`"${name}" line ${index + 1} is not a trace entry (expected {"seq", "at", "from", "message" or "raw", "wire"}); got ${line.slice(0, 80)}${line.length > 80 ? "…" : ""}`);
  }
  return { header, entries, title: name, kind: "trace", ...(notes.length > 0 && { notes }) };
}

function isEntry(value: unknown): value is TraceEntry {
  return isObject(value) && typeof value.seq === "number" && typeof value.at === "number" && (value.from === "client" || value.from === "server");
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function describeTop(document: unknown): string {
  if (!isObject(document)) return `a ${document === null ? "null" : typeof document}`;
  const keys = Object.keys(document).slice(0, 5);
  return keys.length === 0 ? "an empty object" : `an object with ${keys.map((key) => JSON.stringify(key)).join(", ")}`;
}

function inputError(detail: string): McpTestkitError {
  return new McpTestkitError(detail, { code: VIEW_INPUT_ERROR });
}
