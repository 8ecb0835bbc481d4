/**
 * Writes a web-standard `Response` (a mounted handler's answer) to node's `ServerResponse` as it
 * comes: the status, the headers (each `set-cookie` apart), then the body's chunks as bytes, each
 * sent when it is read, so an SSE stream or another mock's `fetch` streams through and a binary
 * body arrives unchanged. A client that goes away cancels the body, so an endless stream ends.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

/** Headers node sets itself for the connection it manages; a handler's copy would contradict them. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

/** A `Headers` as node takes them: `set-cookie` as a list (a `Headers` iterates each apart; a record would keep only the last). */
export function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || name === "set-cookie") return;
    out[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/**
 * Sends `response` on `res`; resolves once the body ended, the client left or the body failed
 * (then the connection is cut: the status went out already, so a 500 cannot be sent).
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.writeHead(response.status, nodeHeaders(response.headers));
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  // The headers go now: a stream's client may wait a long time for the first chunk.
  res.flushHeaders();
  const reader = body.getReader();
  const clientLeft = () => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined);
  };
  res.once("close", clientLeft);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
    if (!res.destroyed) res.end();
  } catch {
    // The body failed mid-way (or the handler's stream errored): end the connection as a crashed server would.
    res.destroy();
  } finally {
    res.off("close", clientLeft);
    reader.releaseLock();
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
