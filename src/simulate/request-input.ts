/**
 * What `sim.startRequest` takes — a web-standard `Request`, or the plain parts of one — read once
 * into a `SimulatedRequest` that the recorder, the observers and a mock's exchange all share. A
 * plain init is checked as `new Request(url, init)` would check it, and then costs no `Request`:
 * no abort signal, no body stream, no `Headers` (undici's `Request` costs more than a mock's
 * whole handling of a call).
 */
import { McpTestkitError } from "../errors.js";
import { isHttpToken } from "../protocol/http-token.js";
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

/** An init's headers: by lower-case name with repeats joined, and each apart. */
interface InitHeaders {
  readonly joined: ReadonlyMap<string, string>;
  readonly pairs: ReadonlyArray<readonly [string, string]>;
}

/** One simulated request, read once: its parts, shared by the recorder, the observers and a mock's exchange. */
export class SimulatedRequest {
  /** The URL's path (normalised) and query (with its `?`, or ""). */
  readonly path: string;
  readonly search: string;
  /** The body's size in bytes. */
  readonly byteLength: number;
  private pairs?: ReadonlyArray<readonly [string, string]>;
  /** A `Request`'s own `Headers` (also of another realm or undici copy), or an init's. */
  private readonly web?: Headers;
  private readonly init?: InitHeaders;
  /**
   * The `Request` it was read from, kept for as long as this is (the exchange's life). Dropping
   * it once read, while its `Headers` lives on, measured about a third slower per simulated call
   * in bench/observe.js (undici's objects dying apart); keeping it costs nothing.
   */
  private readonly source?: Request;

  constructor(
    readonly method: string,
    /** The URL, normalised as `Request.url` is. */
    readonly url: string,
    /**
     * An init's headers by lower-case name, repeated values joined with ", " (as `Headers.get`
     * gives them) and each apart in `pairs`; or the `Request`, read through its own `Headers`
     * (which join repeats).
     */
    from: InitHeaders | Request,
    /** The body's text (UTF-8); undefined for none. */
    readonly text: string | undefined,
    private encoded: Uint8Array | undefined,
  ) {
    const target = splitTarget(url);
    this.path = target.path;
    this.search = target.search;
    this.byteLength = encoded !== undefined ? encoded.byteLength : text === undefined ? 0 : Buffer.byteLength(text);
    if ((from as Partial<InitHeaders>).joined !== undefined) this.init = from as InitHeaders;
    else {
      this.source = from as Request;
      this.web = this.source.headers;
    }
  }

  /** Lower-case name; repeated values joined with ", ". */
  header(name: string): string | undefined {
    return this.init !== undefined ? this.init.joined.get(name) : (this.web!.get(name) ?? undefined);
  }

  /** Every header with all its values (from a `Request`, its `Headers`: repeats joined). */
  get distinctHeaders(): Record<string, string[] | undefined> | Headers {
    return this.init !== undefined ? distinctOf(this.init.pairs) : this.web!;
  }

  /** The headers as pairs, for building a `Request` (a fetch handler target, a mounted web handler). */
  get headerPairs(): ReadonlyArray<readonly [string, string]> {
    if (this.init !== undefined) return this.init.pairs;
    if (this.pairs === undefined) {
      const pairs: Array<[string, string]> = [];
      this.web!.forEach((value, name) => pairs.push([name, value]));
      this.pairs = pairs;
    }
    return this.pairs;
  }

  /** The body's bytes; undefined for none. */
  bytes(): Uint8Array | undefined {
    return (this.encoded ??= this.text === undefined ? undefined : encoder.encode(this.text));
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A `Request`'s parts, its body read already (as text held by the `Request`, or the bytes `arrayBuffer()` reads; none for GET and HEAD); its headers are read from its `Headers` when asked. */
export function readRequest(request: Request, body: string | Uint8Array | undefined): SimulatedRequest {
  if (typeof body === "string") return new SimulatedRequest(request.method, request.url, request, body, undefined);
  return new SimulatedRequest(request.method, request.url, request, body === undefined ? undefined : decoder.decode(body), body);
}

/** An init's parts, checked as `new Request(url, init)` checks them (the errors say what to change). */
export function readRequestInit(init: SimulationRequestInit): SimulatedRequest {
  if (typeof init !== "object" || init === null)
    throw new McpTestkitError(`sim.startRequest(request): pass a web-standard Request or { method, url, headers, body }; got ${init === null ? "null" : typeof init}.`);
  const method = checkedMethod(init.method);
  const url = checkedUrl(init.url);
  const joined = new Map<string, string>();
  const pairs: Array<[string, string]> = [];
  readHeaders(init.headers, joined, pairs);
  const headers = { joined, pairs };
  const body = init.body;
  if (body !== undefined && (method === "GET" || method === "HEAD"))
    throw new McpTestkitError(`sim.startRequest(init): a ${method} request cannot have a body (as with new Request); send it with method "POST".`);
  if (body === undefined || typeof body === "string") return new SimulatedRequest(method, url, headers, body, undefined);
  if (!(body instanceof Uint8Array)) throw new McpTestkitError(`sim.startRequest(init): "body" must be a string (JSON.stringify(message)) or a Uint8Array; got ${typeof body}.`);
  return new SimulatedRequest(method, url, headers, decoder.decode(body), body);
}

function distinctOf(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string[] | undefined> {
  const distinct: Record<string, string[] | undefined> = Object.create(null);
  for (const [name, value] of pairs) (distinct[name] ??= []).push(value);
  return distinct;
}

/** Methods `Request` upper-cases; the others (even "patch") are kept as given (fetch's "normalize a method"). */
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

function checkedMethod(method: unknown): string {
  if (method === undefined) return "GET";
  if (typeof method !== "string" || !isHttpToken(method)) throw new McpTestkitError(`sim.startRequest(init): "method" must be an HTTP method such as "POST"; got ${JSON.stringify(method)}.`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new McpTestkitError(`sim.startRequest(init): ${upper} is a forbidden method (new Request refuses it too).`);
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

/** The last URL string checked, and its normalised form: a test sends to one URL again and again. */
let lastUrl: { given: string; href: string } | undefined;

function checkedUrl(url: unknown): string {
  if (typeof url === "string" && url === lastUrl?.given) return lastUrl.href;
  if (!(typeof url === "string" || url instanceof URL))
    throw new McpTestkitError(`sim.startRequest(init): "url" must be an absolute URL such as "http://127.0.0.1:8082/mcp"; got ${url === undefined ? "none" : typeof url}.`);
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new McpTestkitError(`sim.startRequest(init): "url" must be an absolute URL such as "http://127.0.0.1:8082/mcp" (new Request needs one too); got ${JSON.stringify(url)}.`);
  }
  if (parsed.username !== "" || parsed.password !== "")
    throw new McpTestkitError(`sim.startRequest(init): the URL includes credentials, which new Request refuses; send an Authorization header instead.`);
  if (typeof url === "string") lastUrl = { given: url, href: parsed.href };
  return parsed.href;
}

const BAD_VALUE = /[\0\r\n]/;
/** Header names checked already, as given, to their lower-case form (a test sends the same few again and again). */
const checkedNames = new Map<string, string>();
const MAX_CHECKED_NAMES = 256;

/** Reads an init's headers into `headers` (joined, as `Headers.get` gives them) and `pairs` (each apart). */
function readHeaders(input: SimulationRequestInit["headers"], headers: Map<string, string>, pairs: Array<[string, string]>): void {
  const add = (name: unknown, value: unknown): void => {
    const lower = typeof name === "string" ? (checkedNames.get(name) ?? checkedName(name)) : checkedName(name);
    if (typeof value !== "string") throw new McpTestkitError(`sim.startRequest(init): the header "${String(name)}" must have a string value; got ${typeof value}.`);
    const trimmed = trimHttpWhitespace(value);
    if (BAD_VALUE.test(trimmed)) throw new McpTestkitError(`sim.startRequest(init): the header "${String(name)}" has a value with a NUL, CR or LF, which no HTTP request can carry.`);
    const before = headers.get(lower);
    headers.set(lower, before === undefined ? trimmed : `${before}, ${trimmed}`);
    pairs.push([lower, trimmed]);
  };
  if (input === undefined) return;
  // By shape, not `instanceof`: a Headers of another realm or another copy of undici is one too.
  if (isHeadersLike(input)) input.forEach((value, name) => add(name, value));
  else if (Array.isArray(input)) {
    for (const pair of input as ReadonlyArray<readonly [string, string]>) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new McpTestkitError(`sim.startRequest(init): "headers" as a list holds [name, value] pairs; got ${JSON.stringify(pair)}.`);
      add(pair[0], pair[1]);
    }
  } else if (typeof input === "object" && input !== null) for (const name of Object.keys(input)) add(name, (input as Record<string, unknown>)[name]);
  else throw new McpTestkitError(`sim.startRequest(init): "headers" must be an object of name → value, a list of [name, value] pairs or a Headers; got ${typeof input}.`);
}

function isHeadersLike(value: unknown): value is Pick<Headers, "forEach"> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { forEach?: unknown }).forEach === "function";
}

/** A header name checked as a token, lower-cased (and remembered, up to a bound). */
function checkedName(name: unknown): string {
  if (typeof name !== "string" || !isHttpToken(name)) throw new McpTestkitError(`sim.startRequest(init): ${JSON.stringify(name)} is not a valid header name.`);
  const lower = name.toLowerCase();
  if (checkedNames.size < MAX_CHECKED_NAMES) checkedNames.set(name, lower);
  return lower;
}

/** A value without the HTTP whitespace (tab, LF, CR, space) at its ends, as `Headers` stores it. */
function trimHttpWhitespace(value: string): string {
  const isSpace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32;
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
