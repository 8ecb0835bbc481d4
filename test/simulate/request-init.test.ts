/**
 * `sim.startRequest({ method, url, headers, body })`: a request as plain parts, no `Request`
 * built. It goes through the same handling and reports exactly what the same request as a
 * `Request` reports — head, body, items, completion, the recorder's records and the observers —
 * through a mock and through an SDK server; it is checked as `new Request` checks its init; and,
 * unlike a `Headers`, a list of pairs keeps a repeated header apart, as a socket does.
 */
import { describe, expect, it } from "vitest";
import { McpTestkitError, type Simulation, type SimulationRequestInit, type Simulator } from "../../src/index.js";
import { drain, INITIALIZE, memoryMock, modernMeta, openSession, ORIGIN, sdkV2Server, simulator, text, useCleanup } from "./support.js";
import { recordingObserver } from "../observe/support.js";

useCleanup();

const JSON_POST = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** The same POST as plain parts and as a `Request`. */
function bothForms(body: unknown, headers: Record<string, string> = {}): { init: SimulationRequestInit; request: Request } {
  const init = { method: "POST", url: `${ORIGIN}/mcp`, headers: { ...JSON_POST, ...headers }, body: JSON.stringify(body) };
  return { init, request: new Request(init.url, init) };
}

/** Something shaped like a `Headers` (its own forEach, no own keys) that is not this realm's `Headers`. */
function foreignHeaders(record: Record<string, string>): Headers {
  const entries = Object.entries(record);
  const foreign = Object.create({ forEach: (each: (value: string, name: string) => void) => entries.forEach(([name, value]) => each(value, name)) }) as Headers;
  expect(foreign instanceof Headers).toBe(false);
  return foreign;
}

/** What a simulation reported, with the session id (random per mock) replaced. */
async function report(simulation: Simulation, sessionId?: string) {
  const head = await simulation.awaitResponse(2000);
  const items = head?.bodyType === "sse" ? await drain(simulation) : [];
  const completion = await simulation.awaitCompletion(2000);
  const same = (value: unknown) => (sessionId === undefined ? value : JSON.parse(JSON.stringify(value).replaceAll(sessionId, "<session>")));
  return same({
    status: head?.status,
    headers: head?.headers,
    bodyType: head?.bodyType,
    body: head?.body === undefined ? undefined : text(head.body),
    json: head?.json,
    items: items.map((item) => ({ kind: item.kind, encoded: text(item.encoded) })),
    completion: { reason: completion?.reason, terminalMessage: completion?.terminalMessage, errors: completion?.errors.length },
  });
}

/** A session's traffic through `sim`, each request built by `form`: initialize, initialized, two calls (one streamed), one refused. */
async function session(sim: Simulator, form: "init" | "request") {
  const pick = (parts: ReturnType<typeof bothForms>) => (form === "init" ? parts.init : parts.request);
  const opened = await sim.startRequest(pick(bothForms(INITIALIZE)));
  const sessionId = (await opened.awaitResponse(2000))!.header("mcp-session-id")!;
  const reports = [await report(opened, sessionId)];
  const onSession = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  reports.push(await report(await sim.startRequest(pick(bothForms({ jsonrpc: "2.0", method: "notifications/initialized" }, onSession))), sessionId));
  reports.push(await report(await sim.startRequest(pick(bothForms({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ok", arguments: {} } }, onSession))), sessionId));
  reports.push(
    await report(
      await sim.startRequest(pick(bothForms({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "busy", arguments: {}, _meta: { progressToken: "p" } } }, onSession))),
      sessionId,
    ),
  );
  reports.push(await report(await sim.startRequest(pick(bothForms({ jsonrpc: "2.0", id: 4, method: "tools/list" }, { "mcp-session-id": "nope" }))), sessionId));
  return reports;
}

const TOOLS = {
  ok: { returns: "fine" },
  busy: (call: { progress(progress: number, total?: number): void }) => (call.progress(1, 2), { returns: "done" }),
};

describe("a plain init object", () => {
  it("reports exactly what the same requests as Requests report through a mock: heads, bodies, items, completions, records, observers", async () => {
    const runs = [];
    for (const form of ["request", "init"] as const) {
      const observer = recordingObserver();
      const server = await memoryMock({ tools: TOOLS });
      const sim = simulator(server, { observers: [observer] });
      const reports = await session(sim, form);
      await observer.finished(3); // the refused request was never admitted
      const records = sim.recorder.messages.map((record) => ({
        direction: record.direction,
        method: record.method,
        content: record.content,
        problems: "problems" in record ? record.problems : undefined,
      }));
      runs.push({ reports, records: JSON.parse(JSON.stringify(records).replace(/[0-9a-f]{32}/g, "<session>")), observed: observer.lines, calls: server.calls.map((call) => call.tool) });
    }
    const [asRequests, asInits] = runs;
    expect(asInits).toEqual(asRequests);
    // And what they reported is the real handling, not two empty runs agreeing.
    expect(asInits!.reports.map((one: { status: number }) => one.status)).toEqual([200, 202, 200, 200, 404]);
    expect(asInits!.reports[3].bodyType).toBe("sse");
    expect(asInits!.calls).toEqual(["ok", "busy"]);
    expect(asInits!.records.length).toBeGreaterThanOrEqual(8);
  });

  it("reports what a Request reports through an SDK v2 server (fetch handler): a 2026-07-28 call", async () => {
    const body = { jsonrpc: "2.0", id: "m-1", method: "tools/call", params: { _meta: modernMeta({ progressToken: "p" }), name: "catalog.search", arguments: { query: "shoe" } } };
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "catalog.search" };
    const reports = [];
    for (const form of ["request", "init"] as const) {
      const sim = simulator(sdkV2Server());
      const parts = bothForms(body, headers);
      reports.push(await report(await sim.startRequest(form === "init" ? parts.init : parts.request)));
    }
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[1]).toMatchObject({ status: 200, completion: { reason: "completed", terminalMessage: { id: "m-1", result: { content: [{ text: "3 results for shoe" }] } } } });
  });

  it("takes headers as a record in any case, as [name, value] pairs or as Headers; the method in any case; bytes as the body", async () => {
    const server = await memoryMock({ tools: TOOLS });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const forms: SimulationRequestInit[] = [
      { method: "post", url: `${ORIGIN}/mcp`, headers: { "Content-Type": "application/json", ACCEPT: "application/json, text/event-stream", "Mcp-Session-Id": sessionId }, body: ping },
      {
        method: "POST",
        url: new URL(`${ORIGIN}/mcp`),
        headers: [
          ["content-type", "application/json"],
          ["accept", "application/json, text/event-stream"],
          ["mcp-session-id", sessionId],
        ],
        body: new TextEncoder().encode(ping),
      },
      { method: "POST", url: `${ORIGIN}/mcp`, headers: new Headers({ ...JSON_POST, "mcp-session-id": sessionId }), body: ping },
      // A Headers of another realm or another copy of undici fails `instanceof Headers`: it is read by its forEach.
      { method: "POST", url: `${ORIGIN}/mcp`, headers: foreignHeaders({ ...JSON_POST, "mcp-session-id": sessionId }), body: ping },
    ];
    for (const form of forms) {
      const response = await (await sim.startRequest(form)).awaitResponse(2000);
      expect(response).toMatchObject({ status: 200, json: { jsonrpc: "2.0", id: 1, result: {} } });
    }
    // The default method is GET, as fetch's: a GET without a session is refused by the endpoint itself.
    const get = await (await sim.startRequest({ url: `${ORIGIN}/mcp`, headers: { accept: "text/event-stream" } })).awaitResponse(2000);
    expect(get?.status).toBe(400);
    expect(get?.json).toMatchObject({ error: { message: expect.stringMatching(/Mcp-Session-Id header is required/) } });
  });

  it("keeps a repeated header apart, as on a socket: two X-Test-Id values are refused (a Request would join them)", async () => {
    const server = await memoryMock({ tools: TOOLS });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const pairs: Array<[string, string]> = [...Object.entries(JSON_POST), ["mcp-session-id", sessionId], ["x-test-id", "a"], ["x-test-id", "b"]];
    const repeated = await (await sim.startRequest({ method: "POST", url: `${ORIGIN}/mcp`, headers: pairs, body: ping })).awaitResponse(2000);
    expect(repeated?.status).toBe(400);
    expect(JSON.stringify(repeated?.json)).toMatch(/Duplicate X-Test-Id header: 2 values sent/);
    const joined = await (await sim.startRequest(new Request(`${ORIGIN}/mcp`, { method: "POST", headers: pairs, body: ping }))).awaitResponse(2000);
    expect(joined?.status).toBe(200); // "a, b": one value to a Headers
  });

  it("a repeated MCP-Protocol-Version reads joined for the mock and the recorder alike: refused, and recorded as the header problem", async () => {
    const sim = simulator(await memoryMock({ tools: TOOLS }));
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ok", arguments: {}, _meta: modernMeta() } };
    const pairs: Array<[string, string]> = [
      ...Object.entries(JSON_POST),
      ["mcp-method", "tools/call"],
      ["mcp-name", "ok"],
      ["mcp-protocol-version", "2026-07-28"],
      ["mcp-protocol-version", "2025-11-25"],
    ];
    const refused = await (await sim.startRequest({ method: "POST", url: `${ORIGIN}/mcp`, headers: pairs, body: JSON.stringify(call) })).awaitResponse(2000);
    expect(refused?.status).toBe(400);
    expect(JSON.stringify(refused?.json)).toMatch(/MCP-Protocol-Version header value \\"2026-07-28, 2025-11-25\\" does not match/);
    const [sent] = sim.recorder.messages;
    const problems = sent && "problems" in sent ? sent.problems : undefined;
    expect(problems?.map((problem) => problem.path)).toEqual(["headers.mcp-protocol-version"]);
  });

  it("is checked as new Request checks its init, with errors that say what to change", async () => {
    const sim = simulator(await memoryMock());
    const sessionId = await openSession(sim);
    const url = `${ORIGIN}/mcp`;
    const refusals: Array<[unknown, RegExp]> = [
      [{ method: "POST", url: "/mcp", body: "{}" }, /"url" must be an absolute URL such as "http:\/\/127\.0\.0\.1:8082\/mcp"/],
      [{ method: "POST", body: "{}" }, /"url" must be an absolute URL.*got none/],
      [{ url, body: "{}" }, /a GET request cannot have a body.*method "POST"/],
      [{ method: "HEAD", url, body: "{}" }, /a HEAD request cannot have a body/],
      [{ method: "PO ST", url }, /"method" must be an HTTP method such as "POST"; got "PO ST"/],
      [{ method: "trace", url }, /TRACE is a forbidden method/],
      [{ method: "POST", url: "http://user:secret@127.0.0.1/mcp" }, /includes credentials.*Authorization header/],
      [{ method: "POST", url, headers: { "bad name": "x" } }, /"bad name" is not a valid header name/],
      [{ method: "POST", url, headers: { accept: "a\r\nx-evil: 1" } }, /the header "accept" has a value with a NUL, CR or LF/],
      [{ method: "POST", url, headers: { accept: 1 } }, /the header "accept" must have a string value; got number/],
      [{ method: "POST", url, headers: [["accept"]] }, /\[name, value\] pairs; got \["accept"\]/],
      [{ method: "POST", url, headers: "accept: x" }, /"headers" must be an object of name → value/],
      [{ method: "POST", url, body: { jsonrpc: "2.0" } }, /"body" must be a string \(JSON\.stringify\(message\)\) or a Uint8Array; got object/],
      [null, /pass a web-standard Request or \{ method, url, headers, body \}; got null/],
    ];
    for (const [init, message] of refusals) {
      const refused = sim.startRequest(init as SimulationRequestInit);
      await expect(refused).rejects.toBeInstanceOf(McpTestkitError);
      await expect(refused).rejects.toThrow(message);
    }
    // Values lose the whitespace at their ends, as in a Headers.
    const trimmed = await sim.startRequest({
      method: "POST",
      url,
      headers: { "content-type": " application/json ", accept: "\tapplication/json, text/event-stream ", "mcp-session-id": ` ${sessionId}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect((await trimmed.awaitResponse(2000))?.status).toBe(200);
  });
});
