#!/usr/bin/env node
/**
 * The one load generator of the Streamable HTTP benchmark, for every server alike.
 *
 * A "session" is one keep-alive connection (its own `http.Agent` with one socket) and one MCP
 * session on it: POST `initialize` (protocol 2025-11-25 asked), keep the `Mcp-Session-Id` and the
 * negotiated version, POST `notifications/initialized`, then POST `tools/call` `echo` with the
 * `Mcp-Session-Id` and `MCP-Protocol-Version` headers and `Accept: application/json,
 * text/event-stream`. Answers are read whole, as JSON or as an SSE stream (the event carrying the
 * request's id), and every `tools/call` answer is checked to be 200 with the text "ok".
 * Concurrency N = N sessions, each with one call in flight at a time.
 *
 * The client's own work per call is kept the same for every server and both eras: each body is
 * made from text prepared once per session (only the id changes), and an answer is checked by
 * reading its text (see quickAnswerOk), parsed only when that reading does not pass. Why: in this
 * closed loop the client's cost per call sets the pace the server is measured at, and a server's
 * CPU per call rises when its requests come slower (bench/README.md, the tenth session's "The client's pace").
 *
 * A "modern" session (2026-07-28) has no MCP session: no initialize, and each `tools/call` carries
 * `_meta` with the protocol version and client capabilities, and the MCP-Protocol-Version,
 * Mcp-Method and Mcp-Name headers the server checks against the body.
 *
 * Plain `node:http` on purpose: no dependency, the same client code for every server.
 *
 * As a script (for bench/profile.js, which profiles a server while this loads it):
 *   node bench/lib/loadgen.js --url=http://127.0.0.1:PORT/mcp [--concurrency=32] [--seconds=5] [--count=N] [--era=modern]
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

export const ACCEPT = "application/json, text/event-stream";
export const ASKED_VERSION = "2025-11-25";
const CALL_PARAMS = { name: "echo", arguments: { text: "ok" } };

/**
 * One POST; resolves with the status, the content type, the session header and the whole body.
 * A keep-alive socket the server closed while it sat idle (its keep-alive timeout passed while
 * other servers were measured) fails the next request with ECONNRESET before the server read
 * it; that request is sent once more on a new socket, as node's docs advise (`reusedSocket`).
 * (Should the server have read it after all, the echo call it repeats changes nothing.)
 */
async function post(session, headers, body) {
  try {
    return await postOnce(session, headers, body);
  } catch (error) {
    if (error.code !== "ECONNRESET" || !error.reusedSocket) throw error;
    session.staleSocketRetries = (session.staleSocketRetries ?? 0) + 1;
    return await postOnce(session, headers, body);
  }
}

function postOnce(session, headers, body) {
  return new Promise((resolve, reject) => {
    // No content-length given: `end(body)` before the head went out sets it (no chunked encoding).
    const request = http.request(
      {
        agent: session.agent,
        host: session.url.hostname,
        port: session.url.port,
        path: session.url.pathname,
        method: "POST",
        headers,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode, type: response.headers["content-type"] ?? "", sessionId: response.headers["mcp-session-id"], text }));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => {
      // Only a request that got no response on a socket an earlier request used may be sent again.
      error.reusedSocket = request.reusedSocket && !request.res;
      reject(error);
    });
    request.end(body);
  });
}

/**
 * Whether a tools/call answer (JSON, or the SSE events around it) is the expected one, read from
 * its text without parsing it: the answer to this id, a result with the text "ok", not an error,
 * and (2026-07-28) `resultType: "complete"`. Key order and spacing are the servers' own: a text
 * that does not pass this reading is parsed and checked in full by the caller.
 */
export function quickAnswerOk(text, id, wantResultType) {
  const idField = `"id":${id}`;
  const at = text.indexOf(idField);
  if (at < 0) return false;
  // "id":1 must not pass for "id":12.
  const after = text.charCodeAt(at + idField.length);
  if (after !== 44 /* , */ && after !== 125 /* } */) return false;
  return text.includes('"result":') && text.includes('"text":"ok"') && !text.includes('"isError":true') && !text.includes('"error":') && (!wantResultType || text.includes('"resultType":"complete"'));
}

/** The JSON-RPC answer with this id, from a JSON body or from the events of an SSE body. */
export function answerFor(reply, id) {
  if (reply.type.startsWith("text/event-stream")) {
    for (const event of reply.text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line[5] === " " ? 6 : 5))
        .join("\n");
      if (!data) continue;
      const message = JSON.parse(data);
      if (message.id === id && ("result" in message || "error" in message)) return message;
    }
    return undefined;
  }
  return reply.text ? JSON.parse(reply.text) : undefined;
}

export class HttpSession {
  constructor(url) {
    this.url = new URL(url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.nextId = 1;
    this.sessionId = undefined;
    this.version = undefined;
    this.headers = undefined;
    /** Whether an answer must say `resultType: "complete"` (2026-07-28). */
    this.wantsResultType = false;
  }

  async initialize() {
    const id = this.nextId++;
    const init = { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: ASKED_VERSION, capabilities: {}, clientInfo: { name: "bench-loadgen", version: "1.0.0" } } };
    const reply = await post(this, { "content-type": "application/json", accept: ACCEPT }, JSON.stringify(init));
    const answer = reply.status === 200 ? answerFor(reply, id) : undefined;
    if (!answer?.result || typeof reply.sessionId !== "string") {
      throw new Error(`initialize at ${this.url.href} failed: ${reply.status} ${reply.text.slice(0, 300)} (session header: ${reply.sessionId})`);
    }
    this.sessionId = reply.sessionId;
    this.version = answer.result.protocolVersion;
    this.headers = { "content-type": "application/json", accept: ACCEPT, "mcp-session-id": this.sessionId, "mcp-protocol-version": this.version };
    this.setCallBody(CALL_PARAMS);
    const initialized = await post(this, this.headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    if (initialized.status !== 202 && initialized.status !== 200) {
      throw new Error(`notifications/initialized at ${this.url.href} answered ${initialized.status} ${initialized.text.slice(0, 300)}`);
    }
    return this;
  }

  /** Prepares the text of every tools/call body but its id, once per session. */
  setCallBody(params) {
    this.bodyTail = `,"method":"tools/call","params":${JSON.stringify(params)}}`;
  }

  /** One tools/call; resolves when the whole answer is read and checked. */
  async call() {
    const id = this.nextId++;
    const reply = await post(this, this.headers, `{"jsonrpc":"2.0","id":${id}${this.bodyTail}`);
    if (reply.status === 200 && quickAnswerOk(reply.text, id, this.wantsResultType)) return;
    const answer = reply.status === 200 ? answerFor(reply, id) : undefined;
    if (answer?.result?.content?.[0]?.text !== "ok" || answer.result.isError || (this.wantsResultType && answer.result.resultType !== "complete")) {
      throw new Error(`tools/call${this.wantsResultType ? " (2026-07-28)" : ""} at ${this.url.href} answered ${reply.status} ${reply.type}: ${reply.text.slice(0, 300)}`);
    }
  }

  close() {
    this.agent.destroy();
  }
}

export const MODERN_VERSION = "2026-07-28";
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "bench-loadgen", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 client on one keep-alive connection: nothing to open, every call stands alone. */
export class ModernHttpSession extends HttpSession {
  async initialize() {
    this.version = MODERN_VERSION;
    this.headers = { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": MODERN_VERSION, "mcp-method": "tools/call", "mcp-name": CALL_PARAMS.name };
    this.wantsResultType = true;
    this.setCallBody({ ...CALL_PARAMS, _meta: MODERN_META });
    return this;
  }
}

/** Opens `count` sessions (initialized) against `url`; `era` "modern" makes 2026-07-28 ones. */
export async function openSessions(url, count, era = "legacy") {
  const sessions = [];
  for (let i = 0; i < count; i++) sessions.push(await (era === "modern" ? new ModernHttpSession(url) : new HttpSession(url)).initialize());
  return sessions;
}

/**
 * Every session calls in a loop, one call in flight each, until `count` calls in all were issued
 * or `ms` passed. Returns the calls, the seconds, and the latencies (µs, ascending).
 */
export async function runLoad(sessions, { count, ms }) {
  const latencies = new Float64Array(count);
  let issued = 0;
  let done = 0;
  const deadline = performance.now() + ms;
  const t0 = performance.now();
  async function worker(session) {
    while (issued < count && performance.now() < deadline) {
      issued++;
      const start = performance.now();
      await session.call();
      latencies[done++] = (performance.now() - start) * 1000;
    }
  }
  await Promise.all(sessions.map(worker));
  const seconds = (performance.now() - t0) / 1000;
  return { calls: done, seconds, latenciesUs: latencies.subarray(0, done).sort() };
}

// ---------------------------------------------------------------- as a script
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
  const url = args.get("url");
  if (!url) {
    console.error("usage: node bench/lib/loadgen.js --url=http://127.0.0.1:PORT/mcp [--concurrency=32] [--seconds=5] [--count=N] [--era=legacy|modern]");
    process.exit(2);
  }
  const concurrency = Number(args.get("concurrency") ?? 32);
  const seconds = Math.min(Number(args.get("seconds") ?? 5), 60);
  const sessions = await openSessions(url, concurrency, args.get("era") ?? "legacy");
  const run = await runLoad(sessions, { count: Number(args.get("count") ?? 1_000_000), ms: seconds * 1000 });
  for (const session of sessions) session.close();
  const p = (q) => run.latenciesUs[Math.min(run.calls - 1, Math.ceil(q * run.calls) - 1)];
  console.log(
    `loadgen: ${run.calls} calls in ${run.seconds.toFixed(2)} s = ${(run.calls / run.seconds).toFixed(0)}/s at concurrency ${concurrency}, p50 ${p(0.5).toFixed(0)} µs, p99 ${p(0.99).toFixed(0)} µs`,
  );
}
