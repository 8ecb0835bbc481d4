/**
 * A `Request`'s body without its stream, where the implementation still holds the body as it
 * was given. Node's fetch (undici) keeps a string or bytes body beside the web stream it made
 * for it; reading that stream with `arrayBuffer()` on Node 20 costs about 30 µs of a simulated
 * call's ~90 (bench/observe.js, "a simulated tools/call"), more than the mock's whole handling.
 * Anything else — a stream body, a body already read or being read, another fetch
 * implementation, a Node whose undici hides its state — gives undefined, and the caller reads it
 * with `arrayBuffer()`.
 */

interface HeldState {
  body?: { source?: unknown; stream?: ReadableStream; length?: number | null } | null;
}

/** Per `Request` prototype (one per fetch implementation): the symbol its state is kept under, or null for none. */
const stateKeys = new WeakMap<object, symbol | null>();

/**
 * The body as given (its text, or a copy of its bytes), and the `Request`'s body marked used as
 * reading it would leave it (`bodyUsed`, a second read refused); or undefined to read it the
 * public way.
 */
export function takeHeldBody(request: Request): string | Uint8Array | undefined {
  if (request.bodyUsed) return undefined;
  const body = stateOf(request)?.body;
  const stream = body?.stream;
  if (stream === undefined || stream.locked) return undefined;
  const source = body!.source;
  let held: string | Uint8Array;
  // A string is held as the USVString the body init made of it (lone surrogates replaced), the text the stream would give.
  if (typeof source === "string") {
    held = source;
  } else if (source instanceof Uint8Array && source.byteLength === body!.length) {
    // A clone or `new Request(request)` shares these bytes, and reading a sibling's stream
    // transfers (empties) them: a copy, taken while they are whole, is the simulator's own.
    held = source.slice();
  } else {
    return undefined;
  }
  // Used, as fetch leaves it: its stream is cancelled (nothing was read from it, nothing waits).
  stream.cancel().catch(() => undefined);
  return held;
}

function stateOf(request: Request): HeldState | undefined {
  const prototype = Object.getPrototypeOf(request) as object | null;
  if (prototype === null) return undefined;
  let key = stateKeys.get(prototype);
  if (key === undefined) {
    key = Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === "state") ?? null;
    stateKeys.set(prototype, key);
  }
  if (key === null) return undefined;
  const state = (request as unknown as Record<symbol, unknown>)[key];
  return typeof state === "object" && state !== null ? (state as HeldState) : undefined;
}
