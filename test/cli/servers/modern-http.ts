/**
 * A hand-written Streamable HTTP server of protocol revision 2026-07-28 only (node:http on
 * 127.0.0.1), small enough to read at once, for `check`'s FAIL paths: it keeps every rule the
 * 2026-07-28 checks probe, but the one it is told to break. One tool, `forecast`, mirrors its
 * `city` argument into `Mcp-Param-City` (x-mcp-header). Written from the spec, not from our mock,
 * so a check that only agrees with the mock is caught.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, any>;

/** The one rule a server breaks (each one a check should catch). */
export type ModernBreak =
  /** Answers every modern POST with an `Mcp-Session-Id`. */
  | "mints-session"
  /** Answers GET (and DELETE) with 200. */
  | "get-200"
  /** Serves a request without `Mcp-Method` (a wrong one is still refused). */
  | "accepts-missing-method"
  /** Serves `tools/call` without `Mcp-Name`. */
  | "accepts-missing-name"
  /** Serves `tools/call` whose `Mcp-Name` differs from `params.name`. */
  | "accepts-name-mismatch"
  /** Serves a request without `MCP-Protocol-Version`. */
  | "accepts-missing-version"
  /** Serves a request whose `MCP-Protocol-Version` differs from its `_meta` version (the body wins). */
  | "accepts-version-mismatch"
  /** Serves `tools/call` whose `Mcp-Param-City` differs from `arguments.city`. */
  | "accepts-param-mismatch"
  /** Serves any version it is asked in, as if it were 2026-07-28. */
  | "serves-any-version"
  /** Refuses an unsupported version with -32022, but with HTTP 200. */
  | "unsupported-version-200"
  /** Leaves `resultType` out of its list results. */
  | "no-result-type"
  /** Refuses a header mismatch with 400 but error -32600, not -32020. */
  | "mismatch-wrong-code"
  /** Refuses an unsupported version with -32022 whose `data` has no `requested`. */
  | "unsupported-without-requested"
  /** Also serves 2025-03-26 clients (it lists that revision) and takes a request without MCP-Protocol-Version for one (the spec's MAY). */
  | "headerless-as-2025-03-26"
  /** Lists 2025-03-26 too, but serves a request without MCP-Protocol-Version as 2026-07-28 (the MAY does not cover that). */
  | "headerless-served-modern";

export interface ModernServer {
  readonly url: string;
  close(): Promise<void>;
}

const VERSION = "2026-07-28";
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const FORECAST = {
  name: "forecast",
  description: "The weather in a city",
  inputSchema: { type: "object", properties: { city: { type: "string", "x-mcp-header": "City" } }, required: ["city"] },
  annotations: { readOnlyHint: true },
};
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "hand-written-modern", version: "1.0.0" } };

/** Starts the server; `close()` ends it (and any connection still open). */
export async function serveModern(broken?: ModernBreak): Promise<ModernServer> {
  const server = createServer((request, response) => void handle(request, response, broken));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, broken: ModernBreak | undefined): Promise<void> {
  // DNS rebinding: a foreign Origin is refused (the transport's MUST, in every era).
  const origin = request.headers.origin;
  if (origin !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) {
    response.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Forbidden: foreign Origin" } }));
    return;
  }
  if (request.method !== "POST") {
    if (broken === "get-200") return send(response, 200, {}, broken);
    response.writeHead(405, { allow: "POST", "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method Not Allowed: POST only" } }));
    return;
  }
  let body: Json;
  try {
    body = JSON.parse(await readBody(request)) as Json;
  } catch {
    return send(response, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, broken);
  }
  if (body.id === undefined) return void response.writeHead(202).end();
  const answer = (status: number, result: Json) => send(response, status, { jsonrpc: "2.0", id: body.id, ...result }, broken);
  const refuse = (message: string) => answer(400, { error: { code: broken === "mismatch-wrong-code" ? -32600 : -32020, message: `Header mismatch: ${message}` } });
  const method = body.method as string;
  const params = (body.params ?? {}) as Json;
  const declared = params._meta?.[PROTOCOL_VERSION] as unknown;
  // A request without the modern _meta (initialize, say) is of an era this server does not speak.
  if (declared === undefined)
    return answer(400, { error: { code: -32022, message: `Unsupported protocol version: this server speaks ${VERSION} only`, data: { supported: [VERSION], requested: "" } } });
  const header = (name: string) => request.headers[name] as string | undefined;
  const version = header("mcp-protocol-version");
  // 2025-03-26 has no server/discover: answered as that revision would.
  if (version === undefined && broken === "headerless-as-2025-03-26") return answer(200, { error: { code: -32601, message: `Method not found: ${method}` } });
  if (version === undefined && broken !== "accepts-missing-version" && broken !== "headerless-served-modern") return refuse("the MCP-Protocol-Version header is required");
  if (version !== undefined && version !== declared && broken !== "accepts-version-mismatch") return refuse(`MCP-Protocol-Version ${version} is not the body's ${String(declared)}`);
  if (declared !== VERSION && broken !== "serves-any-version") {
    return answer(broken === "unsupported-version-200" ? 200 : 400, {
      error: {
        code: -32022,
        message: `Unsupported protocol version ${String(declared)}`,
        data: broken === "unsupported-without-requested" ? { supported: [VERSION] } : { supported: [VERSION], requested: String(declared) },
      },
    });
  }
  const methodHeader = header("mcp-method");
  if (methodHeader === undefined && broken !== "accepts-missing-method") return refuse("the Mcp-Method header is required");
  if (methodHeader !== undefined && methodHeader !== method) return refuse(`Mcp-Method ${methodHeader} is not the body's ${method}`);
  if (method === "tools/call") {
    const name = header("mcp-name");
    if (name === undefined && broken !== "accepts-missing-name") return refuse("the Mcp-Name header is required on tools/call");
    if (name !== undefined && name !== params.name && broken !== "accepts-name-mismatch") return refuse(`Mcp-Name ${name} is not the body's ${String(params.name)}`);
    const city = params.arguments?.city as unknown;
    const cityHeader = header("mcp-param-city");
    if (params.name === FORECAST.name && city !== undefined && cityHeader !== city && broken !== "accepts-param-mismatch")
      return refuse(`Mcp-Param-City ${String(cityHeader)} is not arguments.city ${String(city)}`);
  }
  const complete = broken === "no-result-type" && method.endsWith("/list") ? {} : { resultType: "complete" };
  switch (method) {
    case "server/discover":
      return answer(200, {
        result: {
          resultType: "complete",
          supportedVersions: broken === "headerless-as-2025-03-26" || broken === "headerless-served-modern" ? [VERSION, "2025-03-26"] : [VERSION],
          capabilities: { tools: {} },
          ttlMs: 60_000,
          cacheScope: "public",
          _meta: SERVER_INFO,
        },
      });
    case "tools/list":
      return answer(200, { result: { ...complete, tools: [FORECAST], ttlMs: 60_000, cacheScope: "public" } });
    case "tools/call":
      if (params.name !== FORECAST.name) return answer(200, { error: { code: -32602, message: `Unknown tool: ${String(params.name)}` } });
      return answer(200, { result: { resultType: "complete", content: [{ type: "text", text: `Sunny in ${String(params.arguments?.city)}` }] } });
    default:
      return answer(404, { error: { code: -32601, message: "Method not found" } });
  }
}

function send(response: ServerResponse, status: number, message: Json, broken: ModernBreak | undefined): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (broken === "mints-session") headers["mcp-session-id"] = "session-1";
  response.writeHead(status, headers).end(JSON.stringify(message));
}

/** The body, up to 1 MB (a test server: nothing larger is sent to it). */
async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 1_000_000) throw new Error("body too large");
  }
  return text;
}
