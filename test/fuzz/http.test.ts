/**
 * Fuzzing the Streamable HTTP endpoint with raw requests over loopback: hostile headers, bodies
 * and batches. Every answer comes in bounded time with a status the transport allows, a JSON-RPC
 * body that says what was wrong, 400 (never 200) for input the server cannot accept, one batch
 * entry per member that needs one, and the official SDK client is still served afterwards. And
 * the router's guard, on every path the mock's port serves: a foreign Host, a foreign Origin or
 * an absolute-form target naming a foreign authority is 403, a target with a fragment or an
 * authority that is not host[:port] is 400, and nothing the mock holds changes; any method from
 * loopback, CONNECT and TRACE included, is answered and never with a 500.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mockMcp, type McpFakeBlock, type MockMcpServer } from "../../src/index.js";
import { ErrorCode } from "../../src/protocol/index.js";
import { hostileMessage, hostileText, PROTOTYPE_NAMES, wellFormedRequest } from "./arbitraries.js";
import { ANSWER_BOUND_MS } from "./bounds.js";
import { budget, testTimeout } from "./budget.js";
import { messagesOf, rawRequest, socketRequest, type RawAnswer } from "./raw-http.js";
import { fuzzScenario, RECORD_LIMIT } from "./scenario.js";

const ALLOWED_STATUSES = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415]);

let server: MockMcpServer & { url: string };
/** Sessions opened before the run: one per era of batches (2025-03-26 allows them, 2025-11-25 does not). */
const sessions: Record<"modern" | "batching", { id: string; version: string }> = {} as never;

async function openSession(version: string): Promise<{ id: string; version: string }> {
  const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "fuzz", version: "0" } } };
  const answer = await fetch(server.url, { method: "POST", headers, body: JSON.stringify(init) });
  const id = answer.headers.get("mcp-session-id");
  await answer.text();
  if (answer.status !== 200 || id === null) throw new Error(`initialize answered ${answer.status}`);
  const initialized = await fetch(server.url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": version },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  return { id, version };
}

beforeAll(async () => {
  server = (await mockMcp({ ...fuzzScenario(), transport: "http" })) as MockMcpServer & { url: string };
  sessions.modern = await openSession("2025-11-25");
  sessions.batching = await openSession("2025-03-26");
});

afterAll(async () => {
  await server?.close();
});

/** Header values node will send (no control characters), hostile in what they say. */
const headerValue = fc.string({ maxLength: 30 }).map((text) => text.replace(/[^\x20-\x7e]/g, "x"));

const hostileHeaders = fc.record({
  accept: fc.oneof({ weight: 8, arbitrary: fc.constant("application/json, text/event-stream") }, fc.constantFrom("application/json", "*/*", "text/event-stream"), headerValue),
  contentType: fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, fc.constantFrom("APPLICATION/JSON; charset=utf-8", "text/plain", "application/jsonx"), headerValue),
  session: fc.oneof({ weight: 6, arbitrary: fc.constantFrom<"modern" | "batching">("modern", "batching") }, fc.constant(undefined), headerValue),
  version: fc.oneof({ weight: 6, arbitrary: fc.constant("session") }, fc.constant(undefined), fc.constantFrom("2025-03-26", "2025-11-25", "2024-11-05", "1999-01-01"), headerValue),
  extra: fc.dictionary(fc.constantFrom(...PROTOTYPE_NAMES.filter((name) => name !== "__proto__"), "x-hostile", "last-event-id"), headerValue, { maxKeys: 3 }),
  origin: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, fc.constantFrom("http://localhost:1", "http://evil.example", "null"), headerValue),
});

type HostileHeaders = typeof hostileHeaders extends fc.Arbitrary<infer T> ? T : never;

function headersFrom(choice: HostileHeaders): { headers: Record<string, string>; session?: { id: string; version: string } } {
  const headers: Record<string, string> = { ...choice.extra, accept: choice.accept, "content-type": choice.contentType };
  const session = choice.session === "modern" || choice.session === "batching" ? sessions[choice.session] : undefined;
  if (session) headers["mcp-session-id"] = session.id;
  else if (choice.session !== undefined) headers["mcp-session-id"] = choice.session;
  if (choice.version === "session") headers["mcp-protocol-version"] = session?.version ?? "2025-11-25";
  else if (choice.version !== undefined) headers["mcp-protocol-version"] = choice.version;
  if (choice.origin !== undefined) headers.origin = choice.origin;
  return { headers, session };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether JSON-RPC 2.0 answers this batch member: everything but a well-formed notification and a response. */
function needsAnswer(member: unknown): boolean {
  if (!isObject(member) || member.jsonrpc !== "2.0") return true;
  if (!("method" in member)) return !("result" in member || "error" in member);
  if (typeof member.method !== "string" || (member.params !== undefined && !isObject(member.params))) return true;
  return member.id !== undefined;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The checks every answer passes, whatever was sent (the entry count of a batch answer only when `batchEntries`). */
function expectLawfulAnswer(answer: RawAnswer, sentText: string, { batchEntries = false } = {}): void {
  expect(ALLOWED_STATUSES.has(answer.status), `status ${answer.status}`).toBe(true);
  if (answer.status === 202) return expect(answer.body).toBe("");
  const messages = messagesOf(answer);
  for (const message of messages) {
    expect(isObject(message) && message.jsonrpc === "2.0" && "result" in message !== "error" in message, JSON.stringify(message)).toBe(true);
  }
  if (answer.status >= 400) {
    expect(answer.contentType).toBe("application/json");
    for (const message of messages) expect(isObject(message) && isObject(message.error) && typeof message.error.message === "string").toBe(true);
    return;
  }
  // 200: every error in it is about one request's params or method, never about input the server could not accept.
  const sent = parseOrUndefined(sentText);
  if (!Array.isArray(sent)) {
    const [only] = messages as Array<{ error?: { code: number; message: string } }>;
    expect(only?.error?.code === ErrorCode.InvalidRequest || only?.error?.code === ErrorCode.ParseError, `HTTP 200 for input the server could not accept: ${answer.body.slice(0, 200)}`).toBe(false);
  } else if (batchEntries) {
    expect(messages.length, `batch ${sentText.slice(0, 200)} answered ${answer.body.slice(0, 200)}`).toBe(sent.filter(needsAnswer).length);
  }
}

/** A POST body: a hostile message or text, a batch, or a well-formed request. */
const hostileBody = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 2, arbitrary: fc.array(fc.oneof(hostileMessage, wellFormedRequest), { minLength: 1, maxLength: 5 }).map((batch) => JSON.stringify(batch)) },
  { weight: 2, arbitrary: wellFormedRequest.map((request) => JSON.stringify(request)) },
);

describe("fuzz: the Streamable HTTP endpoint", () => {
  it.prop([hostileHeaders, hostileBody, fc.constantFrom("POST", "POST", "POST", "POST", "PUT", "PATCH", "OPTIONS", "TRACE", "PROPFIND")], budget(200, 8))(
    "a hostile request gets, in bounded time, a status the transport allows and a JSON-RPC body; input the server cannot accept is never 200",
    async (choice, body, method) => {
      const { headers } = headersFrom(choice);
      const answer = await rawRequest(server.url, { method, headers, body }, ANSWER_BOUND_MS * 2);
      expectLawfulAnswer(answer, body);
    },
    testTimeout(8),
  );

  it.prop([fc.array(fc.oneof(hostileMessage, wellFormedRequest), { minLength: 1, maxLength: 6 })], budget(100, 4))(
    "a 2025-03-26 batch gets one answer entry for each member that needs one",
    async (batch) => {
      const session = sessions.batching;
      const body = JSON.stringify(batch);
      const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-session-id": session.id, "mcp-protocol-version": session.version };
      const answer = await rawRequest(server.url, { method: "POST", headers, body }, ANSWER_BOUND_MS * 2);
      expectLawfulAnswer(answer, body, { batchEntries: true });
    },
    testTimeout(4),
  );

  it("afterwards the record is bounded and the official SDK client is served as usual", async () => {
    expect(server.messages.length).toBeLessThanOrEqual(RECORD_LIMIT);
    expect(server.calls.length).toBeLessThanOrEqual(RECORD_LIMIT);
    const client = new Client({ name: "after-fuzz", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const result = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
      expect(result.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);
    } finally {
      await client.close();
    }
  });
});

describe("fuzz: the router's guard, in front of every route", () => {
  let guarded: MockMcpServer & { url: string };
  let port: number;
  /** Every path the port serves, read from the mock itself, so a route mounted later is attacked too. */
  let routes: string[];
  const hookHits: string[] = [];

  beforeAll(async () => {
    const fakes: McpFakeBlock[] = [
      { scope: "shared", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "pong" }] }] },
      { scope: "shared", mount: "/other", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "other" }] }] },
    ];
    guarded = (await mockMcp({ ...fuzzScenario(), transport: "http", fixtures: fakes, metrics: true })) as MockMcpServer & { url: string };
    guarded.mount("/hook", (request) => (hookHits.push(request.url), new Response("hooked")));
    port = Number(new URL(guarded.url).port);
    routes = guarded.mountedPaths;
  });

  afterAll(async () => {
    await guarded?.close();
  });

  /** What a request that got through could read or change. */
  const state = () => JSON.stringify({ fakes: guarded.fakes.inspect(), journal: guarded.fakes.journal.size, messages: guarded.messages.length, calls: guarded.calls.length, hook: hookHits.length });

  /** A path under a mount: the route itself, or under a prefix mount one of its real routes or any segment. */
  const pathOf = (route: string, under: string) => (route.endsWith("/*") ? `${route.slice(0, -1)}${under}` : route);
  const underPrefix = fc.oneof(fc.constantFrom("journal", "fakes", "mcp/fakes", "health", "fixtures", "reset", "metrics"), fc.stringMatching(/^[a-z0-9._~-]{0,12}$/));
  const query = fc.oneof({ weight: 3, arbitrary: fc.constant("") }, fc.constantFrom("?testId=a", "?limit=1", "?x=%23"));

  /** Hosts that are not loopback names, some of them dressed as one. */
  const foreignHost = fc.oneof(
    fc.domain(),
    fc.ipV4().filter((ip) => ip !== "127.0.0.1"),
    fc.constantFrom("evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "127.0.0.2", "0.0.0.0", "[::2]", "[::ffff:127.0.0.1]", "LOCALHOST.example"),
  );
  /** Hosts that are not host[:port] at all: user info, a port past 65535, a path or query. */
  const malformedAuthority = fc.oneof(
    fc.tuple(fc.constantFrom("127.0.0.1", "localhost", "[::1]"), fc.constantFrom("@evil.example", ":1@evil.example")).map(([host, tail]) => `${host}${tail}`),
    fc.integer({ min: 65536, max: 999_999 }).map((p) => `localhost:${p}`),
  );
  /** In a Host header a path, a query or a backslash is malformed too (in a target node refuses a backslash itself, or it starts the path). */
  const malformedHost = fc.oneof(malformedAuthority, fc.constantFrom("127.0.0.1/mcp", "localhost?x=1", "127.0.0.1\\evil"));
  const withPort = fc.tuple(foreignHost, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([host, p]) => (p === undefined ? host : `${host}:${p}`));

  /** One attack: the request's target and headers, and the status the guard owes it. */
  const attack = fc.oneof(
    withPort.map((host) => ({ kind: "foreign Host", absolute: undefined, fragment: undefined, host, origin: undefined, status: 403 })),
    fc
      .tuple(fc.constantFrom("http", "https"), withPort)
      .map(([scheme, host]) => ({ kind: "foreign Origin", absolute: undefined, fragment: undefined, host: undefined, origin: `${scheme}://${host.replace(/^.*@/, "")}`, status: 403 })),
    fc.constantFrom("null", "not an origin").map((origin) => ({ kind: "foreign Origin", absolute: undefined, fragment: undefined, host: undefined, origin, status: 403 })),
    fc
      .tuple(fc.constantFrom("http", "HTTP", "https"), withPort)
      .map(([scheme, host]) => ({ kind: "absolute-form", absolute: `${scheme}://${host}`, fragment: undefined, host: undefined, origin: undefined, status: 403 })),
    malformedHost.map((host) => ({ kind: "malformed Host", absolute: undefined, fragment: undefined, host, origin: undefined, status: 400 })),
    fc
      .tuple(fc.constantFrom("http", "https"), malformedAuthority)
      .map(([scheme, host]) => ({ kind: "malformed absolute-form", absolute: `${scheme}://${host}`, fragment: undefined, host: undefined, origin: undefined, status: 400 })),
    fc
      .tuple(fc.stringMatching(/^[a-zA-Z0-9_-]{0,8}$/), fc.option(withPort, { nil: undefined }))
      .map(([fragment, host]) => ({ kind: "fragment", absolute: undefined, fragment, host, origin: undefined, status: 400 })),
  );

  /** Bodies that would change the mock if they got through: add fakes, reset, open a session. */
  const stateChanging = fc.constantFrom(
    JSON.stringify({ mcpFakes: { scope: "shared", tools: [{ name: "planted", calls: [{ anyArgs: true, result: "evil" }] }] } }),
    JSON.stringify({ testId: "a" }),
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "rebound", version: "0" } } }),
  );

  it.prop([fc.nat(), underPrefix, query, attack, fc.constantFrom("GET", "POST", "POST", "DELETE", "PUT"), stateChanging], budget(150, 6))(
    "a foreign Host, a foreign Origin or a foreign absolute-form authority is 403 on every route, a fragment or a malformed authority 400, and nothing changes",
    async (pick, under, search, attempt, method, body) => {
      const path = `${pathOf(routes[pick % routes.length]!, under)}${search}`;
      const target = `${attempt.absolute ?? ""}${path}${attempt.fragment === undefined ? "" : `#${attempt.fragment}`}`;
      const headers: Record<string, string> = { host: attempt.host ?? `127.0.0.1:${port}`, accept: "application/json, text/event-stream", "content-type": "application/json" };
      if (attempt.origin !== undefined) headers.origin = attempt.origin;
      const before = state();
      const answer = await socketRequest(port, { method, target, headers, ...(method === "GET" ? {} : { body }) }, ANSWER_BOUND_MS * 2);
      expect(answer.status, `${attempt.kind}: ${method} ${target} ${JSON.stringify(headers)} → ${answer.body.slice(0, 200)}`).toBe(attempt.status);
      expect(JSON.parse(answer.body)).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: attempt.status === 400 ? expect.stringMatching(/^Bad Request: /) : expect.stringMatching(/^Forbidden: .*DNS rebinding protection/) },
      });
      expect(state()).toBe(before);
    },
    testTimeout(6),
  );

  it("every route was there to attack, and each still serves a loopback request", async () => {
    expect(routes).toEqual(expect.arrayContaining(["/mcp", "/other", "/hook", "/__mcp-testkit/metrics", "/__mcp-testkit/*", "/__aimock/*"]));
    expect(hookHits).toEqual([]);
    for (const target of ["/__mcp-testkit/health", "/__aimock/journal", "/__mcp-testkit/metrics", "/hook"]) {
      expect((await socketRequest(port, { method: "GET", target, headers: { host: `127.0.0.1:${port}` } }, ANSWER_BOUND_MS * 2)).status, target).toBe(200);
    }
  });

  /** Methods node's parser passes on, the ones no web `Request` can carry (CONNECT, TRACE) among them. */
  const anyMethod = fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "MKCOL", "QUERY");

  it.prop([fc.nat(), underPrefix, query, anyMethod, stateChanging], budget(150, 6))(
    "any method on any route from loopback is answered, in bounded time, and never with a 500; CONNECT and TRACE are 501 or 405 and change nothing",
    async (pick, under, search, method, body) => {
      const target = `${pathOf(routes[pick % routes.length]!, under)}${search}`;
      // The live timeline's events are a stream that stays open by design: its GET has no end to wait for (test/view covers it).
      if ((method === "GET" || method === "QUERY") && target.split("?")[0] === "/__mcp-testkit/ui/events") return;
      const headers = { host: `127.0.0.1:${port}`, accept: "application/json, text/event-stream", "content-type": "application/json" };
      const before = state();
      const answer = await socketRequest(port, { method, target, headers, ...(method === "GET" ? {} : { body }) }, ANSWER_BOUND_MS * 2);
      const seen = `${method} ${target} → ${answer.status} ${answer.body.slice(0, 200)}`;
      expect(answer.status, seen).not.toBe(500);
      if (method === "CONNECT" || method === "TRACE") {
        expect([405, 501], seen).toContain(answer.status);
        expect(answer.contentType, seen).toBe("application/json");
        expect(state(), seen).toBe(before);
      }
    },
    testTimeout(6),
  );
});
