/**
 * Debian's Chromium driven by playwright-core, for the timeline's tests: never a downloaded
 * browser. Each browser gets a fresh profile folder, removed when it closes, and every console
 * error and uncaught exception of its pages is collected, so a test can say there were none.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** Why the browser tests skip, or undefined when they run. */
export const NO_CHROMIUM = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) to run the browser tests`;

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  readonly context: BrowserContext;
  /** Console errors and page errors seen so far, on any page. */
  readonly errors: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "mcp-testkit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: FLAGS, viewport: { width: 1400, height: 800 }, timeout: 30_000 });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(String(error)));
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  return {
    context,
    errors,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: number; help: string }[]> {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const results = (await page.evaluate("axe.run(document).then((found) => found.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help })))")) as {
    id: string;
    impact: string;
    nodes: number;
    help: string;
  }[];
  return results.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
