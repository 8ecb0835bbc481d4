/**
 * The timeline page in Debian's Chromium: a 10,000-message trace renders (its first render
 * time is printed), filters and search find the planted calls, a fault and an MRTR round show
 * under their call, the keys move through it, a message can be replayed, axe finds nothing
 * serious, and no page logs an error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProblems } from "../../src/view/check-entries.js";
import { timelinePage } from "../../src/view/page.js";
import { readTimelineInput } from "../../src/view/read-input.js";
import { type Browser, launchBrowser, NO_CHROMIUM, seriousViolations } from "./browser.js";
import { bigTrace, PLANTED, traceText } from "./traces.js";

const MESSAGES = 10_000;
/** When the page drew its first screen, in ms after navigation began (the page sets it; evaluated in the page). */
const FIRST_RENDER = "document.documentElement.dataset.firstRenderMs";

describe.skipIf(NO_CHROMIUM !== undefined)(`the timeline page in Chromium${NO_CHROMIUM === undefined ? "" : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  let browser: Browser;
  let folder: string;
  let bigPage: string;
  let smallPage: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mcp-testkit-timeline-"));
    const big = readTimelineInput(traceText(bigTrace(MESSAGES)), "big.trace.jsonl");
    bigPage = join(folder, "big.html");
    writeFileSync(bigPage, await timelinePage(big));
    // The small one goes through the validator, as `mcp-testkit view` does by default.
    const small = readTimelineInput(traceText(bigTrace(2_000)), "small.trace.jsonl");
    smallPage = join(folder, "small.html");
    writeFileSync(smallPage, await timelinePage({ ...small, entries: withProblems(small.entries) }));
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    // Every page of every test: nothing logged an error.
    expect(browser?.errors ?? []).toEqual([]);
  });

  async function open(file: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(FIRST_RENDER, undefined, { timeout: 30_000 });
    return page;
  }

  const rowTexts = (page: Page) => page.locator('[role="treeitem"]').allInnerTexts();

  it("renders 10,000 messages, drawing only the rows on screen", async () => {
    const page = await open(bigPage);
    const firstRender = Number(await page.evaluate(FIRST_RENDER));
    console.log(`timeline: first render of ${MESSAGES} messages in Chromium: ${firstRender.toFixed(0)} ms after navigation began`);
    await expect(page.locator(".summary").innerText()).resolves.toMatch(/10000 messages · \d+ calls · 3 lanes/);
    const drawn = await page.locator('[role="treeitem"]').count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(200);
    await page.close();
  });

  it("finds a planted call by searching across bodies", async () => {
    const page = await open(bigPage);
    await page.keyboard.press("/");
    await page.keyboard.type(PLANTED.searchTerm);
    await expect.poll(() => page.locator(".row.call").count()).toBe(1);
    expect((await page.locator(".row.call").innerText()).replace(/\s+/g, " ")).toContain("tools/call search_issues");
    await page.close();
  });

  it("filters by outcome, method, test id and revision", async () => {
    const page = await open(bigPage);
    await page.getByLabel("Outcome").selectOption("fault");
    await expect.poll(() => page.locator(".row.call").allInnerTexts()).toEqual([expect.stringContaining(PLANTED.faultTool)]);
    await page.getByLabel("Outcome").selectOption("");
    await page.getByLabel("Method").selectOption("resources/read");
    const methods = await page.locator(".row.call .method").allInnerTexts();
    expect(new Set(methods)).toEqual(new Set(["resources/read"]));
    await page.getByLabel("Method").selectOption("");
    await page.getByLabel("Test id").selectOption(PLANTED.testIds[1]);
    const lanes = await page.locator(".row.lane").allInnerTexts();
    expect(lanes).toHaveLength(1);
    expect(lanes[0]).toContain(`test ${PLANTED.testIds[1]}`);
    await page.getByLabel("Test id").selectOption("");
    await page.getByLabel("Revision").selectOption("2026-07-28");
    await expect.poll(() => page.locator(".row.call").allInnerTexts()).toEqual([expect.stringContaining(PLANTED.mrtrTool)]);
    await page.close();
  });

  it("shows a fault, an MRTR round and a task poll under their call", async () => {
    const page = await open(bigPage);
    const search = page.getByRole("searchbox", { name: "Search" });
    await search.fill(PLANTED.faultTool);
    await expect.poll(() => page.locator(".row.call").innerText()).toContain("fault: delay");
    await search.fill(PLANTED.mrtrTool);
    await expect.poll(() => rowTexts(page)).toHaveLength(4);
    const mrtr = (await rowTexts(page)).map((text) => text.replace(/\s+/g, " "));
    expect(mrtr[1]).toContain(`tools/call ${PLANTED.mrtrTool}`);
    expect(mrtr[2]).toMatch(/↳ round tools\/call book_trip/);
    expect(mrtr[3]).toMatch(/↳ answer result/);
    await search.fill(PLANTED.taskTool);
    await expect.poll(async () => (await rowTexts(page)).join("\n")).toMatch(/↳ task poll\s+tasks\/get/);
    await page.close();
  });

  it("moves with the keys, opens a call's messages and offers their replay", async () => {
    const page = await open(bigPage);
    await page.getByRole("searchbox", { name: "Search" }).fill(PLANTED.searchTerm);
    await page.keyboard.press("Escape");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.locator('[role="tree"]').getAttribute("aria-activedescendant")).toMatch(/^row-call-/);
    await expect(page.locator("section.detail h2").innerText()).resolves.toContain("tools/call");
    await page.locator("details.replay summary").first().click();
    const handle = await page.locator(".replay-handle").first().innerText();
    expect(handle).toBe(
      `await server.handle(${JSON.stringify(JSON.stringify({ jsonrpc: "2.0", id: 500, method: "tools/call", params: { name: "search_issues", arguments: { query: PLANTED.searchTerm } } }))});`,
    );
    const curl = await page.locator(".replay-curl").first().innerText();
    expect(curl).toContain("curl -sS -X POST 'http://127.0.0.1:3921/mcp'");
    expect(curl).toContain("'mcp-session-id: session-3'");
    expect(curl).toContain(PLANTED.searchTerm);
    await page.close();
  });

  it("flags the validator's problems on the message they concern", async () => {
    const page = await open(smallPage);
    await page.getByLabel("Outcome").selectOption("problem");
    await expect.poll(() => page.locator(".row.call").count()).toBeGreaterThan(0);
    await page.getByText("get_weather", { exact: true }).first().click();
    const problems = await page.locator(".problems").allInnerTexts();
    expect(problems.join("\n")).toContain("$.result.content[0].type");
    await page.close();
  });

  it("has no serious accessibility violations (axe-core)", async () => {
    const page = await open(smallPage);
    await page.locator(".row.call").first().click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
