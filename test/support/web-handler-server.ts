/**
 * Serves a web-standard `(request: Request) => Promise<Response>` handler (such as SDK v2's
 * `createMcpHandler(...).fetch`) on 127.0.0.1 with node:http, so a client talks to it over a
 * real socket. A client that goes away aborts the request's signal (how a 2026-07-28 server
 * learns of a cancel over HTTP); `close()` ends every connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebHandlerServer {
  url: string;
  close(): Promise<void>;
}

export async function serveWebHandler(handle: (request: Request) => Promise<Response>, path = "/mcp"): Promise<WebHandlerServer> {
  const server = createServer((req, res) => void answer(req, res, handle, origin()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin()}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, handle: (request: Request) => Promise<Response>, origin: string): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.method !== "DELETE";
    const request = new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, signal: controller.signal, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) });
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch {
    // The client left mid-answer (or the handler failed after the head was sent): nothing to tell.
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
