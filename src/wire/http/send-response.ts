/**
 * Writes a web-standard `Response` (a mounted handler's answer) to node's `ServerResponse` as it
 * comes: the status, the headers (each `set-cookie` apart), then the body's chunks as bytes, each
 * sent when it is read, so an SSE stream or another mock's `fetch` streams through and a binary
 * body arrives unchanged. A client that goes away cancels the body, so an endless stream ends.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { BodyCut } from "./exchange.js";
import { errorText } from "../../util/text.js";

/**
 * Headers about the connection and the message's framing, which node sets itself: a handler's
 * copy would contradict them. `content-length` too: node frames the body as it streams, and a
 * handler's length that is wrong (a `fetch` whose gzip body undici decoded keeps the compressed
 * length) would spill the rest of the body onto the keep-alive connection as a next response.
 */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection", "content-length"]);

/** Statuses whose responses carry no body (RFC 9110): the handler's body is cancelled. */
const NO_BODY_STATUSES = new Set([204, 304]);

/** A `Headers` as node takes them: `set-cookie` as a list (a `Headers` iterates each apart; a record would keep only the last). */
export function nodeHeaders(headers: Headers, keepLength = false): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if ((HOP_BY_HOP.has(name) && !(keepLength && name === "content-length")) || name === "set-cookie") return;
    out[name] = value;
  });
  // `getSetCookie` is recent (Node 19.7+, undici): a Response from elsewhere may lack it.
  const cookies = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : headers.get("set-cookie") === null ? [] : [headers.get("set-cookie")!];
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

type Read = { done: true; value?: undefined } | { done: false; value: Uint8Array };

/**
 * Sends `response` on `res`. Rejects only while nothing went out: when the head cannot be written
 * or the body fails before its first chunk (the caller can still answer 500); resolves once the body ended, the
 * client left or the body failed later (then the connection is cut, as a crashed server's is:
 * the status went out already, and it resolves with that cut, for the caller's log).
 */
export async function sendWebResponse(res: ServerResponse, response: Response, method: string): Promise<BodyCut | undefined> {
  const body = response.body;
  if (res.headersSent || res.destroyed) {
    await body?.cancel().catch(() => undefined);
    return;
  }
  const bodyless = method === "HEAD" || NO_BODY_STATUSES.has(response.status);
  if (body === null || bodyless) {
    await body?.cancel().catch(() => undefined);
    writeHead(res, response, bodyless);
    res.end();
    return;
  }
  const reader = body.getReader();
  // A body that is ready at once (most are) is read before the head: if it fails, a 500 can still
  // say so. One that is not yet ready gets its head now, since a stream's client may wait long.
  const first = reader.read().then(
    (read) => ({ read: read as Read }),
    (error: unknown) => ({ error }),
  );
  const early = await Promise.race([first, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
  if (early !== undefined && "error" in early) {
    reader.releaseLock();
    throw new Error(`its body failed before its first byte: ${errorText(early.error)}`);
  }
  try {
    writeHead(res, response, false);
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  }
  if (early === undefined) res.flushHeaders();
  let finished = false;
  let cut: BodyCut | undefined;
  const clientLeft = () => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined);
  };
  res.once("close", clientLeft);
  try {
    const settled = early ?? (await first);
    if ("error" in settled) throw settled.error;
    let read: Read = settled.read;
    while (!read.done && !res.destroyed) {
      if (!res.write(read.value)) await drained(res);
      if (res.destroyed) break;
      read = await reader.read();
    }
    finished = read.done === true;
    if (!res.destroyed) res.end();
  } catch (error) {
    // The body failed mid-way: cut the connection as a crashed server would; the caller says why (the client only sees a cut).
    cut = { error };
    res.destroy();
  } finally {
    res.off("close", clientLeft);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return cut;
}

function writeHead(res: ServerResponse, response: Response, keepLength: boolean): void {
  let headers: OutgoingHttpHeaders;
  try {
    headers = nodeHeaders(response.headers, keepLength);
    res.writeHead(response.status, headers);
  } catch (error) {
    throw new Error(`its head cannot be sent (status ${String(response.status)}): ${errorText(error)}`);
  }
}

/** Waits until `res` takes more (or is gone): a slow client must not make us buffer an endless stream. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
