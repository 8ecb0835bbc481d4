/**
 * Small readers that turn what other tools and commands write into trace entries for the
 * timeline: a HAR (a browser's or HAR viewer's save of HTTP traffic), a mock's call record
 * (`mcp-testkit mock --record`), its journal (`GET /__mcp-testkit/journal`) and a recording
 * (`mcp-testkit record --out`). Each keeps what the timeline shows and says in `notes` what its
 * input cannot give (timings, messages that are not calls). Headers are redacted on the way in.
 */
import { redactedHeaders, type HttpFacts } from "../protocol/http-facts.js";
import { isObject, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { TraceEntry, TraceFault } from "../trace/entry.js";

type Json = Record<string, unknown>;
type Draft = Omit<TraceEntry, "seq">;

export interface ReadEntries {
  readonly entries: TraceEntry[];
  readonly notes: string[];
}

/** Numbers drafts in time order (stable: drafts at the same time keep their order). */
function numbered(drafts: Draft[], notes: string[]): ReadEntries {
  const sorted = drafts.map((draft, index) => ({ draft, index })).sort((a, b) => a.draft.at - b.draft.at || a.index - b.index);
  return { entries: sorted.map(({ draft }, index) => ({ seq: index + 1, ...draft })), notes };
}

// ---------------------------------------------------------------------------------------------
// HAR 1.2: each POST's JSON-RPC body, and what came back (JSON, or an SSE stream's events).

export function entriesFromHar(harEntries: readonly unknown[]): ReadEntries {
  const drafts: Draft[] = [];
  let skipped = 0;
  for (const item of harEntries) {
    if (!isObject(item) || !isObject(item.request) || !isObject(item.response)) {
      skipped++;
      continue;
    }
    const request = item.request;
    const response = item.response;
    const started = Date.parse(String(item.startedDateTime));
    const at = Number.isFinite(started) ? started : 0;
    const ended = at + (typeof item.time === "number" && item.time > 0 ? item.time : 0);
    const requestHeaders = harHeaders(request.headers);
    const responseHeaders = harHeaders(response.headers);
    const sent = messagesIn(isObject(request.postData) ? String(request.postData.text ?? "") : "", String((request.postData as Json | undefined)?.mimeType ?? ""));
    const content = isObject(response.content) ? response.content : {};
    const received = messagesIn(harText(content), String(content.mimeType ?? responseHeaders["content-type"] ?? ""));
    if (sent.length === 0 && received.length === 0) {
      skipped++;
      continue;
    }
    const path = pathOf(String(request.url ?? ""));
    const common = {
      wire: "http" as const,
      ...optional("sessionId", requestHeaders["mcp-session-id"] ?? responseHeaders["mcp-session-id"]),
      ...optional("testId", requestHeaders["x-test-id"]),
      ...optional("context", requestHeaders["x-test-context"]),
      ...optional("protocolVersion", requestHeaders["mcp-protocol-version"]),
    };
    const status = typeof response.status === "number" ? response.status : undefined;
    const method = String(request.method ?? "POST");
    const requestHttp: HttpFacts = { method, ...(path !== undefined && { path }), headers: requestHeaders };
    const responseHttp: HttpFacts = { method, ...(path !== undefined && { path }), ...(status !== undefined && { status }), headers: responseHeaders };
    // Messages on the response travel with the one request the POST carried, if it carried one.
    const posted = sent.filter((message) => typeof message.method === "string" && idOf(message) !== undefined);
    const carrier = posted.length === 1 ? idOf(posted[0]!) : undefined;
    for (const message of sent) {
      const callId = typeof message.method === "string" ? idOf(message) : undefined;
      drafts.push({ at, from: "client", message: message as unknown as JsonRpcMessage, ...common, ...optional("callId", callId), http: requestHttp });
    }
    for (const message of received) {
      const callId = typeof message.method === "string" ? carrier : (idOf(message) ?? carrier);
      drafts.push({ at: ended, from: "server", message: message as unknown as JsonRpcMessage, ...common, ...optional("callId", callId), http: responseHttp });
    }
  }
  const notes = skipped > 0 ? [`${skipped} HTTP exchange${skipped === 1 ? "" : "s"} in the HAR carried no JSON-RPC and ${skipped === 1 ? "is" : "are"} left out.`] : [];
  return numbered(drafts, notes);
}

function harHeaders(list: unknown): Record<string, string> {
  const plain: Record<string, string> = {};
  if (Array.isArray(list)) for (const header of list) if (isObject(header) && typeof header.name === "string") plain[header.name] = String(header.value ?? "");
  return redactedHeaders(plain);
}

function harText(content: Json): string {
  const text = typeof content.text === "string" ? content.text : "";
  return content.encoding === "base64" ? Buffer.from(text, "base64").toString("utf8") : text;
}

/** The JSON-RPC messages in a body: a JSON message or batch, or the `data:` of each SSE event. */
function messagesIn(text: string, mimeType: string): Json[] {
  if (text.trim() === "") return [];
  const chunks = mimeType.includes("event-stream") ? sseData(text) : [text];
  return chunks.flatMap((chunk) => {
    try {
      const value: unknown = JSON.parse(chunk);
      return (Array.isArray(value) ? value : [value]).filter((message): message is Json => isObject(message) && message.jsonrpc === "2.0");
    } catch {
      return [];
    }
  });
}

function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n"),
    )
    .filter((data) => data !== "");
}

function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// A mock's call record: each tool call, the requests it made of the client, and its answer.

const OUTCOME_FAULTS: Partial<Record<string, TraceFault>> = { raw: "raw", disconnected: "disconnect" };

export function entriesFromRecord(calls: readonly unknown[]): ReadEntries {
  const drafts: Draft[] = [];
  for (const call of calls) {
    if (!isObject(call) || typeof call.tool !== "string" || typeof call.startedAt !== "number") continue;
    const callId = isId(call.requestId) ? call.requestId : `call-${drafts.length}`;
    const identity = isObject(call.identity) ? call.identity : {};
    const common = {
      wire: "direct" as const,
      ...optional("sessionId", typeof call.sessionId === "string" ? call.sessionId : undefined),
      ...optional("testId", typeof identity.testId === "string" ? identity.testId : undefined),
      ...optional("context", typeof identity.context === "string" ? identity.context : undefined),
      ...optional("protocolVersion", typeof call.protocolVersion === "string" ? call.protocolVersion : undefined),
      callId,
    };
    const params: Json = { name: call.tool, arguments: call.rawArguments ?? call.arguments ?? {}, ...(isObject(call.meta) && { _meta: call.meta }) };
    drafts.push({ at: call.startedAt, from: "client", message: { jsonrpc: "2.0", id: callId, method: "tools/call", params }, ...common });
    const exchanges = Array.isArray(call.exchanges) ? call.exchanges.filter(isObject) : [];
    exchanges.forEach((exchange, index) => {
      const askId = `${String(callId)}/ask-${index + 1}`;
      const sentAt = typeof exchange.sentAt === "number" ? exchange.sentAt : call.startedAt;
      const ask = { jsonrpc: "2.0" as const, id: askId, method: String(exchange.method), ...(isObject(exchange.params) && { params: exchange.params }) };
      drafts.push({ at: sentAt as number, from: "server", message: ask, ...common });
      if (typeof exchange.answeredAt !== "number") return;
      const answer = isObject(exchange.error) ? { error: exchange.error } : { result: isObject(exchange.result) ? exchange.result : {} };
      drafts.push({ at: exchange.answeredAt, from: "client", message: { jsonrpc: "2.0", id: askId, ...answer } as JsonRpcMessage, ...common });
    });
    const endedAt = typeof call.endedAt === "number" ? call.endedAt : undefined;
    const fault = OUTCOME_FAULTS[String(call.outcome)];
    const response = isObject(call.response) ? call.response : undefined;
    if (endedAt === undefined) continue;
    if (fault === "raw") drafts.push({ at: endedAt, from: "server", raw: "", fault, ...common });
    else if (response !== undefined) {
      const answer = isObject(response.error) ? { error: response.error } : { result: isObject(response.result) ? response.result : {} };
      drafts.push({ at: endedAt, from: "server", message: { jsonrpc: "2.0", id: callId, ...answer } as JsonRpcMessage, ...common, ...optional("fault", fault) });
    } else if (fault !== undefined) drafts.push({ at: endedAt, from: "server", raw: "", fault, ...common });
  }
  return numbered(drafts, ["A call record holds tool calls only: other requests and notifications are not in it."]);
}

// ---------------------------------------------------------------------------------------------
// A journal: every request the fakes saw, with its answer, stamped to the millisecond.

export function entriesFromJournal(journal: readonly unknown[]): ReadEntries {
  const drafts: Draft[] = [];
  journal.forEach((item, index) => {
    if (!isObject(item) || typeof item.method !== "string") return;
    const at = Date.parse(String(item.time));
    const request = isObject(item.request) ? item.request : {};
    const response = isObject(item.response) ? item.response : {};
    const callId = isId(request.id) ? request.id : `journal-${index + 1}`;
    const common = {
      wire: "http" as const,
      ...optional("sessionId", typeof item.sessionId === "string" ? item.sessionId : undefined),
      ...optional("testId", typeof item.testId === "string" ? item.testId : undefined),
      ...optional("context", typeof item.context === "string" ? item.context : undefined),
      callId,
    };
    const stamp = Number.isFinite(at) ? at : 0;
    drafts.push({ at: stamp, from: "client", message: { jsonrpc: "2.0", id: callId, method: item.method, ...(isObject(request.params) && { params: request.params }) }, ...common });
    const answer = isObject(response.error) ? { error: response.error } : { result: isObject(response.result) ? response.result : {} };
    drafts.push({ at: stamp, from: "server", message: { jsonrpc: "2.0", id: callId, ...answer } as JsonRpcMessage, ...common });
  });
  return numbered(drafts, ["A journal keeps one time per request: calls show no latency."]);
}

// ---------------------------------------------------------------------------------------------
// A recording (a scenario with fixtures, or a fixture file): its answers in order, without times.

export function entriesFromRecording(document: Json): ReadEntries {
  const blocks: Json[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value)) blocks.push(isObject(value.mcpFakes) ? value.mcpFakes : value);
  };
  collect(document.mcpFakes ?? document.fixtures);
  const drafts: Draft[] = [];
  let calls = 0;
  const add = (method: string, params: Json, answer: Json, testId: string | undefined, asks: readonly Json[] = []) => {
    const callId = `recorded-${++calls}`;
    const common = { wire: "direct" as const, callId, ...optional("testId", testId) };
    drafts.push({ at: drafts.length, from: "client", message: { jsonrpc: "2.0", id: callId, method, params }, ...common });
    asks.forEach((ask, index) => {
      const message = { jsonrpc: "2.0" as const, id: `${callId}/ask-${index + 1}`, method: String(ask.method), ...(isObject(ask.params) && { params: ask.params }) };
      drafts.push({ at: drafts.length, from: "server", message, ...common });
    });
    drafts.push({ at: drafts.length, from: "server", message: { jsonrpc: "2.0", id: callId, ...answer } as JsonRpcMessage, ...common });
  };
  for (const block of blocks) {
    const scope = isObject(block.scope) && typeof block.scope.testId === "string" ? block.scope.testId : undefined;
    for (const tool of list(block.tools)) {
      for (const call of list(tool.calls)) {
        const step = isObject(call.step) ? call.step : undefined;
        const answer = step !== undefined ? stepAnswer(step) : typeof call.error === "string" ? { result: toolError(call.error) } : { result: toolResult(call.result) };
        add("tools/call", { name: tool.name, arguments: call.args ?? call.argsMatch ?? {} }, answer, scope, list(step?.asks));
      }
    }
    for (const resource of list(block.resources)) for (const read of list(resource.reads)) add("resources/read", { uri: resource.uri }, rpcAnswer(read), scope);
    for (const prompt of list(block.prompts)) for (const get of list(prompt.gets)) add("prompts/get", { name: prompt.name, arguments: get.args ?? {} }, rpcAnswer(get), scope);
  }
  return numbered(drafts, ["A recording keeps the answers in order but no times: messages are shown 1 ms apart."]);
}

/** A mock step as the call's answer: what a client would have been sent. */
function stepAnswer(step: Json): Json {
  if (step.throws !== undefined) return { error: typeof step.throws === "string" ? { code: -32603, message: step.throws } : step.throws };
  if (typeof step.toolError === "string") return { result: toolError(step.toolError) };
  if (isObject(step.result)) return { result: step.result };
  if (Array.isArray(step.content)) return { result: { content: step.content, ...(step.structuredContent !== undefined && { structuredContent: step.structuredContent }) } };
  if (step.returns !== undefined) return { result: toolResult(typeof step.returns === "string" ? step.returns : [{ type: "text", text: JSON.stringify(step.returns) }]) };
  return { result: { step } };
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function toolError(text: string): Json {
  return { content: [{ type: "text", text }], isError: true };
}

function toolResult(result: unknown): Json {
  if (typeof result === "string") return { content: [{ type: "text", text: result }] };
  if (Array.isArray(result)) return { content: result };
  return isObject(result) ? result : {};
}

function rpcAnswer(entry: Json): Json {
  if (typeof entry.error === "string") return { error: { code: -32603, message: entry.error } };
  if (isObject(entry.error)) return { error: entry.error };
  return { result: isObject(entry.result) ? entry.result : {} };
}

// ---------------------------------------------------------------------------------------------

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || typeof value === "number";
}

function idOf(message: Json): JsonRpcId | undefined {
  return isId(message.id) ? message.id : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
