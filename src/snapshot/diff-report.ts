/**
 * A surface diff in words: text for people (with colour when asked), Markdown for a pull-request
 * comment, JUnit XML for a CI's test report, or JSON. Each takes the diff and the names of its two
 * sides, and says the same things.
 */
import { pathText } from "./change-paths.js";
import type { ChangeClass, SurfaceChange } from "./changes.js";
import type { SurfaceDiff } from "./surface-diff.js";

export type DiffFormat = "text" | "json" | "markdown" | "junit";

export interface DiffReportOptions {
  /** What the two sides are, as the report names them (default "before" and "after"). */
  before?: string;
  after?: string;
  /** ANSI colours in the text format (the CLI turns them on for a terminal). */
  colour?: boolean;
}

const CLASSES: readonly ChangeClass[] = ["breaking", "compatible", "informational"];
const COLOURS: Record<ChangeClass, string> = { breaking: "\x1b[31m", compatible: "\x1b[32m", informational: "\x1b[2m" };
const RESET = "\x1b[0m";
const BOLD = "\x1b[1m";
const SIGN: Record<SurfaceChange["kind"], string> = { added: "+", removed: "-", changed: "~" };

/** The diff in one of the formats. */
export function formatSurfaceDiff(diff: SurfaceDiff, format: DiffFormat, options: DiffReportOptions = {}): string {
  switch (format) {
    case "text":
      return textReport(diff, options);
    case "markdown":
      return markdownReport(diff, options);
    case "junit":
      return junitReport(diff, options);
    case "json":
      return `${JSON.stringify({ before: options.before, after: options.after, ...diff, changes: diff.changes.map((change) => ({ ...change, where: pathText(change.path) })) }, null, 2)}\n`;
  }
}

/** "2 breaking, 1 compatible, 3 informational" or "no changes". */
export function summaryLine(diff: SurfaceDiff): string {
  if (diff.changes.length === 0) return "no changes";
  return CLASSES.filter((name) => diff.counts[name] > 0)
    .map((name) => `${diff.counts[name]} ${name}`)
    .join(", ");
}

function footnotes(diff: SurfaceDiff): string[] {
  const lines: string[] = [];
  if (diff.notCompared.length > 0) lines.push(`Not compared: ${diff.notCompared.join("; ")}.`);
  if (diff.ignored > 0) lines.push(`${diff.ignored} change${diff.ignored === 1 ? "" : "s"} ignored.`);
  return lines;
}

function textReport(diff: SurfaceDiff, options: DiffReportOptions): string {
  const paint = (code: string, text: string) => (options.colour === true ? `${code}${text}${RESET}` : text);
  const lines = [`${options.before ?? "before"} → ${options.after ?? "after"}: ${summaryLine(diff)}`];
  for (const name of CLASSES) {
    const changes = diff.changes.filter((change) => change.class === name);
    if (changes.length === 0) continue;
    lines.push("", paint(BOLD + COLOURS[name], `${name[0]!.toUpperCase()}${name.slice(1)} (${changes.length})`));
    for (const change of changes) lines.push(paint(COLOURS[name], `  ${SIGN[change.kind]} ${change.message}`), `      at ${pathText(change.path)}`);
  }
  const notes = footnotes(diff);
  if (notes.length > 0) lines.push("", ...notes);
  return `${lines.join("\n")}\n`;
}

function markdownReport(diff: SurfaceDiff, options: DiffReportOptions): string {
  const cell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
  const lines = [`### MCP surface: ${summaryLine(diff)}`, "", `\`${cell(options.before ?? "before")}\` → \`${cell(options.after ?? "after")}\``];
  for (const name of CLASSES) {
    const changes = diff.changes.filter((change) => change.class === name);
    if (changes.length === 0) continue;
    const icon = name === "breaking" ? "🔴" : name === "compatible" ? "🟢" : "⚪";
    lines.push("", `#### ${icon} ${name[0]!.toUpperCase()}${name.slice(1)} (${changes.length})`, "", "| | Change | Where |", "|---|---|---|");
    for (const change of changes) lines.push(`| ${change.kind} | ${cell(change.message)} | \`${cell(pathText(change.path)).replace(/`/g, "'")}\` |`);
  }
  const notes = footnotes(diff);
  if (notes.length > 0) lines.push("", ...notes.map((note) => `_${note}_`));
  return `${lines.join("\n")}\n`;
}

/**
 * One test case per change, a breaking one as a failure, so a CI's test report lists each; a
 * diff with no change is one passing case, so the report is never empty.
 */
function junitReport(diff: SurfaceDiff, options: DiffReportOptions): string {
  const suite = `MCP surface ${options.before ?? "before"} → ${options.after ?? "after"}`;
  const cases = diff.changes.map((change) => {
    const name = xml(`${change.class}: ${pathText(change.path)}`);
    const head = `    <testcase classname="${xml(`mcp-surface.${change.class}`)}" name="${name}"`;
    if (change.class !== "breaking") return `${head}>\n      <system-out>${xml(change.message)}</system-out>\n    </testcase>`;
    return `${head}>\n      <failure type="breaking" message="${xml(change.message)}">${xml(change.message)}</failure>\n    </testcase>`;
  });
  if (cases.length === 0) cases.push(`    <testcase classname="mcp-surface" name="no changes"/>`);
  const tests = Math.max(1, diff.changes.length);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="mcp-testkit diff" tests="${tests}" failures="${diff.counts.breaking}">`,
    `  <testsuite name="${xml(suite)}" tests="${tests}" failures="${diff.counts.breaking}" errors="0" skipped="0">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

/** Text safe inside XML content and attributes; characters XML 1.0 cannot carry at all are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
