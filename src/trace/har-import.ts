/**
 * A trace from a HAR file: ours (its `_mcpTestkit` facts give every message back as it was) or
 * one a browser saved, where the facts are read from what HAR keeps (times, headers, bodies) and
 * the HTTP requests that carried no JSON-RPC are left out. Headers are redacted as they are read:
 * a browser's HAR holds the real Authorization header and cookies.
 */
import { createParser } from "eventsource-parser";
import { McpTestkitError } from "../errors.js";
import { redactedHeaders, type HttpFacts } from "../protocol/http-facts.js";
import { isObject, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { CallGroups } from "./call-groups.js";
import { TRACE_FORMAT_VERSION, type TraceEntry } from "./entry.js";
import type { HarMessageFacts, HarTraceFacts } from "./har-export.js";
import type { Trace } from "./read-trace.js";

type Json = Record<string, unknown>;

/** One body read from a HAR: a message, or text that is not one. */
type Body = { message: JsonRpcMessage } | { raw: string };

/** A trace of the JSON-RPC messages in a HAR document (parsed JSON); throws naming what is wrong. */
export function traceFromHar(har: unknown, name = "the HAR file"): Trace {
  const log = isObject(har) && isObject(har.log) ? har.log : undefined;
  if (log === undefined || !Array.isArray(log.entries)) throw new McpTestkitError(`${name} is not a HAR document: expected { "log": { "version": "1.2", "entries": [...] } }.`);
  const drafts: Array<Omit<TraceEntry, "seq">> = [];
  let target: string | undefined;
  log.entries.forEach((entry: unknown, index: number) => {
    if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) throw new McpTestkitError(`${name} log.entries[${index}] has no request and response objects.`);
    const read = readEntry(entry, `${name} log.entries[${index}]`);
    if (read.length > 0) target ??= withoutQuery(urlOf(entry.request));
    drafts.push(...read);
  });
  // Our entries keep their order (their seq); a browser's go by time.
  const seqOf = (draft: Omit<TraceEntry, "seq">) => (draft as Partial<TraceEntry>).seq;
  drafts.sort((a, b) => (seqOf(a) !== undefined && seqOf(b) !== undefined ? seqOf(a)! - seqOf(b)! : a.at - b.at));
  const groups = new CallGroups();
  const entries = drafts.map((draft, i): TraceEntry => {
    const callId = groups.callOf(draft.from, draft.message, draft.callId, draft.sessionId);
    return { ...draft, seq: i + 1, ...(callId !== undefined && { callId }) };
  });
  const startedAt = entries[0]?.at ?? Date.now();
  return { header: { type: "mcp-testkit-trace", version: TRACE_FORMAT_VERSION, source: "import", startedAt, ...(target !== undefined && { target }) }, entries };
}

function readEntry(entry: Json, where: string): Array<Omit<TraceEntry, "seq">> {
  const request = entry.request as Json;
  const response = entry.response as Json;
  const startedAt = Date.parse(String(entry.startedDateTime));
  if (Number.isNaN(startedAt)) throw new McpTestkitError(`${where}.startedDateTime is not a date (ISO 8601, as HAR 1.2 says), got ${JSON.stringify(entry.startedDateTime)}.`);
  const endedAt = startedAt + (typeof entry.time === "number" && entry.time > 0 ? entry.time : 0);
  const sent = bodiesOf(isObject(request.postData) ? String(request.postData.text ?? "") : "", false);
  const status = typeof response.status === "number" ? response.status : 0;
  const answered = status === 0 ? [] : bodiesOf(contentText(response.content), String((response.content as Json | undefined)?.mimeType ?? "").includes("event-stream"));
  const facts = entry._mcpTestkit as HarTraceFacts | undefined;
  const path = pathOf(urlOf(request));
  const requestHttp: HttpFacts = { method: String(request.method ?? "POST"), path, headers: headerRecord(request.headers) };
  const responseHttp: HttpFacts = { method: requestHttp.method, path, status, headers: headerRecord(response.headers) };
  if (facts !== undefined && Array.isArray(facts.request) && Array.isArray(facts.response)) {
    return [...withFacts(facts.request, sent, requestHttp), ...withFacts(facts.response, answered, responseHttp)];
  }
  // A browser's HAR: only requests that carried JSON-RPC are MCP traffic.
  if (!sent.some((body) => "message" in body) && !answered.some((body) => "message" in body)) return [];
  const sessionId = requestHttp.headers["mcp-session-id"] ?? responseHttp.headers["mcp-session-id"];
  const testId = requestHttp.headers["x-test-id"];
  const protocolVersion = requestHttp.headers["mcp-protocol-version"];
  const common = { wire: "http" as const, ...(sessionId !== undefined && { sessionId }), ...(testId !== undefined && { testId }), ...(protocolVersion !== undefined && { protocolVersion }) };
  return [
    ...sent.map((body) => ({ at: startedAt, from: "client" as const, ...body, ...common, http: requestHttp })),
    ...answered.map((body) => ({ at: endedAt, from: "server" as const, ...body, ...common, http: responseHttp })),
  ];
}

/** Our own entries: each fact with its body, in order (a fault in an answer's place has none). */
function withFacts(facts: readonly HarMessageFacts[], bodies: Body[], http: HttpFacts): Array<Omit<TraceEntry, "seq">> {
  let next = 0;
  return facts.map((fact) => {
    const { raw, bodiless, ...rest } = fact;
    if (bodiless === true) return rest;
    const body = bodies[next++];
    const kept = body === undefined ? {} : raw === true ? { raw: "raw" in body ? body.raw : JSON.stringify(body.message) } : body;
    return { ...rest, ...kept, ...(rest.wire === "http" && { http }) };
  });
}

/** The messages a body carries: JSON (one message or a batch), or the data of each SSE event. */
function bodiesOf(text: string, eventStream: boolean): Body[] {
  if (text === "") return [];
  if (!eventStream) return jsonBodies(text);
  const bodies: Body[] = [];
  const parser = createParser({ onEvent: (event) => bodies.push(...jsonBodies(event.data)) });
  parser.feed(text);
  parser.reset({ consume: true });
  return bodies;
}

function jsonBodies(text: string): Body[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ raw: text }];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => (isObject(item) && item.jsonrpc === "2.0" ? { message: item as unknown as JsonRpcMessage } : { raw: JSON.stringify(item) }));
}

function contentText(content: unknown): string {
  if (!isObject(content) || typeof content.text !== "string") return "";
  return content.encoding === "base64" ? Buffer.from(content.text, "base64").toString("utf8") : content.text;
}

function headerRecord(headers: unknown): Record<string, string> {
  if (!Array.isArray(headers)) return {};
  const record: Record<string, string[]> = {};
  for (const header of headers) {
    if (!isObject(header) || typeof header.name !== "string" || typeof header.value !== "string") continue;
    // HTTP/2 pseudo-headers (":authority") are no headers of the message.
    if (header.name.startsWith(":")) continue;
    (record[header.name.toLowerCase()] ??= []).push(header.value);
  }
  return redactedHeaders(record);
}

function urlOf(request: Json): string {
  return typeof request.url === "string" ? request.url : "http://127.0.0.1/mcp";
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** The path alone: a query may carry a token, and a trace keeps none. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "/mcp";
  }
}
