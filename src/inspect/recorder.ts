/**
 * The traffic journal: records messages in both directions, gives responses the method and
 * latency of their own request, and (in strict mode) validates each message. It knows no
 * transport, so the engine and the wires can feed it directly; `RecordingTransport` feeds it
 * from any SDK-shaped transport.
 */
import { McpTestkitError } from "../errors.js";
import { isObject, isRequest, isResponse, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { RequestCorrelator } from "./correlator.js";
import { copyPlainJson } from "./json-text.js";
import { BoundedJournal } from "./journal.js";
import { headerReader } from "../protocol/http-headers.js";
import { checkMessage, type MessageHeaders } from "./strict.js";
import type { ErrorRecord, MessageProblem, MessageRecord, TrafficProblem, TrafficRecord, TrafficRecorderOptions, TrafficSide } from "./types.js";
import { NO_PROBLEMS } from "./types.js";
import { errorText } from "../util/text.js";

/** How many records a `TrafficRecorder` keeps by default (`maxRecords`); older ones are dropped and counted. */
export const DEFAULT_MAX_RECORDS = 10_000;

/** Keeps every message and transport error of a wrapped transport, in order, with latency and (strict mode) validation problems. */
export class TrafficRecorder {
  readonly side: TrafficSide;
  readonly strict: boolean | "throw";
  readonly maxRecords: number;
  private readonly onProblem: TrafficRecorderOptions["onProblem"];
  private readonly journal: BoundedJournal<TrafficRecord | UnparsedRecord>;
  /** Whether a record kept as its text was pushed since the journal was last read. */
  private unparsed = false;
  /** Records pushed since then: the ones a read must look at (the newest). */
  private pushedSinceRead = 0;
  private readonly problemJournal: BoundedJournal<TrafficProblem>;
  private readonly correlator: RequestCorrelator;
  private negotiatedVersion: string | undefined;
  /** Over Streamable HTTP (messages recorded with headers): the tools `tools/list` gave, and the session id `initialize` got. */
  private httpTools: Map<string, { name: string; inputSchema?: unknown }> | undefined;
  private httpSessionId: string | undefined;

  constructor(options: TrafficRecorderOptions = {}) {
    const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
    if (!Number.isInteger(maxRecords) || maxRecords < 1) {
      throw new McpTestkitError(`maxRecords must be a positive integer, got ${String(maxRecords)}.`);
    }
    if (options.side !== undefined && options.side !== "client" && options.side !== "server") {
      throw new McpTestkitError(`side must be "client" or "server", got ${JSON.stringify(options.side)}.`);
    }
    this.side = options.side ?? "client";
    this.strict = options.strict ?? false;
    this.maxRecords = maxRecords;
    this.onProblem = options.onProblem;
    this.journal = new BoundedJournal(maxRecords);
    this.problemJournal = new BoundedJournal(maxRecords);
    this.correlator = new RequestCorrelator(maxRecords);
  }

  /** The protocol version learned from the `initialize` result or `setProtocolVersion`, if any yet. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  setProtocolVersion(version: string): void {
    this.negotiatedVersion = version;
  }

  /** Every record kept, oldest first, as a new array. */
  get messages(): TrafficRecord[] {
    if (this.unparsed) {
      this.journal.replaceNewest(this.pushedSinceRead, parseRecord);
      this.unparsed = false;
    }
    this.pushedSinceRead = 0;
    return this.journal.toArray() as TrafficRecord[];
  }

  /** Every problem strict mode found in the records kept, oldest first. */
  get problems(): TrafficProblem[] {
    return this.problemJournal.toArray();
  }

  /** How many records were dropped to stay within `maxRecords` since the last `clear()`. */
  get dropped(): number {
    return this.journal.dropped;
  }

  /** The records with that method; responses count under the method of their request. */
  byMethod(method: string): TrafficRecord[] {
    return this.messages.filter((record) => record.method === method);
  }

  /** The number of records per method. Records with no known method are not counted. */
  methodCounts(): Record<string, number> {
    const counts = new Map<string, number>();
    for (const { method } of this.journal.toArray()) {
      if (method !== undefined) counts.set(method, (counts.get(method) ?? 0) + 1);
    }
    return Object.fromEntries(counts);
  }

  /** The mean latency of the responses kept, in ms; 0 when there are none. */
  averageLatency(): number {
    let total = 0;
    let count = 0;
    for (const { latency } of this.journal.toArray()) {
      if (latency === undefined) continue;
      total += latency;
      count++;
    }
    return count === 0 ? 0 : total / count;
  }

  /**
   * Drops the records, problems and `dropped` count. Requests still in flight stay known, so
   * a response that arrives after `clear()` still gets its method and latency.
   */
  clear(): void {
    this.journal.clear();
    this.unparsed = false;
    this.pushedSinceRead = 0;
    this.problemJournal.clear();
  }

  /**
   * Records a message sent (`outgoing`) or received (`incoming`) and returns the record.
   * `jsonText` is for transports that carry JSON text (see json-text.ts): the text an incoming
   * message was parsed from, or the text an outgoing one is sent as (`JSON.stringify(message)`).
   * The record's copy is then made from it, more cheaply than a general deep copy.
   * `headers` are the HTTP headers the message came with over Streamable HTTP (the POST's for a
   * client's message, the response's for a server's): strict mode then checks the header rules
   * too (`headers.<name>` problems), knowing the tools `tools/list` gave and the session id
   * `initialize` got.
   */
  recordMessage(direction: "outgoing" | "incoming", message: unknown, jsonText?: string, headers?: MessageHeaders): MessageRecord {
    return this.keep(direction, message, jsonText, headers, false) as MessageRecord;
  }

  /**
   * Records a message received as JSON text (a stdio line), as `recordMessage` would, except that
   * the record's copy is parsed from `jsonText` only when the records are first read. So nothing
   * but the checks stands between a response and the caller's next request, and the record holds
   * one string until then rather than a tree of objects. `jsonText` must be the text `message`
   * was parsed from, and a string of its own (a substring keeps its parent alive). A message with
   * problems is copied at once (`onProblem` gets its record); text that turns out not to be JSON
   * becomes an error record saying so.
   */
  recordReceivedText(message: unknown, jsonText: string): void {
    this.keep("incoming", message, jsonText, undefined, true);
  }

  private keep(direction: "outgoing" | "incoming", message: unknown, jsonText: string | undefined, headers: MessageHeaders | undefined, parseLater: boolean): MessageRecord | UnparsedRecord {
    const timestamp = Date.now();
    const now = performance.now();
    const id = readId(message);
    let method: string | undefined;
    let latency: number | undefined;

    if (isRequest(message)) {
      method = message.method;
      this.correlator.requestSeen(direction, message.id, message.method, now);
    } else if (isResponse(message)) {
      const request = this.correlator.responseSeen(direction, message.id);
      method = request?.method;
      latency = request === undefined ? undefined : now - request.sentAt;
      if (method === "initialize") this.learnVersion(message);
    } else if (isObject(message) && typeof message.method === "string") {
      method = message.method;
    }

    const found = this.strict ? this.validate(direction, message, method, headers) : undefined;
    // Valid messages (nearly all) share one empty list: thousands of records need not each keep one.
    const problems = found?.length === 0 ? NO_PROBLEMS : found;
    if (parseLater && jsonText !== undefined && (problems === undefined || problems.length === 0)) {
      const unparsed = new UnparsedRecord(timestamp, direction, method, id, jsonText, latency, problems);
      this.push(unparsed);
      this.unparsed = true;
      return unparsed;
    }
    const content = copyForRecord(message, jsonText) as JsonRpcMessage;
    if (this.strict && headers !== undefined && isResponse(content)) this.learnHttp(content, method, headers);
    const record: MessageRecord = problems ? { timestamp, direction, method, id, content, latency, problems } : { timestamp, direction, method, id, content, latency };
    this.push(record);
    if (problems && problems.length > 0) this.reportProblems(record, problems);
    return record;
  }

  /**
   * Records an error: a transport error, or (with `failed`, the record of the message) a send
   * that failed. A failed request gets no response, so it is no longer waited for.
   */
  recordError(error: unknown, failed?: MessageRecord): ErrorRecord {
    if (failed && isRequest(failed.content)) this.correlator.forget(failed.direction, failed.content.id);
    const record: ErrorRecord = {
      timestamp: Date.now(),
      direction: "error",
      method: failed?.method,
      id: failed?.id,
      content: errorText(error),
      latency: undefined,
    };
    this.push(record);
    return record;
  }

  private push(entry: TrafficRecord | UnparsedRecord): void {
    this.journal.push(entry);
    this.pushedSinceRead++;
  }

  private learnVersion(response: unknown): void {
    if (!isObject(response) || !isObject(response.result)) return;
    const version = response.result.protocolVersion;
    if (typeof version === "string") this.negotiatedVersion = version;
  }

  private validate(direction: "outgoing" | "incoming", message: unknown, method: string | undefined, headers: MessageHeaders | undefined): MessageProblem[] {
    return checkMessage(message, {
      side: this.side,
      direction,
      protocolVersion: this.negotiatedVersion,
      requestMethod: isResponse(message) ? method : undefined,
      ...(headers !== undefined && { headers, tools: this.httpTools?.values(), sessionId: this.httpSessionId }),
    });
  }

  /** What later header checks need from an answer: the tools listed (every page), the session id given. */
  private learnHttp(response: JsonRpcMessage, method: string | undefined, headers: MessageHeaders): void {
    const result = isObject(response) && isObject((response as { result?: unknown }).result) ? (response as { result: Record<string, unknown> }).result : undefined;
    if (method === "tools/list" && Array.isArray(result?.tools)) {
      this.httpTools ??= new Map();
      for (const tool of result.tools) if (isObject(tool) && typeof tool.name === "string") this.httpTools.set(tool.name, tool as { name: string; inputSchema?: unknown });
    } else if (method === "initialize" && result !== undefined) {
      this.httpSessionId = headerReader(headers)("mcp-session-id");
    }
  }

  private reportProblems(record: MessageRecord, problems: readonly MessageProblem[]): void {
    for (const problem of problems) {
      const entry: TrafficProblem = {
        ...problem,
        timestamp: record.timestamp,
        direction: record.direction,
        method: record.method,
        id: record.id,
      };
      this.problemJournal.push(entry);
      this.onProblem?.(entry, record);
    }
  }
}

/** A record whose copy is still the text the message came in as (see `recordReceivedText`). */
class UnparsedRecord {
  constructor(
    readonly timestamp: number,
    readonly direction: "outgoing" | "incoming",
    readonly method: string | undefined,
    readonly id: JsonRpcId | null | undefined,
    readonly text: string,
    readonly latency: number | undefined,
    readonly problems: readonly MessageProblem[] | undefined,
  ) {}
}

/** The record as `recordMessage` would have made it: the same fields, the copy parsed from the text. */
function parseRecord(entry: TrafficRecord | UnparsedRecord): TrafficRecord {
  if (!(entry instanceof UnparsedRecord)) return entry;
  const { timestamp, direction, method, id, latency, problems } = entry;
  let content: JsonRpcMessage;
  try {
    content = JSON.parse(entry.text) as JsonRpcMessage;
  } catch (error) {
    // Only a caller breaking recordReceivedText's contract gets here; every later read must still work.
    const reason = errorText(error);
    return {
      timestamp,
      direction: "error",
      method,
      id,
      content: `recordReceivedText was given text that is not JSON (${reason}), so this ${direction} message has no copy: pass the text the message was parsed from`,
      latency: undefined,
    };
  }
  return problems ? { timestamp, direction, method, id, content, latency, problems } : { timestamp, direction, method, id, content, latency };
}

function readId(message: unknown): JsonRpcId | null | undefined {
  if (!isObject(message)) return undefined;
  const id = message.id;
  return typeof id === "string" || typeof id === "number" || id === null ? id : undefined;
}

/** The record's own deep copy of a message, so that later mutation by either end cannot change it. */
function copyForRecord(message: unknown, jsonText: string | undefined): unknown {
  if (jsonText === undefined) return snapshot(message);
  // What crossed the wire is the text's value: the message itself when it is plain JSON data
  // (always, for one parsed from the text), which copies fast; otherwise the text, parsed.
  return copyPlainJson(message) ?? JSON.parse(jsonText);
}

/** A deep copy of a message. JSON is the fallback for values `structuredClone` refuses (functions). */
function snapshot(message: unknown): unknown {
  try {
    return structuredClone(message);
  } catch {
    return JSON.parse(JSON.stringify(message) ?? "null");
  }
}
