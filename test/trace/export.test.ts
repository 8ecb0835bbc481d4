/**
 * A trace's ways out and back in: HAR 1.2 (checked against the HAR structure, opened by browser
 * devtools) and OTLP JSON (checked against what OpenTelemetry's own JSON serializer writes for
 * the mock's spans), and both read back so that trace → HAR → trace keeps every message.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { mockMcp, openTelemetryObserver } from "../../src/index.js";
import { traceFromHar, traceFromOtlp, traceFromText, traceText, traceToHar, traceToOtlp, type Trace, type TraceEntry } from "../../src/trace/index.js";
import { HAR_1_2_SCHEMA } from "../support/har-schema.js";

const TOKEN = "s3cret-export-token-1a2b";

/** A real session over HTTP: a handshake, a call with progress and an elicitation, a failing call, a raw step's bytes, a dropped connection. */
async function recordedTraffic(): Promise<{ trace: Trace; spans: unknown }> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  await using mock = await mockMcp({
    trace: true,
    observers: [await openTelemetryObserver({ tracerProvider })],
    tools: {
      book: async (call) => {
        call.progress(1, 2);
        const answer = await call.elicit({ message: "Which day?", requestedSchema: { type: "object", properties: { day: { type: "string" } } } });
        return { returns: `booked ${JSON.stringify(answer.content)}` };
      },
      fail: { throws: { code: -32050, message: "upstream down" } },
      garble: { raw: "not json at all" },
    },
  });
  const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { day: "monday" } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, "X-Test-Id": "export > all" } } }));
  await client.callTool({ name: "book", arguments: {} }, undefined, { onprogress: () => undefined });
  await client.callTool({ name: "fail", arguments: {} }).catch(() => undefined);
  await client.callTool({ name: "garble", arguments: {} }).catch(() => undefined);
  await client.close();
  const trace = { header: mock.trace!.header, entries: mock.trace!.entries() };
  const spans = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
  return { trace, spans };
}

/** What must survive a round trip: who sent what, in which call, session and test. */
const essence = (entry: TraceEntry) => ({ from: entry.from, message: entry.message, raw: entry.raw, callId: entry.callId, sessionId: entry.sessionId, testId: entry.testId, fault: entry.fault });

describe("HAR 1.2", () => {
  it("is valid HAR, one entry per HTTP request, answers with their status, and comes back whole", async () => {
    const { trace } = await recordedTraffic();
    const har = JSON.parse(JSON.stringify(traceToHar(trace)));
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(HAR_1_2_SCHEMA);
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);

    const book = har.log.entries.find((entry: { request: { postData?: { text: string } } }) => entry.request.postData?.text.includes('"book"'));
    expect(book.request).toMatchObject({ method: "POST", url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) });
    expect(book.response.status).toBe(200);
    // The progress and the elicitation went on the call's stream: the response is that stream.
    expect(book.response.content.mimeType).toBe("text/event-stream");
    expect(book.response.content.text).toContain("notifications/progress");
    expect(book.response.content.text).toContain("elicitation/create");
    expect(JSON.stringify(har)).not.toContain(TOKEN);

    const back = traceFromHar(har);
    expect(back.entries.map(essence)).toEqual(trace.entries.map(essence));
    expect(back.entries.find((entry) => entry.raw !== undefined)).toMatchObject({ raw: "not json at all", fault: "raw" });
  });

  it("reads a HAR a browser saved: MCP requests only, SSE answers split into messages, credentials redacted", () => {
    const trace = traceFromHar(BROWSER_HAR);
    expect(trace.entries.map((entry) => `${entry.from} ${(entry.message as { method?: string; id?: number }).method ?? `answer to ${(entry.message as { id: number }).id}`}`)).toEqual([
      "client tools/call",
      "server notifications/progress",
      "server answer to 3",
    ]);
    expect(trace.entries[0]).toMatchObject({ wire: "http", sessionId: "sess-1", testId: "browser > case", protocolVersion: "2025-11-25", callId: 3, http: { method: "POST", path: "/mcp" } });
    expect(trace.entries[1]!.callId).toBe(3);
    expect(trace.entries[2]!.http).toMatchObject({ status: 200 });
    expect(trace.header).toMatchObject({ source: "import", target: "https://tools.example.com/mcp" });
    const text = JSON.stringify(trace);
    expect(text).not.toContain("browser-secret");
    expect(text).not.toContain("cookie-secret");
  });

  it("a trace with no HTTP messages is refused, naming the format that fits", async () => {
    await using mock = await mockMcp({ transport: "memory", trace: true, tools: { echo: { returns: "hi" } } });
    await mock.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}');
    expect(() => traceToHar({ header: mock.trace!.header, entries: mock.trace!.entries() })).toThrow(
      "no HTTP messages (wires: direct); HAR describes HTTP only. Export it as OTLP (--to otlp) instead.",
    );
  });

  it.each([
    [{}, 'is not a HAR document: expected { "log": { "version": "1.2", "entries": [...] } }'],
    [{ log: { entries: [{ request: {} }] } }, "log.entries[0] has no request and response objects"],
    [
      { log: { entries: [{ startedDateTime: "yesterday", request: { method: "POST" }, response: { status: 200 } }] } },
      'log.entries[0].startedDateTime is not a date (ISO 8601, as HAR 1.2 says), got "yesterday"',
    ],
  ])("a malformed HAR is refused saying where: %j", (har, message) => {
    expect(() => traceFromHar(har)).toThrow(message);
  });
});

describe("OTLP JSON", () => {
  it("has OpenTelemetry's own proto-JSON shape, and the mock observer's span names and attributes", async () => {
    const { trace, spans } = await recordedTraffic();
    const otlp = JSON.parse(JSON.stringify(traceToOtlp(trace)));
    const reference = (spans as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> }).resourceSpans[0]!.scopeSpans[0]!.spans;
    const ours = otlp.resourceSpans[0].scopeSpans[0].spans as Array<Record<string, unknown>>;

    // Shape: every field we write is one the serializer writes, of the same JSON type.
    for (const span of ours) {
      for (const [key, value] of Object.entries(span)) {
        expect(Object.keys(reference[0]!).concat("parentSpanId"), key).toContain(key);
        if (key in reference[0]!) expect(typeof value, key).toBe(typeof reference[0]![key]);
      }
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(String(span.startTimeUnixNano)).toMatch(/^\d{19}$/);
    }
    // Names and attributes: as the observer named the same requests.
    const named = (list: Array<Record<string, unknown>>, name: string) => list.find((span) => span.name === name)!;
    const attributesOf = (span: Record<string, unknown>) =>
      Object.fromEntries((span.attributes as Array<{ key: string; value: Record<string, unknown> }>).map(({ key, value }) => [key, Object.values(value)[0]]));
    for (const name of ["tools/call book", "tools/call fail", "initialize"]) {
      const mine = attributesOf(named(ours, name));
      const theirs = attributesOf(named(reference, name));
      for (const key of ["mcp.method.name", "mcp.protocol.version", "jsonrpc.request.id", "mcp.session.id", "gen_ai.tool.name", "error.type", "network.transport"]) {
        expect(String(mine[key]), `${name} ${key}`).toBe(String(theirs[key]));
      }
    }
    expect(named(ours, "tools/call fail").status).toEqual({ code: 2, message: "upstream down" });
    // The call's messages are its events, in order.
    const book = named(ours, "tools/call book");
    expect((book.events as Array<{ name: string }>).map((event) => event.name)).toEqual(["rpc.message", "rpc.message", "rpc.message", "rpc.message", "rpc.message"]);

    const back = traceFromOtlp(otlp);
    expect(back.entries.map(essence)).toEqual(trace.entries.map(essence));
  });

  it("reads spans from elsewhere as a request and its answer each", async () => {
    const { spans } = await recordedTraffic();
    const trace = traceFromOtlp(spans);
    const call = trace.entries.find((entry) => (entry.message as { params?: { name?: string } }).params?.name === "fail")!;
    expect(call).toMatchObject({ from: "client", message: { method: "tools/call" } });
    expect(trace.entries.find((entry) => entry.from === "server" && entry.callId === call.callId)!.message).toMatchObject({ error: { code: -32050, message: "upstream down" } });
  });

  it("refuses what is not OTLP traces", () => {
    expect(() => traceFromOtlp({ resourceMetrics: [] })).toThrow('is not OTLP JSON traces: expected { "resourceSpans": [{ "scopeSpans": [{ "spans": [...] }] }] }');
  });
});

describe("any file to a trace", () => {
  it("tells the format by the content, and converts between all three", async () => {
    const { trace } = await recordedTraffic();
    for (const format of ["trace", "har", "otlp"] as const) {
      const read = traceFromText(traceText(trace, format), "x");
      expect(read.format).toBe(format);
      expect(read.trace.entries.map(essence)).toEqual(trace.entries.map(essence));
    }
    expect(() => traceFromText("hello", "notes.txt")).toThrow("notes.txt is neither a trace");
    expect(() => traceFromText("[1,2]", "list.json")).toThrow("list.json is JSON but not a HAR");
  });
});

/** As Chrome saves one: HTTP/2 pseudo-headers, the real credentials, a request that is not MCP. */
const BROWSER_HAR = {
  log: {
    version: "1.2",
    creator: { name: "WebInspector", version: "537.36" },
    pages: [],
    entries: [
      {
        startedDateTime: "2026-12-07T10:00:00.000Z",
        time: 5,
        request: { method: "GET", url: "https://tools.example.com/favicon.ico", httpVersion: "h2", headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
        response: { status: 404, statusText: "", httpVersion: "h2", headers: [], cookies: [], content: { size: 0, mimeType: "text/html" }, redirectURL: "", headersSize: -1, bodySize: 0 },
        cache: {},
        timings: { send: 0, wait: 5, receive: 0 },
      },
      {
        startedDateTime: "2026-12-07T10:00:01.000Z",
        time: 40,
        request: {
          method: "POST",
          url: "https://tools.example.com/mcp?key=browser-secret",
          httpVersion: "h2",
          headers: [
            { name: ":authority", value: "tools.example.com" },
            { name: "authorization", value: "Bearer browser-secret" },
            { name: "cookie", value: "sid=cookie-secret" },
            { name: "mcp-session-id", value: "sess-1" },
            { name: "mcp-protocol-version", value: "2025-11-25" },
            { name: "x-test-id", value: "browser > case" },
          ],
          queryString: [{ name: "key", value: "browser-secret" }],
          cookies: [{ name: "sid", value: "cookie-secret" }],
          headersSize: -1,
          bodySize: 90,
          postData: { mimeType: "application/json", text: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"q":"x"},"_meta":{"progressToken":3}}}' },
        },
        response: {
          status: 200,
          statusText: "",
          httpVersion: "h2",
          headers: [{ name: "content-type", value: "text/event-stream" }],
          cookies: [],
          content: {
            size: 200,
            mimeType: "text/event-stream",
            encoding: "base64",
            text: Buffer.from(
              'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1}}\n\nevent: message\nid: 2\ndata: {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"found"}]}}\n\n',
            ).toString("base64"),
          },
          redirectURL: "",
          headersSize: -1,
          bodySize: 200,
        },
        cache: {},
        timings: { send: 0, wait: 30, receive: 10 },
      },
    ],
  },
};
