/**
 * A trace as HAR 1.2 (the HTTP Archive browsers' devtools open): one HAR entry per HTTP request a
 * message went on, its response the answer (JSON) or the event stream it came on, with every
 * server message that travelled in it. Server messages sent on no request's response (the GET
 * stream) get an entry each. Each HAR entry keeps the trace's own facts of its messages under
 * `_mcpTestkit` (HAR's custom fields start with "_"), so the trace comes back whole on import.
 */
import type { Entry, Har, Header } from "har-format";
import { McpTestkitError } from "../errors.js";
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import type { TraceEntry, TraceHeader } from "./entry.js";
import type { Trace } from "./read-trace.js";

/**
 * The trace facts of one message, without its body (which is in the request or response text):
 * `raw` when the body is bytes that are not JSON-RPC, `bodiless` for a fault in an answer's place.
 */
export type HarMessageFacts = Omit<TraceEntry, "message" | "raw" | "http"> & { readonly raw?: true; readonly bodiless?: true };

/** What `_mcpTestkit` holds on a HAR entry: the facts of its request's messages, then its response's. */
export interface HarTraceFacts {
  readonly request: HarMessageFacts[];
  readonly response: HarMessageFacts[];
}

interface Exchange {
  readonly request: TraceEntry;
  readonly streamed: TraceEntry[];
  answer?: TraceEntry;
  /** Entries a fault put in the answer's place (no message). */
  fault?: TraceEntry;
}

const CREATOR = { name: "mcp-testkit", version: "1" };

/** HAR 1.2 of a trace's HTTP messages; throws, saying what to do, when it has none. */
export function traceToHar(trace: Trace): Har {
  const http = trace.entries.filter((entry) => entry.wire === "http");
  if (http.length === 0) {
    const wires = [...new Set(trace.entries.map((entry) => entry.wire))].join(", ") || "none";
    throw new McpTestkitError(`This trace has no HTTP messages (wires: ${wires}); HAR describes HTTP only. Export it as OTLP (--to otlp) instead.`);
  }
  const origin = originOf(trace.header);
  const exchanges: Exchange[] = [];
  const open = new Map<string, Exchange>();
  const standalone: TraceEntry[] = [];
  for (const entry of http) {
    if (entry.from === "client") {
      const exchange: Exchange = { request: entry, streamed: [] };
      exchanges.push(exchange);
      const id = requestIdOf(entry);
      if (id !== undefined) open.set(keyOf(entry.sessionId, id), exchange);
      continue;
    }
    const exchange = entry.callId === undefined ? undefined : open.get(keyOf(entry.sessionId, entry.callId));
    if (exchange === undefined || exchange.answer !== undefined) standalone.push(entry);
    else if (entry.message === undefined && entry.raw === undefined) exchange.fault = entry;
    else if (isAnswerTo(entry, exchange.request) || entry.raw !== undefined) exchange.answer = entry;
    else exchange.streamed.push(entry);
  }
  const entries = [...exchanges.map((exchange) => harEntry(exchange, origin)), ...standalone.map((entry) => standaloneEntry(entry, origin))];
  entries.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  return { log: { version: "1.2", creator: CREATOR, entries, comment: `mcp-testkit trace of ${trace.header.source}${trace.header.target === undefined ? "" : ` ${trace.header.target}`}` } };
}

function harEntry(exchange: Exchange, origin: string): Entry {
  const { request, streamed, answer, fault } = exchange;
  const responseEntries = answer === undefined ? streamed : [...streamed, answer];
  const last = fault ?? responseEntries.at(-1);
  const time = last === undefined ? 0 : Math.max(0, last.at - request.at);
  const responseHeaders = answer?.http?.headers ?? {};
  const declared = responseHeaders["content-type"] ?? "";
  const asStream = streamed.length > 0 || declared.includes("text/event-stream");
  const status = fault?.fault === "disconnect" ? 0 : (answer?.http?.status ?? (answer === undefined && streamed.length === 0 ? statusWithoutAnswer(request) : 200));
  const text = asStream ? responseEntries.map((entry) => sseEvent(bodyOf(entry))).join("") : answer === undefined ? "" : bodyOf(answer);
  const mimeType = asStream ? "text/event-stream" : answer === undefined ? "" : declared || "application/json";
  const requestBody = bodyOf(request);
  const facts: HarTraceFacts = { request: [factsOf(request)], response: [...responseEntries.map(factsOf), ...(fault === undefined ? [] : [factsOf(fault)])] };
  return {
    startedDateTime: new Date(request.at).toISOString(),
    time,
    request: {
      method: request.http?.method ?? "POST",
      url: `${origin}${request.http?.path ?? "/mcp"}`,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(request.http?.headers ?? {}),
      queryString: [],
      postData: { mimeType: request.http?.headers["content-type"] ?? "application/json", text: requestBody },
      headersSize: -1,
      bodySize: Buffer.byteLength(requestBody),
    },
    response: {
      status,
      statusText: statusText(status),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(responseHeaders),
      content: { size: Buffer.byteLength(text), mimeType, text },
      redirectURL: "",
      headersSize: -1,
      bodySize: status === 0 ? -1 : Buffer.byteLength(text),
      ...(fault !== undefined && { _error: fault.fault === "disconnect" ? "the mock dropped the connection (disconnect step)" : `fault: ${fault.fault}` }),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _mcpTestkit: facts,
  } as Entry;
}

/** A server message on no request's response: the GET stream (or the end of a call whose answer went). */
function standaloneEntry(entry: TraceEntry, origin: string): Entry {
  const text = entry.message === undefined && entry.raw === undefined ? "" : sseEvent(bodyOf(entry));
  return {
    startedDateTime: new Date(entry.at).toISOString(),
    time: 0,
    request: {
      method: "GET",
      url: `${origin}${entry.http?.path ?? "/mcp"}`,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "accept", value: "text/event-stream" }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "content-type", value: "text/event-stream" }],
      content: { size: Buffer.byteLength(text), mimeType: "text/event-stream", text },
      redirectURL: "",
      headersSize: -1,
      bodySize: Buffer.byteLength(text),
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _mcpTestkit: { request: [], response: [factsOf(entry)] } satisfies HarTraceFacts,
  } as Entry;
}

/** A client message that expects no answer (a notification, a response) is accepted with 202. */
function statusWithoutAnswer(request: TraceEntry): number {
  return requestIdOf(request) === undefined ? 202 : 0;
}

function factsOf(entry: TraceEntry): HarMessageFacts {
  const { message, raw, http: _http, ...facts } = entry;
  if (raw !== undefined) return { ...facts, raw: true };
  return message === undefined ? { ...facts, bodiless: true } : facts;
}

function bodyOf(entry: TraceEntry): string {
  return entry.raw ?? (entry.message === undefined ? "" : JSON.stringify(entry.message));
}

/** One SSE event: every line of the data gets its own `data:` field. */
function sseEvent(data: string): string {
  return `event: message\n${data
    .split("\n")
    .map((line) => `data: ${line}`)
    .join("\n")}\n\n`;
}

function headerList(headers: Readonly<Record<string, string>>): Header[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** A request's own id (it has a method and an id). */
function requestIdOf(entry: TraceEntry): JsonRpcId | undefined {
  const message = entry.message;
  if (!isObject(message) || typeof message.method !== "string") return undefined;
  const id = message.id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

function isAnswerTo(entry: TraceEntry, request: TraceEntry): boolean {
  const message = entry.message;
  if (!isObject(message) || typeof message.method === "string") return false;
  return message.id === requestIdOf(request);
}

const keyOf = (session: string | undefined, id: JsonRpcId) => `${session ?? ""}\n${typeof id}:${id}`;

function originOf(header: TraceHeader): string {
  try {
    if (header.target !== undefined) return new URL(header.target).origin;
  } catch {
    // not a URL (a command, "memory"): a placeholder origin, as HAR needs absolute URLs
  }
  return "http://127.0.0.1";
}

function statusText(status: number): string {
  return ({ 0: "", 200: "OK", 202: "Accepted", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error" } as Record<number, string>)[status] ?? "";
}
