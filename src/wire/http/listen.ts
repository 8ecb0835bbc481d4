/**
 * A standalone node:http server for one or more Streamable HTTP endpoints, each at its own
 * path (several mocks on one port). Loopback by default; `close()` ends every connection so
 * no handle is left open.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeExchange } from "./node-exchange.js";
import type { StreamableHttpEndpoint } from "./streamable-http.js";

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

function pathOf(url: string | undefined): string {
  if (!url) return "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

export async function listen(mounts: ReadonlyMap<string, StreamableHttpEndpoint>, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const endpoint = mounts.get(pathOf(req.url));
    if (!endpoint) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`No MCP endpoint at ${pathOf(req.url)}; endpoints: ${[...mounts.keys()].join(", ")}\n`);
      return;
    }
    try {
      endpoint.handle(new NodeExchange(req, res));
    } catch {
      // The endpoint answers every error itself; this only guards against a broken socket.
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(":") ? `[${host}]` : host;
  return {
    origin: `http://${hostInUrl}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
