/**
 * Matchers on what a call gave back: a tool call result (`{ content, structuredContent?, isError? }`)
 * and a resource read result (`{ contents }`), plain or from a driver. They are synchronous.
 *
 * "Text content" is the first text block, as in expect-mcp; an error's text is every text
 * block, joined by newlines, because servers often split a message and its details.
 */
import { revisionsWith } from "../protocol/versions.js";
import { McpTestkitError } from "../errors.js";
import { firstDifference } from "../engine/match.js";
import { asResourceResult, asToolResult, describeReceived, type ResourceResultLike, type ToolResultLike } from "./received.js";
import { listing, misuse, projectOnto, quote, report, show, shorten, type McpMatcherContext, type McpMatcherResult } from "./report.js";

const TOOL_RESULT_WANTED = "a tool call result ({ content: [...], isError? }, from callTool())";
const RESOURCE_RESULT_WANTED = "a resource read result ({ contents: [...] }, from readResource())";

type Checked<T> = { value: T } | { failure: McpMatcherResult };

function toolResult(context: McpMatcherContext, received: unknown, matcher: string): Checked<ToolResultLike> {
  const value = asToolResult(received);
  if (value) return { value };
  return { failure: misuse(context, `${matcher} expects ${TOOL_RESULT_WANTED}; received ${describeReceived(received)}`) };
}

function resourceResult(context: McpMatcherContext, received: unknown, matcher: string): Checked<ResourceResultLike> {
  const value = asResourceResult(received);
  if (value) return { value };
  return { failure: misuse(context, `${matcher} expects ${RESOURCE_RESULT_WANTED}; received ${describeReceived(received)}`) };
}

function textsOf(result: ToolResultLike): string[] {
  return result.content.filter((block) => block?.type === "text" && typeof block.text === "string").map((block) => block.text as string);
}

/** "content: image, resource_link" or "content is empty", for a result without text. */
function contentKinds(result: ToolResultLike): string {
  if (result.content.length === 0) return "its content is empty";
  return `its content is: ${result.content.map((block) => String(block?.type)).join(", ")}`;
}

/** " with text "…"" (all text blocks), or " with no text". */
function withText(result: ToolResultLike): string {
  const texts = textsOf(result);
  return texts.length === 0 ? " with no text" : ` with text ${quote(shorten(texts.join("\n")))}`;
}

function requireString(matcher: string, what: string, value: unknown): string {
  if (typeof value !== "string") throw new McpTestkitError(`${matcher}() takes ${what} (a string); got ${show(value)}.`);
  return value;
}

function requirePattern(matcher: string, value: unknown, optional: boolean): string | RegExp | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value === "string" || value instanceof RegExp || Object.prototype.toString.call(value) === "[object RegExp]") return value as string | RegExp;
  throw new McpTestkitError(`${matcher}() takes a RegExp or a string to look for; got ${show(value)}.`);
}

function test(pattern: string | RegExp, text: string): boolean {
  if (typeof pattern === "string") return text.includes(pattern);
  pattern.lastIndex = 0;
  return pattern.test(text);
}

/** "contain "x"" or "match /x/", after "to". */
function patternPhrase(pattern: string | RegExp): string {
  return typeof pattern === "string" ? `contain ${quote(pattern)}` : `match ${String(pattern)}`;
}

/** "containing "x"" or "matching /x/". */
function patternAttribute(pattern: string | RegExp): string {
  return typeof pattern === "string" ? `containing ${quote(pattern)}` : `matching ${String(pattern)}`;
}

/** "tool call", or "tool call "read_file"" for a driver's result, which knows its tool. */
function callName(received: unknown): string {
  const toolName = (received as { toolName?: unknown }).toolName;
  return typeof toolName === "string" && toolName !== "" ? `tool call ${quote(toolName)}` : "tool call";
}

function toBeSuccessful(this: McpMatcherContext, received: unknown): McpMatcherResult {
  const checked = toolResult(this, received, "toBeSuccessful");
  if ("failure" in checked) return checked.failure;
  const result = checked.value;
  const call = callName(received);
  if (result.isError) return report(false, `expected ${call} to succeed, but it returned isError: true${withText(result)}`);
  return report(true, `expected ${call} to fail (isError: true), but it succeeded${withText(result)}`);
}

function toBeToolError(this: McpMatcherContext, received: unknown, expected?: unknown): McpMatcherResult {
  const pattern = requirePattern("toBeToolError", expected, true);
  const checked = toolResult(this, received, "toBeToolError");
  if ("failure" in checked) return checked.failure;
  const result = checked.value;
  const call = callName(received);
  const phrase = pattern === undefined ? "" : ` with an error text ${patternAttribute(pattern)}`;
  if (!result.isError) return report(false, `expected ${call} to fail (isError: true)${phrase}, but it succeeded${withText(result)}`);
  const text = textsOf(result).join("\n");
  if (pattern === undefined) return report(true, `expected ${call} not to fail, but it returned isError: true${withText(result)}`);
  if (test(pattern, text)) {
    return report(true, `expected ${call} not to fail${phrase}, but it did: ${quote(shorten(text))}`);
  }
  return report(
    false,
    `expected ${call} to fail with an error text ${patternAttribute(pattern)}; got ${quote(shorten(text))}`,
    typeof pattern === "string" ? { actual: text, expected: pattern } : undefined,
  );
}

function toHaveTextContent(this: McpMatcherContext, received: unknown, expected: unknown): McpMatcherResult {
  const wanted = requireString("toHaveTextContent", "the expected text", expected);
  const checked = toolResult(this, received, "toHaveTextContent");
  if ("failure" in checked) return checked.failure;
  const texts = textsOf(checked.value);
  if (texts.length === 0) {
    return report(false, `expected tool result to have text content ${quote(shorten(wanted))}, but it has no text block; ${contentKinds(checked.value)}`);
  }
  const first = texts[0];
  if (first === wanted) return report(true, `expected tool result not to have text content ${quote(shorten(wanted))}, but it does`);
  const which = texts.length > 1 ? ` (the first of ${texts.length} text blocks)` : "";
  return report(false, `expected tool result to have text content ${quote(shorten(wanted))}; got ${quote(shorten(first))}${which}`, {
    actual: first,
    expected: wanted,
  });
}

function toMatchTextContent(this: McpMatcherContext, received: unknown, expected: unknown): McpMatcherResult {
  const pattern = requirePattern("toMatchTextContent", expected, false) as string | RegExp;
  const checked = toolResult(this, received, "toMatchTextContent");
  if ("failure" in checked) return checked.failure;
  const texts = textsOf(checked.value);
  if (texts.length === 0) {
    return report(false, `expected tool result text to ${patternPhrase(pattern)}, but it has no text block; ${contentKinds(checked.value)}`);
  }
  const first = texts[0];
  if (test(pattern, first)) return report(true, `expected tool result text not to ${patternPhrase(pattern)}, but it does: ${quote(shorten(first))}`);
  return report(false, `expected tool result text to ${patternPhrase(pattern)}; got ${quote(shorten(first))}`);
}

function toHaveStructuredContent(this: McpMatcherContext, received: unknown, expected: unknown): McpMatcherResult {
  if (expected === undefined || typeof expected === "function" || typeof expected === "symbol" || typeof expected === "bigint") {
    throw new McpTestkitError(
      `toHaveStructuredContent() takes the expected structuredContent (an object or an array, matched partially; from a ${revisionsWith("structuredContentAnyValue")} server any JSON value, a string or number matched exactly); got ${show(expected)}.`,
    );
  }
  const checked = toolResult(this, received, "toHaveStructuredContent");
  if ("failure" in checked) return checked.failure;
  const result = checked.value;
  if (result.structuredContent === undefined) {
    const texts = textsOf(result);
    const text = texts.length === 0 ? "" : ` (its text: ${quote(shorten(texts.join("\n")))})`;
    return report(false, `expected tool result to have structuredContent matching ${show(expected)}, but it has none${text}`);
  }
  const difference = firstDifference(result.structuredContent, expected);
  if (!difference) return report(true, `expected structuredContent not to match ${show(expected)}, but it does`);
  return report(false, `expected structuredContent to match ${show(expected)}; at ${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)}`, {
    actual: projectOnto(result.structuredContent, expected),
    expected,
  });
}

function toHaveResourceContent(this: McpMatcherContext, received: unknown, expected: unknown): McpMatcherResult {
  const uri = requireString("toHaveResourceContent", "the URI", expected);
  const checked = resourceResult(this, received, "toHaveResourceContent");
  if ("failure" in checked) return checked.failure;
  const uris = checked.value.contents.map((content) => String(content?.uri));
  if (uris.includes(uri)) return report(true, `expected resource result not to have content for ${quote(uri)}, but it does`);
  return report(false, `expected resource result to have content for ${quote(uri)}; ${listing(uris, "contents")}`, {
    actual: uris,
    expected: [...uris, uri],
  });
}

function toHaveTextResource(this: McpMatcherContext, received: unknown, expected: unknown): McpMatcherResult {
  const wanted = requireString("toHaveTextResource", "the expected text", expected);
  const checked = resourceResult(this, received, "toHaveTextResource");
  if ("failure" in checked) return checked.failure;
  const contents = checked.value.contents;
  const first = contents.find((content) => typeof content?.text === "string");
  if (!first) {
    const what = contents.length === 0 ? "it has no contents" : `it has ${contents.length === 1 ? "one content" : `${contents.length} contents`} without text`;
    return report(false, `expected resource result to have text content ${quote(shorten(wanted))}, but ${what}`);
  }
  const text = first.text as string;
  if (text === wanted) return report(true, `expected resource result not to have text content ${quote(shorten(wanted))}, but it does`);
  return report(false, `expected resource result to have text content ${quote(shorten(wanted))}; got ${quote(shorten(text))}`, {
    actual: text,
    expected: wanted,
  });
}

export const resultMatchers = {
  toBeSuccessful,
  toBeToolError,
  toHaveTextContent,
  toMatchTextContent,
  toHaveStructuredContent,
  toHaveResourceContent,
  toHaveTextResource,
};
