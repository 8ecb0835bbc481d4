/**
 * A standalone node:http server for a router: the MCP endpoint(s) at their paths and whatever
 * else is mounted beside them (several mocks, a control API, metrics on one port). Loopback by
 * default; `close()` ends every connection so no handle is left open.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { NodeExchange } from "./node-exchange.js";
import type { Router } from "./router.js";
import { listenFailure } from "./listen-error.js";

export interface ListenOptions {
  /** Default: a free port. */
  port?: number;
  /** Default: 127.0.0.1. */
  host?: string;
}

export interface Listening {
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens; a port in use (or not allowed, or a host not this machine's) rejects with a ListenError saying what to do. */
export async function listen(router: Pick<Router, "handle">, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    try {
      router.handle(new NodeExchange(req, res));
    } catch {
      // The endpoint answers every error itself; this only guards against a broken socket.
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  // Node hands CONNECT to this event, not to the router, and drops the connection unheard when nobody listens.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => refuseConnect(socket));
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(listenFailure(error, host, port)));
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(":") ? `[${host}]` : host;
  return {
    origin: `http://${hostInUrl}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** 501 (RFC 9110 §9.1): this server tunnels nothing, at any target. */
function refuseConnect(socket: Socket): void {
  const body = JSON.stringify({
    error: "CONNECT has no handler here: this is an MCP server, not a proxy, so it opens no tunnels; send GET, POST or DELETE to its MCP endpoint.",
    code: "MCP_HTTP_METHOD_NOT_IMPLEMENTED",
  });
  socket.on("error", () => socket.destroy());
  socket.end(`HTTP/1.1 501 Not Implemented\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
