/**
 * Fuzzing the Streamable HTTP endpoint with raw requests over loopback: hostile headers, bodies
 * and batches. Every answer comes in bounded time with a status the transport allows, a JSON-RPC
 * body that says what was wrong, 400 (never 200) for input the server cannot accept, one batch
 * entry per member that needs one, and the official SDK client is still served afterwards.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { ErrorCode } from "../../src/protocol/index.js";
import { hostileMessage, hostileText, PROTOTYPE_NAMES, wellFormedRequest } from "./arbitraries.js";
import { ANSWER_BOUND_MS } from "./bounds.js";
import { budget, testTimeout } from "./budget.js";
import { messagesOf, rawRequest, type RawAnswer } from "./raw-http.js";
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
  const initialized = await fetch(server.url, { method: "POST", headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": version }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
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
    expect(isObject(message) && message.jsonrpc === "2.0" && ("result" in message) !== ("error" in message), JSON.stringify(message)).toBe(true);
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
  it.prop([hostileHeaders, hostileBody, fc.constantFrom("POST", "POST", "POST", "POST", "PUT", "PATCH", "OPTIONS")], budget(200, 8))(
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
