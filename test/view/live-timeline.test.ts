/**
 * A running mock's live timeline: the page at /__mcp-testkit/ui shows a call made after it was
 * opened (server-sent events, in Chromium), sits behind the mock's Host/Origin guard, and the
 * mock listens to its messages only while a page is connected.
 */
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventHub } from "../../src/engine/events.js";
import { mockMcp } from "../../src/index.js";
import { liveTimeline } from "../../src/view/live-timeline.js";
import { type Browser, launchBrowser, NO_CHROMIUM, seriousViolations } from "./browser.js";

async function connectedClient(url: string): Promise<Client> {
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A GET with the Host and Origin headers a browser on another site would send (fetch cannot set Host). */
function getWith(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the live timeline's routes", () => {
  it("are behind the mock's Host/Origin guard", async () => {
    await using server = await mockMcp({ tools: { ping: { returns: "pong" } } });
    const page = new URL("/__mcp-testkit/ui", server.url).href;
    const events = new URL("/__mcp-testkit/ui/events", server.url).href;
    const port = new URL(server.url).port;
    expect(await getWith(page, { host: `evil.example:${port}` })).toBe(403);
    expect(await getWith(page, { origin: "https://evil.example" })).toBe(403);
    expect(await getWith(events, { host: `evil.example:${port}` })).toBe(403);
    const ok = await fetch(page);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await ok.text()).toContain('"eventsPath":"ui/events"');
  });

  it("refuses what is not a GET, saying what it takes", async () => {
    await using server = await mockMcp({ tools: { ping: { returns: "pong" } } });
    const response = await fetch(new URL("/__mcp-testkit/ui", server.url), { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("listens to the mock's messages only while a page is connected", async () => {
    const events = new EventHub();
    const live = liveTimeline({ events, calls: () => [], url: () => "http://127.0.0.1:1/mcp" });
    expect(events.has("message")).toBe(false);
    const response = live.events(new Request("http://127.0.0.1:1/__mcp-testkit/ui/events"));
    expect(events.has("message")).toBe(true);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(": connected\n\n");
    events.emit("message", { direction: "in", message: { jsonrpc: "2.0", id: 1, method: "ping" }, sessionId: "s1", wire: "http", at: 1, protocolVersion: "2025-11-25" });
    const line = decoder.decode((await reader.read()).value);
    expect(JSON.parse(line.replace(/^data: /, ""))).toMatchObject({ from: "client", message: { method: "ping" }, sessionId: "s1", callId: 1 });
    await reader.cancel();
    expect(events.has("message")).toBe(false);
  });
});

describe.skipIf(NO_CHROMIUM !== undefined)(`the live timeline in Chromium${NO_CHROMIUM === undefined ? "" : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    expect(browser?.errors ?? []).toEqual([]);
  });

  it("shows the calls so far, then a call made after the page was opened", async () => {
    await using server = await mockMcp({
      tools: {
        get_weather: { returns: { tempC: 21 } },
        flaky_fetch: { throws: { code: -32000, message: "upstream timeout" } },
      },
    });
    const client = await connectedClient(server.url);
    try {
      await client.callTool({ name: "get_weather", arguments: { city: "Paris" } });
      const page = await browser.newPage();
      await page.goto(new URL("/__mcp-testkit/ui", server.url).href);
      await expect.poll(() => page.locator(".summary").innerText(), { timeout: 10_000 }).toContain("· live");
      expect(await page.locator(".row.call").allInnerTexts()).toEqual([expect.stringContaining("get_weather")]);

      await client.callTool({ name: "get_weather", arguments: { city: "Lisbon" } });
      await client.callTool({ name: "flaky_fetch", arguments: {} }).catch(() => undefined);
      await expect.poll(() => page.locator(".row.call .info").allInnerTexts(), { timeout: 10_000 }).toEqual(expect.arrayContaining(["get_weather", "flaky_fetch"]));
      const fetchRow = page.locator(".row.call", { hasText: "flaky_fetch" });
      await expect.poll(() => fetchRow.innerText()).toContain("error");
      await fetchRow.click();
      await expect(page.locator("section.detail").innerText()).resolves.toContain("upstream timeout");
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    } finally {
      await client.close();
    }
  });
});
