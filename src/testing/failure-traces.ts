/**
 * The traces of failing tests, kept in a folder CI uploads as an artifact: after a test, the kit
 * writes its mock's trace there when the test failed (or always, when asked) with its timeline
 * page beside it, names them in the failure message, and tells whoever listens
 * (`onTraceWritten`), so other artifacts can be written beside them. The runner is asked whether the test failed: Vitest
 * hands its afterEach hook the test's context; Jest keeps it in jest-circus's state.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { createHash } from "node:crypto";
import { McpTestkitError } from "../errors.js";
import type { TraceLog } from "../trace/trace-log.js";
import { logToStderr } from "../util/log.js";
import { errorText } from "../util/text.js";

/** The environment variable that names the folder when no option does. */
export const TRACE_DIR_ENV = "MCP_TESTKIT_TRACE_DIR";

/** What a listener hears when a test's trace was written. */
export interface WrittenTrace {
  /** The trace file (JSON Lines). */
  readonly file: string;
  /** The folder it is in: write other artifacts of the test beside it. */
  readonly dir: string;
  /** The test's full name, as the runner gives it ("" when it gives none). */
  readonly testName: string;
  /** Whether the test failed (false when the trace was kept for a passing test, `keepTraces: "all"`). */
  readonly failed: boolean;
  /** The trace itself. */
  readonly trace: TraceLog;
}

const listeners = new Set<(written: WrittenTrace) => void>();

/**
 * Hears each trace the kit writes for a test, after the file is on disk: a place to write more
 * of the test's artifacts beside it (`written.dir`). Returns a function that stops listening.
 */
export function onTraceWritten(listener: (written: WrittenTrace) => void): () => void {
  if (typeof listener !== "function") throw new McpTestkitError("onTraceWritten(listener): the listener must be a function.");
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The folder traces go to: the option, else `MCP_TESTKIT_TRACE_DIR`; undefined when neither says one. */
export function traceDirOf(option: string | undefined): string | undefined {
  const dir = option ?? process.env[TRACE_DIR_ENV];
  return dir === undefined || dir === "" ? undefined : resolve(dir);
}

/**
 * Writes `trace` into `dir` as `<test name>.trace.jsonl` (the name made safe for any file
 * system, with a short hash so two tests never share a file) and tells the listeners.
 */
export function writeTestTrace(trace: TraceLog, dir: string, testName: string, failed: boolean): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${fileStem(testName)}.trace.jsonl`);
  writeFileSync(file, trace.text());
  const written: WrittenTrace = { file, dir, testName, failed, trace };
  for (const listener of listeners) {
    try {
      listener(written);
    } catch (error) {
      logToStderr("warn", `mcp-testkit: an onTraceWritten listener threw: ${errorText(error)}`);
    }
  }
  return file;
}

/**
 * Writes the timeline page of `trace` beside its file (`….trace.jsonl` → `….timeline.html`), to
 * open from a CI artifact with no network. Resolves with the page's path, or undefined when it
 * could not be written (the trace is there either way, and `mcp-testkit view` makes the page).
 */
export async function writeTestPage(trace: TraceLog, traceFile: string): Promise<string | undefined> {
  const file = traceFile.replace(/\.trace\.jsonl$/, ".timeline.html");
  try {
    const { timelinePage } = await import("../view/page.js");
    await writeFile(file, await timelinePage({ header: trace.header, entries: trace.entries(), title: basename(traceFile), kind: "trace" }));
    return file;
  } catch (error) {
    logToStderr("warn", `mcp-testkit: the timeline page of ${traceFile} could not be written: ${errorText(error)}`);
    return undefined;
  }
}

function fileStem(testName: string): string {
  const readable =
    testName
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "test";
  return `${readable}-${createHash("sha256").update(testName).digest("hex").slice(0, 8)}`;
}

/** A test's outcome as the runner knows it in afterEach: whether it failed, and how to add a line to its failure. */
export interface TestOutcome {
  readonly failed: boolean;
  /** Appends `line` to the failure's message, where the runner lets us. */
  note(line: string): void;
}

/** What the runner says about the test that just ran; undefined when it says nothing (node:test). */
export function testOutcome(hookArgument: unknown): TestOutcome | undefined {
  return vitestOutcome(hookArgument) ?? jestOutcome();
}

type ErrorLike = { message?: unknown; stack?: unknown };

/** Vitest gives afterEach the test's context: `context.task.result` has its state and errors. */
function vitestOutcome(context: unknown): TestOutcome | undefined {
  const result = (context as { task?: { result?: { state?: unknown; errors?: ErrorLike[] } } } | undefined)?.task?.result;
  if (result === undefined || typeof result.state !== "string") return undefined;
  return { failed: result.state === "fail", note: (line) => appendTo(result.errors ?? [], line) };
}

/** jest-circus keeps the running test, with the errors it threw so far, under a symbol on the global object. */
function jestOutcome(): TestOutcome | undefined {
  const globals = globalThis as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(globals).find((candidate) => candidate.description === "JEST_STATE_SYMBOL");
  const test = symbol === undefined ? undefined : (globals[symbol] as { currentlyRunningTest?: { errors?: unknown[] } } | undefined)?.currentlyRunningTest;
  if (test === undefined || !Array.isArray(test.errors)) return undefined;
  const errors = test.errors;
  // An entry is an error, or [error, the error made where the hook or test was declared].
  return { failed: errors.length > 0, note: (line) => appendTo(errors.map((entry) => (Array.isArray(entry) ? entry[0] : entry)) as ErrorLike[], line) };
}

function appendTo(errors: ErrorLike[], line: string): void {
  const first = errors[0];
  if (first === undefined || typeof first !== "object" || first === null) return;
  if (typeof first.message === "string") {
    const before = first.message;
    first.message = `${before}\n\n${line}`;
    if (typeof first.stack === "string") first.stack = first.stack.replace(before, first.message as string);
  }
}
