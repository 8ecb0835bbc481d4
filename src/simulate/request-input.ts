/**
 * What `sim.startRequest` takes — a web-standard `Request`, or the plain parts of one — read once
 * into a `SimulatedRequest` that the recorder, the observers and a mock's exchange all share. A
 * plain init is checked as `new Request(url, init)` would check it, and then costs no `Request`:
 * no abort signal, no body stream, no `Headers` (undici's `Request` costs more than a mock's
 * whole handling of a call).
 */
import { McpTestkitError } from "../errors.js";
import { splitTarget } from "../wire/http/exchange.js";

/** A request as plain parts, what `new Request(url, init)` would carry; no `Request` is built. */
export interface SimulationRequestInit {
  /** The HTTP method (default "GET", as fetch's); `post` is normalised to `POST` as `Request` does. */
  method?: string;
  /** An absolute URL, as `new Request` needs (`http://127.0.0.1:8082/mcp`). */
  url: string | URL;
  /** Header names in any case; repeated names (in a list of pairs) are kept apart, as on a socket. */
  headers?: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]> | Headers;
  /** The body: text (JSON) or bytes. None with GET or HEAD. */
  body?: string | Uint8Array;
}

/** One simulated request, read once. */
export interface SimulatedRequest {
  readonly method: string;
  /** The URL, normalised as `Request.url` is. */
  readonly url: string;
  /** The URL's path (normalised) and query (with its `?`, or ""). */
  readonly path: string;
  readonly search: string;
  /** Lower-case name; repeated values joined with ", " (as `Headers.get`). */
  header(name: string): string | undefined;
  /** Every header with all its values. */
  readonly distinctHeaders: Record<string, string[] | undefined> | Headers;
  /** The headers as pairs, for building a `Request` (a fetch handler target, a mounted web handler). */
  readonly headerPairs: ReadonlyArray<readonly [string, string]>;
  /** The body's text (UTF-8); undefined for none. */
  readonly text?: string;
  /** The body's size in bytes. */
  readonly byteLength: number;
  /** The body's bytes; undefined for none. */
  bytes(): Uint8Array | undefined;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A `Request`'s parts: its body read (as `arrayBuffer()`), its headers as `Headers` gives them. */
export async function readRequest(request: Request): Promise<SimulatedRequest> {
  const bytes = request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
  const headers = new Map<string, string>();
  const pairs: Array<[string, string]> = [];
  request.headers.forEach((value, name) => {
    headers.set(name, value);
    pairs.push([name, value]);
  });
  return plainRequest(request.method, request.url, headers, request.headers, pairs, bytes === undefined ? undefined : decoder.decode(bytes), bytes);
}

/** An init's parts, checked as `new Request(url, init)` checks them (the errors say what to change). */
export function readRequestInit(init: SimulationRequestInit): SimulatedRequest {
  if (typeof init !== "object" || init === null) throw new McpTestkitError(`sim.startRequest(request): pass a web-standard Request or { method, url, headers, body }; got ${init === null ? "null" : typeof init}.`);
  const method = checkedMethod(init.method);
  const url = checkedUrl(init.url);
  const { headers, pairs } = checkedHeaders(init.headers);
  const body = init.body;
  if (body !== undefined && (method === "GET" || method === "HEAD")) throw new McpTestkitError(`sim.startRequest(init): a ${method} request cannot have a body (as with new Request); send it with method "POST".`);
  if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
    throw new McpTestkitError(`sim.startRequest(init): "body" must be a string (JSON.stringify(message)) or a Uint8Array; got ${typeof body}.`);
  }
  const text = body === undefined ? undefined : typeof body === "string" ? body : decoder.decode(body);
  return plainRequest(method, url, headers, undefined, pairs, text, typeof body === "string" ? undefined : body);
}

function plainRequest(
  method: string,
  url: string,
  headers: ReadonlyMap<string, string>,
  webHeaders: Headers | undefined,
  pairs: ReadonlyArray<readonly [string, string]>,
  text: string | undefined,
  bytes: Uint8Array | undefined,
): SimulatedRequest {
  const { path, search } = splitTarget(url);
  let distinct: Record<string, string[] | undefined> | Headers | undefined = webHeaders;
  let encoded = bytes;
  return {
    method,
    url,
    path,
    search,
    header: (name) => headers.get(name),
    get distinctHeaders() {
      return (distinct ??= distinctOf(pairs));
    },
    headerPairs: pairs,
    text,
    byteLength: bytes !== undefined ? bytes.byteLength : text === undefined ? 0 : Buffer.byteLength(text),
    bytes: () => (encoded ??= text === undefined ? undefined : encoder.encode(text)),
  };
}

function distinctOf(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string[] | undefined> {
  const distinct: Record<string, string[] | undefined> = Object.create(null);
  for (const [name, value] of pairs) (distinct[name] ??= []).push(value);
  return distinct;
}

/** Methods `Request` upper-cases; the others (even "patch") are kept as given (fetch's "normalize a method"). */
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkedMethod(method: unknown): string {
  if (method === undefined) return "GET";
  if (typeof method !== "string" || !TOKEN.test(method)) throw new McpTestkitError(`sim.startRequest(init): "method" must be an HTTP method such as "POST"; got ${JSON.stringify(method)}.`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new McpTestkitError(`sim.startRequest(init): ${upper} is a forbidden method (new Request refuses it too).`);
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

function checkedUrl(url: unknown): string {
  if (!(typeof url === "string" || url instanceof URL)) throw new McpTestkitError(`sim.startRequest(init): "url" must be an absolute URL such as "http://127.0.0.1:8082/mcp"; got ${url === undefined ? "none" : typeof url}.`);
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new McpTestkitError(`sim.startRequest(init): "url" must be an absolute URL such as "http://127.0.0.1:8082/mcp" (new Request needs one too); got ${JSON.stringify(url)}.`);
  }
  if (parsed.username !== "" || parsed.password !== "") throw new McpTestkitError(`sim.startRequest(init): the URL includes credentials, which new Request refuses; send an Authorization header instead.`);
  return parsed.href;
}

/** HTTP whitespace a header value loses at both ends, as `Headers` trims it. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const BAD_VALUE = /[\0\r\n]/;

function checkedHeaders(input: SimulationRequestInit["headers"]): { headers: Map<string, string>; pairs: Array<[string, string]> } {
  const headers = new Map<string, string>();
  const pairs: Array<[string, string]> = [];
  const add = (name: unknown, value: unknown): void => {
    if (typeof name !== "string" || !TOKEN.test(name)) throw new McpTestkitError(`sim.startRequest(init): ${JSON.stringify(name)} is not a valid header name.`);
    if (typeof value !== "string") throw new McpTestkitError(`sim.startRequest(init): the header "${name}" must have a string value; got ${typeof value}.`);
    const trimmed = value.replace(EDGE_WHITESPACE, "");
    if (BAD_VALUE.test(trimmed)) throw new McpTestkitError(`sim.startRequest(init): the header "${name}" has a value with a NUL, CR or LF, which no HTTP request can carry.`);
    const lower = name.toLowerCase();
    const before = headers.get(lower);
    headers.set(lower, before === undefined ? trimmed : `${before}, ${trimmed}`);
    pairs.push([lower, trimmed]);
  };
  if (input === undefined) return { headers, pairs };
  if (input instanceof Headers) input.forEach((value, name) => add(name, value));
  else if (Array.isArray(input)) {
    for (const pair of input as ReadonlyArray<readonly [string, string]>) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new McpTestkitError(`sim.startRequest(init): "headers" as a list holds [name, value] pairs; got ${JSON.stringify(pair)}.`);
      add(pair[0], pair[1]);
    }
  } else if (typeof input === "object" && input !== null) for (const name of Object.keys(input)) add(name, (input as Record<string, unknown>)[name]);
  else throw new McpTestkitError(`sim.startRequest(init): "headers" must be an object of name → value, a list of [name, value] pairs or a Headers; got ${typeof input}.`);
  return { headers, pairs };
}
