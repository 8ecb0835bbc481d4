/**
 * Streamable HTTP in 2026-07-28, on the client side, as a `fetch` the SDK's HTTP transport calls.
 * The transport writes the same headers on every POST; this revision wants headers per request,
 * read from the body: `MCP-Protocol-Version` (the body's `_meta` version), `Mcp-Method`,
 * `Mcp-Name` (tool, prompt or resource) and `Mcp-Param-{Name}` for the tool arguments whose
 * schema says `x-mcp-header`, each in the Base64 sentinel when not plain ASCII. It also lets a
 * request's own stream be closed (the way to cancel on HTTP), and hands the transport a modern
 * server's JSON-RPC errors that come with a 4xx status (-32020, -32022, 404 -32601) as the
 * errors they are, instead of a failed POST. Legacy requests (no modern `_meta`) pass untouched.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { META } from "../protocol/meta-keys.js";
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { encodeHeaderValue, MCP_NAME_SOURCE } from "../protocol/http-headers.js";
import { declaredVersion } from "../protocol/request-meta.js";
import { mirroredHeaderValues } from "./tool-headers.js";

type Json = Record<string, unknown>;

/** The headers a modern request needs, from its body; undefined for a message that is not one. */
export function modernRequestHeaders(message: unknown, inputSchemaOf: (tool: string) => unknown): Record<string, string> | undefined {
  if (!isObject(message) || typeof message.method !== "string" || !isObject(message.params)) return undefined;
  const version = declaredVersion(message.params);
  if (typeof version !== "string") return undefined;
  const params = message.params;
  const headers: Record<string, string> = { "mcp-protocol-version": version, "mcp-method": message.method };
  const source = MCP_NAME_SOURCE[message.method];
  const name = source === undefined ? undefined : params[source];
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  if (message.method === "tools/call" && typeof params.name === "string") {
    for (const [header, value] of mirroredHeaderValues(inputSchemaOf(params.name), params.arguments)) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(value);
  }
  return headers;
}

export class ModernHttpFetch {
  /** Open modern requests by JSON-RPC id: aborting one closes its stream (cancels it on the server). */
  private readonly streams = new Map<JsonRpcId, AbortController>();
  /** Each tool's `inputSchema`, as the last `tools/list` gave it (for `Mcp-Param-*`); the driver fills it. */
  readonly toolSchemas = new Map<string, unknown>();
  private readonly inputSchemaOf = (tool: string) => this.toolSchemas.get(tool);

  /**
   * Told when a request's SSE response ended (or broke) while the request was still open. In
   * 2026-07-28 there is no resumption, so an answer that did not come on that stream never will.
   */
  onStreamEnd?: (id: JsonRpcId, why: string) => void;

  constructor(private readonly base: FetchLike) {}

  /** The fetch to give the transport. */
  readonly fetch: FetchLike = (url, init) => this.send(url, init);

  /** Closes the stream of request `id`, if it is a modern request still open; whether it was. */
  closeStream(id: JsonRpcId, reason: string): boolean {
    const controller = this.streams.get(id);
    if (controller === undefined) return false;
    this.streams.delete(id);
    controller.abort(new Error(reason));
    return true;
  }

  private async send(url: string | URL, init: RequestInit | undefined): Promise<Response> {
    // The legacy path pays one substring test.
    const body = init?.body;
    if (init?.method !== "POST" || typeof body !== "string" || !body.includes(META.protocolVersion)) return await this.base(url, init);
    const message: unknown = JSON.parse(body);
    const extra = modernRequestHeaders(message, this.inputSchemaOf);
    if (extra === undefined) return await this.base(url, init);
    const headers = new Headers(init.headers);
    // No sessions in this revision: an id the transport kept from a legacy answer is not sent.
    headers.delete("mcp-session-id");
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const id = (message as Json).id as JsonRpcId;
    const controller = new AbortController();
    this.streams.set(id, controller);
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    try {
      return this.watchStream(await asJsonRpcAnswer(await this.base(url, { ...init, headers, signal }), id), id, controller.signal);
    } catch (error) {
      this.streams.delete(id);
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

  /** Forgets a request once the driver has its answer (or gave up on it): its stream is over. */
  settled(id: JsonRpcId): void {
    this.streams.delete(id);
  }
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
