/**
 * A trace as OTLP JSON (the OpenTelemetry protocol's JSON encoding, what a collector's
 * `/v1/traces` takes): one span per call, named and attributed as the mock's OpenTelemetry
 * observer names its spans (the conventions for MCP: `tools/call get_weather`, `mcp.method.name`,
 * `jsonrpc.request.id`, `error.type` …), with each of the call's messages as an `rpc.message`
 * event that keeps the trace entry whole, so the trace comes back from the spans. A call that
 * carried W3C trace context in `_meta` keeps its trace id and parent. Spans from elsewhere (no
 * entries on their events) come back as one request and one answer each, rebuilt from the attributes.
 */
import { randomBytes } from "node:crypto";
import { McpTestkitError } from "../errors.js";
import { isObject, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { startAttributes, targetOf } from "../observe/otel.js";
import { TRACE_FORMAT_VERSION, type TraceEntry } from "./entry.js";
import type { Trace } from "./read-trace.js";

/** An OTLP attribute value, as proto-JSON spells it. */
export type OtlpValue = { stringValue: string } | { boolValue: boolean } | { intValue: string } | { doubleValue: number };
export interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: Array<{ timeUnixNano: string; name: string; attributes: OtlpKeyValue[] }>;
  /** 0 unset, 2 error. */
  status: { code: number; message?: string };
}
/** `ExportTraceServiceRequest` in proto-JSON. */
export interface OtlpTraces {
  resourceSpans: Array<{ resource: { attributes: OtlpKeyValue[] }; scopeSpans: Array<{ scope: { name: string; version?: string }; spans: OtlpSpan[] }> }>;
}

const ENTRY_KEY = "mcp_testkit.trace_entry";
const KIND = { mock: 2, recorder: 2, driver: 3, import: 1 } as const;

/** OTLP JSON of a trace: a span per call (and per message that belongs to none). */
export function traceToOtlp(trace: Trace): OtlpTraces {
  const groups = new Map<string, TraceEntry[]>();
  for (const entry of trace.entries) {
    const key = entry.callId === undefined ? `seq:${entry.seq}` : `${entry.sessionId ?? ""}\n${typeof entry.callId}:${entry.callId}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  const kind = KIND[trace.header.source];
  const spans = [...groups.values()].map((group) => spanOf(group, kind));
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [attribute("service.name", `mcp-testkit ${trace.header.source}`), ...(trace.header.target === undefined ? [] : [attribute("mcp_testkit.target", trace.header.target)])],
        },
        scopeSpans: [{ scope: { name: "mcp-testkit", version: String(TRACE_FORMAT_VERSION) }, spans }],
      },
    ],
  };
}

function spanOf(group: TraceEntry[], kind: number): OtlpSpan {
  const first = group[0]!;
  const request = group.find((entry) => isRequest(entry.message)) ?? first;
  const message = (request.message ?? {}) as Record<string, unknown>;
  const method = typeof message.method === "string" ? message.method : "message";
  const params = isObject(message.params) ? message.params : undefined;
  const target = targetOf({ method, params });
  const parent = traceParentOf(params);
  const attributes = startAttributes({
    method,
    params,
    protocolVersion: request.protocolVersion ?? "",
    requestId: (message.id as JsonRpcId | undefined) ?? "",
    sessionId: request.sessionId ?? "",
    wire: request.wire,
  });
  if (message.id === undefined) delete attributes["jsonrpc.request.id"];
  if (request.protocolVersion === undefined) delete attributes["mcp.protocol.version"];
  const failure = failureOf(group);
  if (failure !== undefined) attributes["error.type"] = failure.type;
  return {
    traceId: parent?.traceId ?? randomBytes(16).toString("hex"),
    spanId: randomBytes(8).toString("hex"),
    ...(parent !== undefined && { parentSpanId: parent.spanId }),
    name: target === undefined ? method : `${method} ${target}`,
    kind,
    startTimeUnixNano: nanos(first.at),
    endTimeUnixNano: nanos(group.at(-1)!.at),
    attributes: Object.entries(attributes).map(([key, value]) => attribute(key, value as string | number | boolean)),
    events: group.map((entry) => ({
      timeUnixNano: nanos(entry.at),
      name: "rpc.message",
      attributes: [attribute("rpc.message.type", entry.from === "client" ? "SENT" : "RECEIVED"), attribute("rpc.message.id", entry.seq), attribute(ENTRY_KEY, JSON.stringify(entry))],
    })),
    status: failure === undefined ? { code: 0 } : { code: 2, ...(failure.message !== undefined && { message: failure.message }) },
  };
}

/** What went wrong in a call, as the observer says it: the JSON-RPC code, `tool_error`, or the fault. */
function failureOf(group: TraceEntry[]): { type: string; message?: string } | undefined {
  for (const entry of group) {
    if (entry.from !== "server") continue;
    if (entry.fault !== undefined && entry.message === undefined) return { type: entry.fault };
    const message = entry.message as Record<string, unknown> | undefined;
    if (message === undefined || typeof message.method === "string") continue;
    if (isObject(message.error)) return { type: String(message.error.code), ...(typeof message.error.message === "string" && { message: message.error.message }) };
    if (isObject(message.result) && message.result.isError === true) return { type: "tool_error" };
  }
  return undefined;
}

function traceParentOf(params: Record<string, unknown> | undefined): { traceId: string; spanId: string } | undefined {
  const meta = params?._meta;
  if (!isObject(meta) || typeof meta.traceparent !== "string") return undefined;
  const match = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(meta.traceparent);
  return match === null ? undefined : { traceId: match[1]!, spanId: match[2]! };
}

/** A trace from OTLP JSON: ours entry by entry, spans from elsewhere rebuilt as request and answer. */
export function traceFromOtlp(otlp: unknown, name = "the OTLP file"): Trace {
  if (!isObject(otlp) || !Array.isArray(otlp.resourceSpans)) throw new McpTestkitError(`${name} is not OTLP JSON traces: expected { "resourceSpans": [{ "scopeSpans": [{ "spans": [...] }] }] }.`);
  const drafts: Array<Omit<TraceEntry, "seq">> = [];
  let target: string | undefined;
  for (const resource of otlp.resourceSpans as unknown[]) {
    if (!isObject(resource) || !Array.isArray(resource.scopeSpans)) continue;
    const attributes = isObject(resource.resource) && Array.isArray(resource.resource.attributes) ? readAttributes(resource.resource.attributes) : {};
    if (typeof attributes["mcp_testkit.target"] === "string") target ??= attributes["mcp_testkit.target"];
    for (const scope of resource.scopeSpans as unknown[]) {
      if (!isObject(scope) || !Array.isArray(scope.spans)) continue;
      for (const span of scope.spans as unknown[]) if (isObject(span)) drafts.push(...entriesOfSpan(span));
    }
  }
  // Our entries keep their order (their seq); rebuilt ones go by time.
  const seqOf = (draft: Omit<TraceEntry, "seq">) => (draft as Partial<TraceEntry>).seq;
  drafts.sort((a, b) => (seqOf(a) !== undefined && seqOf(b) !== undefined ? seqOf(a)! - seqOf(b)! : a.at - b.at));
  const entries = drafts.map((draft, i) => ({ ...draft, seq: i + 1 }) as TraceEntry);
  return { header: { type: "mcp-testkit-trace", version: TRACE_FORMAT_VERSION, source: "import", startedAt: entries[0]?.at ?? Date.now(), ...(target !== undefined && { target }) }, entries };
}

function entriesOfSpan(span: Record<string, unknown>): Array<Omit<TraceEntry, "seq">> {
  const events = Array.isArray(span.events) ? (span.events as unknown[]).filter(isObject) : [];
  const ours = events.map((event) => readAttributes(Array.isArray(event.attributes) ? event.attributes : [])[ENTRY_KEY]).filter((text): text is string => typeof text === "string");
  if (ours.length > 0) return ours.map((text) => JSON.parse(text) as TraceEntry);
  // A span from elsewhere: its attributes say the method, the id and how it ended.
  const attributes = readAttributes(Array.isArray(span.attributes) ? span.attributes : []);
  const method = attributes["mcp.method.name"];
  if (typeof method !== "string") return [];
  const id = attributes["jsonrpc.request.id"];
  const start = Number(BigInt(String(span.startTimeUnixNano ?? 0)) / 1_000_000n);
  const end = Number(BigInt(String(span.endTimeUnixNano ?? span.startTimeUnixNano ?? 0)) / 1_000_000n);
  const name = attributes["gen_ai.tool.name"] ?? attributes["gen_ai.prompt.name"];
  const uri = attributes["mcp.resource.uri"];
  const params = { ...(typeof name === "string" && { name }), ...(typeof uri === "string" && { uri }) };
  const common = {
    wire: (attributes["network.transport"] === "pipe" ? "stdio" : "http") as TraceEntry["wire"],
    ...(typeof attributes["mcp.session.id"] === "string" && { sessionId: attributes["mcp.session.id"] }),
    ...(typeof attributes["mcp.protocol.version"] === "string" && { protocolVersion: attributes["mcp.protocol.version"] }),
  };
  const request = { jsonrpc: "2.0", ...(id !== undefined && { id: requestId(id) }), method, ...(Object.keys(params).length > 0 && { params }) } as JsonRpcMessage;
  if (id === undefined) return [{ at: start, from: "client", message: request, ...common }];
  const errorType = attributes["error.type"];
  const status = isObject(span.status) ? span.status : {};
  const code = typeof errorType === "string" && /^-?\d+$/.test(errorType) ? Number(errorType) : undefined;
  const answer =
    code !== undefined
      ? { jsonrpc: "2.0", id: requestId(id), error: { code, message: typeof status.message === "string" ? status.message : "" } }
      : { jsonrpc: "2.0", id: requestId(id), result: errorType === "tool_error" ? { content: [], isError: true } : {} };
  return [
    { at: start, from: "client", message: request, callId: requestId(id), ...common },
    { at: end, from: "server", message: answer as JsonRpcMessage, callId: requestId(id), ...common },
  ];
}

function requestId(value: unknown): JsonRpcId {
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : String(value);
}

function readAttributes(list: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list) {
    if (!isObject(item) || typeof item.key !== "string" || !isObject(item.value)) continue;
    const value = item.value;
    out[item.key] = value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? value.doubleValue : Number(value.intValue));
  }
  return out;
}

function attribute(key: string, value: string | number | boolean): OtlpKeyValue {
  if (typeof value === "boolean") return { key, value: { boolValue: value } };
  if (typeof value === "number") return { key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } };
  return { key, value: { stringValue: value } };
}

function isRequest(message: JsonRpcMessage | undefined): boolean {
  return isObject(message) && typeof message.method === "string";
}

function nanos(ms: number): string {
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}
