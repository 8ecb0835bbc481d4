/**
 * `mcp-testkit view`: a trace, a HAR and a call record become one self-contained page
 * (--out), or a page served on loopback behind the Host/Origin guard; every bad input gets a
 * message saying what was expected. `mcp-testkit mock` prints its live timeline's URL.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { bigTrace, traceText } from "../view/traces.js";
import { EXAMPLES, runCli, scratchFile, startCli, useCli, waitForLine } from "./support.js";

useCli();

/** The JSON the page carries, as the page reads it. */
function pageData(html: string): { entries: { message?: { method?: string } }[]; kind: string; notes?: string[] } {
  const json = /<script type="application\/json" id="timeline-data">(.*?)<\/script>/s.exec(html)?.[1];
  if (json === undefined) throw new Error("no timeline data in the page");
  return JSON.parse(json);
}

/** A HAR as browser devtools save it: an initialize answered with JSON, a call answered on an SSE stream. */
function devtoolsHar(): string {
  const headers = (pairs: Record<string, string>) => Object.entries(pairs).map(([name, value]) => ({ name, value }));
  const entry = (started: string, time: number, body: unknown, response: { mimeType: string; text: string; headers: Record<string, string> }) => ({
    startedDateTime: started,
    time,
    request: {
      method: "POST",
      url: "http://127.0.0.1:3000/mcp",
      httpVersion: "HTTP/1.1",
      headers: headers({ "content-type": "application/json", authorization: "Bearer secret-token-123", "mcp-session-id": "s-1", "x-test-id": "har > call" }),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      postData: { mimeType: "application/json", text: JSON.stringify(body) },
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: headers(response.headers),
      cookies: [],
      content: { size: response.text.length, mimeType: response.mimeType, text: response.text },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  });
  const sse = [
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1, total: 2 } },
    { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "21°C" }] } },
  ]
    .map((message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`)
    .join("");
  return JSON.stringify({
    log: {
      version: "1.2",
      creator: { name: "Chromium", version: "140" },
      entries: [
        entry(
          "2026-01-05T10:00:00.000Z",
          12,
          { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "a", version: "1" } } },
          {
            mimeType: "application/json",
            text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } }),
            headers: { "content-type": "application/json", "set-cookie": "sid=abc" },
          },
        ),
        entry(
          "2026-01-05T10:00:00.050Z",
          30,
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_weather", arguments: { city: "Paris" } } },
          { mimeType: "text/event-stream", text: sse, headers: { "content-type": "text/event-stream" } },
        ),
        { ...entry("2026-01-05T10:00:01.000Z", 5, {}, { mimeType: "text/html", text: "<html></html>", headers: {} }), request: { method: "GET", url: "http://127.0.0.1:3000/", headers: [] } },
      ],
    },
  });
}

describe("mcp-testkit view --out", () => {
  it("writes a trace as one page that loads nothing from a network", async () => {
    const trace = scratchFile("run.trace.jsonl", traceText(bigTrace(200)));
    const out = scratchFile("run.html");
    const result = await runCli(["view", trace, "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^mcp-testkit view: wrote 200 messages from the trace ".*run\.trace\.jsonl" to .*run\.html \(\d+ KB\)\n$/);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("Content-Security-Policy");
    expect(html).toMatch(/default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'/);
    // Nothing fetched: no element names a source or a stylesheet to load.
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    expect(pageData(html).entries).toHaveLength(200);
  });

  it("reads a HAR saved by browser devtools, redacting its credentials", async () => {
    const har = scratchFile("session.har", devtoolsHar());
    const out = scratchFile("har.html");
    const result = await runCli(["view", har, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote 5 messages from the har "');
    const html = readFileSync(out, "utf8");
    expect(html).not.toContain("secret-token-123");
    expect(html).not.toContain("sid=abc");
    const data = pageData(html);
    expect(data.entries.map((entry) => entry.message?.method)).toEqual(["initialize", undefined, "tools/call", "notifications/progress", undefined]);
    expect(data.notes).toEqual(["1 HTTP exchange in the HAR carried no JSON-RPC and is left out."]);
  });

  it("reads a mock's call record", async () => {
    await using server = await mockMcp({ transport: "memory", tools: { get_weather: [{ returns: { tempC: 21 } }, { toolError: "unknown city" }] } });
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(await server.connectInMemory());
    await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
    await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
    await client.close();
    const record = scratchFile("calls.json", JSON.stringify({ calls: server.calls, messages: server.messages }));
    const out = scratchFile("calls.html");
    const result = await runCli(["view", record, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote 4 messages from the record "');
    const data = pageData(readFileSync(out, "utf8"));
    expect(data.kind).toBe("record");
    expect(JSON.stringify(data.entries)).toContain("unknown city");
  });
});

describe("mcp-testkit view, served", () => {
  it("serves the page on 127.0.0.1 until stopped, refusing a foreign Host", async () => {
    const trace = scratchFile("served.trace.jsonl", traceText(bigTrace(20)));
    const child = startCli(["view", trace]);
    const [, url] = await waitForLine(child, "stdout", /at (http:\/\/127\.0\.0\.1:\d+\/)$/, 30_000);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="timeline-data"');
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url!, { headers: { host: "rebound.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(foreign).toBe(403);
    child.kill("SIGINT");
    await waitForLine(child, "stdout", /^mcp-testkit view: stopped \(SIGINT\)$/);
  });
});

describe("mcp-testkit view refuses what it cannot show", () => {
  const refusals: [string, string | undefined, RegExp][] = [
    ["a file that does not exist", undefined, /^mcp-testkit view: Cannot read ".*missing\.jsonl": ENOENT/],
    ["an empty file", "", /is empty; expected a trace \(JSON Lines/],
    ["text that is not JSON", "hello", /is neither JSON nor a trace: .*; expected a trace/],
    ["JSON of another kind", '{"tools": {}}', /is JSON of no kind the timeline reads \(an object with "tools"\); expected a trace/],
    ["a trace of a newer format", '{"type":"mcp-testkit-trace","version":99,"source":"mock","startedAt":0}\n', /format version 99; this mcp-testkit reads version 1 and older: update mcp-testkit/],
    [
      "a trace with a broken line",
      '{"type":"mcp-testkit-trace","version":1,"source":"mock","startedAt":0}\n{"nope":1}\n{"seq":2,"at":1,"from":"client","wire":"http"}\n',
      /line 2 is not a trace entry \(expected \{"seq", "at", "from"/,
    ],
  ];
  it.each(refusals)("%s", async (_what, content, message) => {
    const file = content === undefined ? scratchFile("missing.jsonl") : scratchFile(`input-${refusals.findIndex(([, c]) => c === content)}.json`, content);
    const result = await runCli(["view", file, "--out", scratchFile("never.html")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it("says which flags go together", async () => {
    const both = await runCli(["view", "a.jsonl", "--out", "a.html", "--port", "0"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--out writes a file and --port serves the page; give one of them");
    const none = await runCli(["view"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing the file to view");
    const port = await runCli(["view", "a.jsonl", "--port", "70000"]);
    expect(port.stderr).toContain('--port must be a whole number from 0 to 65535, got "70000"');
  });

  it("keeps a trace whose last line was cut off, and says so", async () => {
    const text = `${traceText(bigTrace(4)).trimEnd()}\n{"seq":5,"at":`;
    const out = scratchFile("cut.html");
    const result = await runCli(["view", scratchFile("cut.jsonl", text), "--out", out]);
    expect(result.code).toBe(0);
    expect(pageData(readFileSync(out, "utf8")).notes).toEqual(["The last line (6) was cut off, as when the writer stopped mid-line; it is left out."]);
  });
});

describe("mcp-testkit mock", () => {
  it("prints its live timeline's URL beside its own", async () => {
    const child = startCli(["mock", `${EXAMPLES}/issue-tracker.json`, "--port", "0"]);
    const [, url] = await waitForLine(child, "stdout", /^ {2}timeline: (http:\/\/127\.0\.0\.1:\d+\/__mcp-testkit\/ui)$/, 30_000);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});
