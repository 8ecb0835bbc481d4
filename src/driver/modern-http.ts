/**
 * Streamable HTTP in 2026-07-28, on the client side, as a `fetch` the SDK's HTTP transport calls.
 * The transport writes the same headers on every POST; this revision wants headers per request:
 * `MCP-Protocol-Version` (the request's `_meta` version), `Mcp-Method`, `Mcp-Name` (tool, prompt
 * or resource) and `Mcp-Param-{Name}` for the tool arguments whose schema says `x-mcp-header`,
 * each in the Base64 sentinel when not plain ASCII. The session tells this part each request as it
 * writes it (an outgoing-request interceptor), so the headers are made from the request itself,
 * and the POST that carries it is told apart by its id. It also lets a request's own stream be
 * closed (the way to cancel on HTTP), and hands the transport a modern server's JSON-RPC errors
 * that come with a 4xx status (-32020, -32022, 404 -32601) as the errors they are, instead of a
 * failed POST. Legacy requests (no modern `_meta`) pass untouched.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { encodeHeaderValue, MCP_NAME_SOURCE } from "../protocol/http-headers.js";
import { declaredVersion } from "../protocol/request-meta.js";
import type { RequestInterceptor } from "./interceptors.js";
import type { JsonObject } from "./request-types.js";
import { invalidHeaderAnnotation, mirroredHeaderValues } from "./tool-headers.js";

/** A tool a client over HTTP must leave out of `tools/list` (2026-07-28: an invalid `x-mcp-header`). */
export interface RejectedTool {
  name: string;
  reason: string;
}

/** The headers a modern request needs; undefined for a request that is not one (no modern version in its `_meta`). */
export function modernRequestHeaders(method: string, params: JsonObject | undefined, inputSchemaOf: (tool: string) => unknown): Record<string, string> | undefined {
  if (params === undefined) return undefined;
  const version = declaredVersion(params);
  if (typeof version !== "string") return undefined;
  const headers: Record<string, string> = { "mcp-protocol-version": version, "mcp-method": method };
  const source = MCP_NAME_SOURCE[method];
  const name = source === undefined ? undefined : params[source];
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  if (method === "tools/call" && typeof params.name === "string") {
    for (const [header, value] of mirroredHeaderValues(inputSchemaOf(params.name), params.arguments)) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(value);
  }
  return headers;
}

/** How every POST body the SDK transport writes for one of our requests begins (`JSON.stringify` keeps our key order). */
const REQUEST_PREFIX = '{"jsonrpc":"2.0","id":';

/** An interceptor for what it needs to hear (requests written and ended); cancelling is the era's (`closeStream`). */
export class ModernHttpFetch implements Pick<RequestInterceptor, "sent" | "ended"> {
  /** The headers of each modern request written and not yet posted, by JSON-RPC id. */
  private readonly prepared = new Map<JsonRpcId, Record<string, string>>();
  /** Open modern requests by JSON-RPC id: aborting one closes its stream (cancels it on the server). */
  private readonly streams = new Map<JsonRpcId, AbortController>();
  /** Each tool's `inputSchema`, as the last `tools/list` gave it (for `Mcp-Param-*`). */
  private readonly toolSchemas = new Map<string, unknown>();
  private readonly rejectedTools: RejectedTool[] = [];
  private readonly inputSchemaOf = (tool: string) => this.toolSchemas.get(tool);

  /**
   * Told when a request's SSE response ended (or broke) while the request was still open. In
   * 2026-07-28 there is no resumption, so an answer that did not come on that stream never will.
   */
  onStreamEnd?: (id: JsonRpcId, why: string) => void;

  constructor(private readonly base: FetchLike) {}

  /** The fetch to give the transport. */
  readonly fetch: FetchLike = (url, init) => this.post(url, init);

  /** The tools left out of `tools/list` for an invalid `x-mcp-header`, with why. */
  get rejected(): RejectedTool[] {
    return [...this.rejectedTools];
  }

  /** Whether the schema of `tool` is known (from a `tools/list`). */
  knowsTool(tool: string): boolean {
    return this.toolSchemas.has(tool);
  }

  /** Keeps the tools' schemas for their headers, and leaves out a tool with an invalid `x-mcp-header` (the spec says a client must). */
  acceptTools(tools: Tool[]): Tool[] {
    const accepted: Tool[] = [];
    for (const tool of tools) {
      const reason = invalidHeaderAnnotation(tool.inputSchema);
      if (reason === undefined) {
        accepted.push(tool);
        this.toolSchemas.set(tool.name, tool.inputSchema);
      } else if (!this.rejectedTools.some((entry) => entry.name === tool.name && entry.reason === reason)) {
        this.rejectedTools.push({ name: tool.name, reason });
      }
    }
    return accepted;
  }

  /** A request as the session writes it: a modern one gets its headers made now, for its POST. */
  sent(id: JsonRpcId, method: string, params: JsonObject | undefined): void {
    const headers = modernRequestHeaders(method, params, this.inputSchemaOf);
    if (headers !== undefined) this.prepared.set(id, headers);
  }

  /** Closes the stream of request `id`, if it is a modern request still open; whether it was. */
  closeStream(id: JsonRpcId, reason: string): boolean {
    const controller = this.streams.get(id);
    if (controller === undefined) return false;
    this.streams.delete(id);
    controller.abort(new Error(reason));
    return true;
  }

  /** Forgets a request once the driver has its answer (or gave up on it): its stream is over. */
  ended(id: JsonRpcId): void {
    this.prepared.delete(id);
    this.streams.delete(id);
  }

  private async post(url: string | URL, init: RequestInit | undefined): Promise<Response> {
    // The legacy path pays one size check.
    if (this.prepared.size === 0 || init?.method !== "POST" || typeof init.body !== "string") return await this.base(url, init);
    const id = requestIdOf(init.body);
    const extra = id === undefined ? undefined : this.prepared.get(id);
    if (extra === undefined) return await this.base(url, init);
    this.prepared.delete(id!);
    const headers = new Headers(init.headers);
    // No sessions in this revision: an id the transport kept from a legacy answer is not sent.
    headers.delete("mcp-session-id");
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const controller = new AbortController();
    this.streams.set(id!, controller);
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    try {
      return this.watchStream(await asJsonRpcAnswer(await this.base(url, { ...init, headers, signal }), id!), id!, controller.signal);
    } catch (error) {
      this.streams.delete(id!);
      throw error;
    }
  }

  /**
   * An SSE answer, read through a pass-through that notices its end: once the transport has read
   * the last event (a macrotask later, after its parser has handed on every event), a request
   * still open there lost its answer. A stream we closed ourselves (a cancel) is not reported.
   */
  private watchStream(response: Response, id: JsonRpcId, ours: AbortSignal): Response {
    if (response.body === null || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const reader = response.body.getReader();
    const ended = (why: string) => {
      if (ours.aborted) return;
      setImmediate(() => {
        if (this.streams.has(id)) this.onStreamEnd?.(id, why);
      });
    };
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { value, done } = await reader.read();
            if (done) {
              controller.close();
              ended("the server ended the response stream");
            } else controller.enqueue(value);
          } catch (error) {
            controller.error(error);
            ended(`the response stream broke (${error instanceof Error ? error.message : String(error)})`);
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}

/** The numeric id a POST body of one of our requests starts with; undefined for any other body (a reply, a notification). */
function requestIdOf(body: string): number | undefined {
  if (!body.startsWith(REQUEST_PREFIX)) return undefined;
  let end = REQUEST_PREFIX.length;
  while (end < body.length && end - REQUEST_PREFIX.length < 16 && body.charCodeAt(end) >= 48 && body.charCodeAt(end) <= 57) end++;
  if (end === REQUEST_PREFIX.length || body[end] !== ",") return undefined;
  return Number(body.slice(REQUEST_PREFIX.length, end));
}

/**
 * A 4xx whose body is a JSON-RPC error for this request is that error (the spec's way to refuse
 * a modern request), so it becomes a 200 the transport reads. Anything else stays what it was.
 */
async function asJsonRpcAnswer(response: Response, id: JsonRpcId): Promise<Response> {
  if (response.status < 400 || response.status >= 500 || !(response.headers.get("content-type") ?? "").includes("application/json")) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isError = isObject(parsed) && parsed.jsonrpc === "2.0" && parsed.id === id && isObject(parsed.error) && typeof parsed.error.code === "number";
  return new Response(text, { status: isError ? 200 : response.status, statusText: isError ? "OK" : response.statusText, headers: response.headers });
}
