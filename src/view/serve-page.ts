/**
 * Serves a timeline page on loopback for `mcp-testkit view` without `--out`: one route behind
 * the same Host/Origin guard as a mock's port, so no other site can read it through a
 * rebound name.
 */
import { listen, type Listening } from "../wire/http/listen.js";
import { OriginGuard } from "../wire/http/origin-guard.js";
import { Router } from "../wire/http/router.js";

/** Serves `html` at `/` on 127.0.0.1 (`port` 0 or undefined: a free one). */
export async function servePage(html: string, port?: number): Promise<Listening> {
  const router = new Router(undefined, { guard: new OriginGuard() });
  router.mount("/", (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return new Response("The timeline is read with GET.\n", { status: 405, headers: { allow: "GET, HEAD", "content-type": "text/plain" } });
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
  });
  return listen(router, { host: "127.0.0.1", ...(port !== undefined && { port }) });
}
