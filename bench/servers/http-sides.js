/**
 * The Streamable HTTP servers the benchmark compares (bench/http.js), each with one tool `echo`
 * that answers [{ type: "text", text: "ok" }], listening on 127.0.0.1 on a free port:
 *
 * - ours-json / ours-sse: `mockMcp({ tools: { echo: { returns: "ok" } }, responseMode })` from the
 *   built package (dist/), every other option at its default (every rule of the transport on).
 * - ours-fn-norecord (not in the HTTP section): ours-fn with `recordLimit: 0`, no call record kept.
 * - bare-keep (not in the HTTP section): the bare server holding its last 1,000 parsed requests.
 * - bare-spin (not in the HTTP section): the bare server busy for 2.5 µs more per call (what our
 *   handler adds over the bare one in bench/handler-cost.js), to see what that much costs over a socket.
 * - ours-modern: the same mock (JSON) loaded with 2026-07-28 calls: no session, `_meta` in the
 *   body, MCP-Protocol-Version / Mcp-Method / Mcp-Name headers, each checked against the body.
 * - aimock: `@copilotkit/aimock`'s `MCPMock` with `addTool` + `onToolCall`, `start()` / `stop()`.
 * - sdk-json / sdk-sse: the official SDK's `McpServer` + `StreamableHTTPServerTransport`, stateful
 *   (one transport and one McpServer per session, as the SDK's own examples do), in JSON mode
 *   (`enableJsonResponse: true`) or SSE mode; the body is parsed once and passed to the transport.
 * - bare: a `node:http` server that parses the JSON-RPC body and answers a canned result with the
 *   request's id (`initialize` gets a fresh Mcp-Session-Id, notifications 202). It checks
 *   nothing: the ceiling a server on this wire can reach.
 * - bare-modern: the bare server called the 2026-07-28 way, answering with `resultType` and the
 *   server's identity in `_meta` as our mock does (and checking nothing): the ceiling for a
 *   2026-07-28 call, so the cost of the revision's larger messages shows apart from ours.
 *
 * `startSide(name)` resolves to `{ url, stop() }`. Used in the server processes of the load test
 * (bench/servers/http-server.js) and, in-process, by the per-test setup measurement.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";

export const TEXT = "ok";
export const HTTP_SIDES = ["ours-json", "ours-fn", "ours-sse", "ours-modern", "aimock", "sdk-json", "sdk-sse", "bare", "bare-modern"];
/** Sides started only by bench/observe.js, bench/compare-http.js and bench/profile.js, not in the HTTP section. */
const EXTRA_SIDES = ["ours-observed", "ours-traced", "ours-fn-norecord", "bare-keep", "bare-spin"];
/** Sides the load generator calls the 2026-07-28 way (per request, no initialize). */
export const MODERN_SIDES = new Set(["ours-modern", "bare-modern"]);

const listenOn = (server) =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve(`http://127.0.0.1:${server.address().port}`);
    });
  });

const closeServer = (server) =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

// ---------------------------------------------------------------- ours
let distPromise;
const dist = () => (distPromise ??= import("../../dist/index.js"));

/** The echo tool as a static step, or as a step function answering from its argument (what most users write). */
const ECHO_STATIC = { returns: TEXT };
const ECHO_FUNCTION = (call) => ({ returns: call.arguments.text ?? TEXT });
/** An observer with every request and stream callback, doing nothing (bench/observe.js measures the delivery itself). */
const NOOP_OBSERVER = { name: "bench", requestDidStart() {}, requestDidFinish() {}, streamDidOpen() {}, streamDidClose() {} };

async function startOurs(responseMode, { echo = ECHO_STATIC, observed = false, extra = {} } = {}) {
  const { mockMcp } = await dist();
  const observation = observed ? { metrics: true, observers: [NOOP_OBSERVER] } : {};
  const server = await mockMcp({ tools: { echo }, responseMode, ...observation, ...extra });
  return {
    url: server.url,
    stop: () => server.close(),
    stats: () => ({ recordedCalls: server.calls.length, ...server.recordStats }),
  };
}

/** ours-json with a trace file of its own (in the system's temporary folder, removed when it stops), capped so a long run stays bounded on disk. */
async function startTraced() {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const folder = mkdtempSync(path.join(tmpdir(), "mcp-testkit-bench-trace-"));
  const started = await startOurs("json", { extra: { trace: { file: path.join(folder, "trace.jsonl"), limit: 2_000_000, keep: 10_000 } } });
  return {
    ...started,
    stop: async () => {
      await started.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- aimock
async function startAimock() {
  const { MCPMock } = await import("@copilotkit/aimock");
  const mock = new MCPMock({ host: "127.0.0.1", port: 0 });
  mock.addTool({ name: "echo", description: "returns ok", inputSchema: { type: "object", properties: {} } });
  mock.onToolCall("echo", () => TEXT);
  const origin = await mock.start();
  return { url: `${origin}/mcp`, stop: () => mock.stop() };
}

// ---------------------------------------------------------------- the official SDK
let sdkPromise;
const sdk = () =>
  (sdkPromise ??= Promise.all([import("@modelcontextprotocol/sdk/server/mcp.js"), import("@modelcontextprotocol/sdk/server/streamableHttp.js"), import("@modelcontextprotocol/sdk/types.js")]).then(
    ([mcp, http, types]) => ({ McpServer: mcp.McpServer, StreamableHTTPServerTransport: http.StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest }),
  ));

async function startSdk(enableJsonResponse) {
  const { McpServer, StreamableHTTPServerTransport, isInitializeRequest } = await sdk();
  /** session id → transport (each with its own McpServer) */
  const transports = new Map();
  const servers = new Set();
  const server = createServer(async (req, res) => {
    try {
      const sessionId = req.headers["mcp-session-id"];
      const text = req.method === "POST" ? await readBody(req) : "";
      let body;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
          return;
        }
      }
      const known = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (known) {
        await known.handleRequest(req, res, body);
        return;
      }
      if (sessionId === undefined && req.method === "POST" && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        const mcp = new McpServer({ name: "bench-sdk-server", version: "1.0.0" });
        mcp.registerTool("echo", { description: "returns ok" }, async () => ({ content: [{ type: "text", text: TEXT }] }));
        servers.add(mcp);
        transport.onclose = () => {
          if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
          servers.delete(mcp);
        };
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(sessionId === undefined ? 400 : 404, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no valid session"}}');
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  const origin = await listenOn(server);
  return {
    url: `${origin}/mcp`,
    async stop() {
      await Promise.all([...servers].map((mcp) => mcp.close().catch(() => undefined)));
      await closeServer(server);
    },
  };
}

// ---------------------------------------------------------------- bare node:http (the ceiling)
/** A 2026-07-28 answer as our mock gives it: `resultType` and the server's identity (the mock's default) in `_meta`. */
export async function modernResultTail() {
  const { DEFAULT_SERVER_INFO } = await dist();
  return `,"resultType":"complete","_meta":${JSON.stringify({ "io.modelcontextprotocol/serverInfo": DEFAULT_SERVER_INFO })}`;
}

/** The bare server's request handler; `tail` is added to every tools/call result (see modernResultTail). */
export function bareHandler({ tail = "", keep = 0, spinUs = 0 } = {}) {
  const head = { "content-type": "application/json" };
  // `keep`: the last N parsed requests held in a ring, as a mock's record holds its calls.
  const kept = keep > 0 ? new Array(keep) : undefined;
  let next = 0;
  return (req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res.writeHead(400, head).end();
        return;
      }
      if (kept !== undefined) kept[next++ % kept.length] = { message, at: Date.now() };
      if (spinUs > 0) spin(spinUs);
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === "initialize") {
        const result = { protocolVersion: message.params?.protocolVersion ?? "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bare", version: "1.0.0" } };
        res.writeHead(200, { ...head, "mcp-session-id": randomUUID() }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
        return;
      }
      const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"${TEXT}"}]${tail}}}`;
      res.writeHead(200, { ...head, "content-length": Buffer.byteLength(body) }).end(body);
    });
  };
}

/** Busy for `us` microseconds (a stand-in for code a server runs per call). */
function spin(us) {
  const until = performance.now() + us / 1000;
  while (performance.now() < until);
}

async function startBare({ modern = false, keep = 0, spinUs = 0 } = {}) {
  const server = createServer(bareHandler({ tail: modern ? await modernResultTail() : "", keep, spinUs }));
  const origin = await listenOn(server);
  return { url: `${origin}/mcp`, stop: () => closeServer(server) };
}

export async function startSide(name) {
  switch (name) {
    case "ours-json":
      return startOurs("json");
    case "ours-fn":
      return startOurs("json", { echo: ECHO_FUNCTION });
    case "ours-fn-norecord":
      // Not in HTTP_SIDES: ours-fn keeping no call record (recordLimit 0), for what the record costs (bench/README.md).
      return startOurs("json", { echo: ECHO_FUNCTION, extra: { recordLimit: 0 } });
    case "ours-sse":
      return startOurs("sse");
    case "ours-modern":
      return startOurs("json");
    case "ours-observed":
      // Not in HTTP_SIDES: bench/observe.js compares it with ours-json (metrics and an observer on).
      return startOurs("json", { observed: true });
    case "ours-traced":
      // Not in HTTP_SIDES: bench/trace.js compares it with ours-json (a trace file written as calls pass).
      return startTraced();
    case "aimock":
      return startAimock();
    case "sdk-json":
      return startSdk(true);
    case "sdk-sse":
      return startSdk(false);
    case "bare":
      return startBare();
    // The bare server given 2026-07-28 calls (the larger body with _meta; Mcp-Method and Mcp-Name,
    // no Mcp-Session-Id) and answering as 2026-07-28 does: what those bytes cost any server, the
    // ceiling for the ours-modern row.
    case "bare-modern":
      return startBare({ modern: true });
    case "bare-keep":
      // Not in HTTP_SIDES: the bare server holding its last 1,000 requests, as our mock's record does (bench/README.md).
      return startBare({ keep: 1000 });
    case "bare-spin":
      // Not in HTTP_SIDES: the bare server 2.5 µs busier per call, what our handler adds in bench/handler-cost.js (bench/README.md).
      return startBare({ spinUs: 2.5 });
    default:
      throw new Error(`unknown HTTP side ${JSON.stringify(name)}; sides: ${[...HTTP_SIDES, ...EXTRA_SIDES].join(", ")}`);
  }
}
