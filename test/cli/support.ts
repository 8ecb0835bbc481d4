/**
 * Shared parts for the CLI and stdio tests: the built CLI (`npm run build` first), a runner
 * that waits for it to exit, a tracker for long-running children (each one killed and waited
 * for after the test), and scenario files written to a temporary folder.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll } from "vitest";
import { assertBuilt } from "../support/built.js";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const EXAMPLES = join(REPO, "examples", "scenarios");

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds, failing after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(10);
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcessWithoutNullStreams>();
let scratch: string | undefined;

/** Registers the checks and cleanups in the calling test file. */
export function useCli(): void {
  // The CLI is run from dist/: a build older than the sources would test other code than src/.
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await Promise.all([...children].map((child) => stop(child)));
    children.clear();
  });
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });
}

/** A file in this test file's scratch folder, removed after the tests. */
export function scratchFile(name: string, content?: string): string {
  scratch ??= mkdtempSync(join(tmpdir(), "mcp-testkit-cli-"));
  const path = join(scratch, name);
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

/** Writes a JSON scenario file and returns its path. */
export function scenarioFile(name: string, scenario: unknown): string {
  return scratchFile(name, JSON.stringify(scenario));
}

/** Starts the CLI; the child is killed and waited for after the test if it is still running. */
export function startCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): ChildProcessWithoutNullStreams {
  const env = options.env === undefined ? undefined : { ...process.env, ...options.env };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO, stdio: ["pipe", "pipe", "pipe"], ...(env !== undefined && { env }) });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Runs the CLI to the end (with `input` on stdin, then stdin closed) and collects its output. */
export async function runCli(args: string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = startCli(args, options);
  const collected = collect(child);
  child.stdin.end(options.input ?? "");
  return await exited(child, collected, options.timeoutMs ?? 10_000);
}

export function collect(child: ChildProcessWithoutNullStreams): { stdout: string; stderr: string } {
  const out = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (text: string) => (out.stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (out.stderr += text));
  return out;
}

/** Waits for the child to exit (and its output to close), failing after `timeoutMs`. */
export function exited(child: ChildProcessWithoutNullStreams, collected: { stdout: string; stderr: string }, timeoutMs = 10_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CLI did not exit within ${timeoutMs} ms; stderr so far:\n${collected.stderr}`)), timeoutMs);
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ code, signal, ...collected });
    };
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode, child.signalCode);
    else child.once("close", done);
  });
}

/** Resolves with the first line of `stream` output matching `pattern` (failing after `timeoutMs`). */
export function waitForLine(child: ChildProcessWithoutNullStreams, stream: "stdout" | "stderr", pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      const complete = seen.split("\n").slice(0, -1);
      for (const line of complete) {
        const match = pattern.exec(line);
        if (match) {
          cleanup();
          resolve(match);
          return;
        }
      }
    };
    const onExit = () => {
      cleanup();
      reject(new Error(`the CLI exited before printing a line matching ${pattern}; ${stream} was:\n${seen}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; ${stream} was:\n${seen}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child[stream].off("data", onData);
      child.off("exit", onExit);
    };
    child[stream].on("data", onData);
    child.once("exit", onExit);
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it lingers; resolves once it has exited. */
async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await gone;
  clearTimeout(timer);
}

/** The 2026-07-28 checks of `check` on every wire, in report order (after the legacy ones for a dual-era server). */
export const MODERN_COMMON = ["modern-discover", "modern-unsupported-version", "modern-unknown-method", "modern-result-type", "modern-messages-valid"];
/** The transport's own checks, run whichever era a server speaks (listed with the legacy ones, so first). */
export const TRANSPORT_STDIO = ["stdin-close", "stdout-clean"];
export const TRANSPORT_HTTP = ["http-origin"];
/** The same, over HTTP: the header rules, GET/DELETE and the session id follow. */
export const MODERN_HTTP = [
  ...MODERN_COMMON,
  "modern-http-method-header",
  "modern-http-name-header",
  "modern-http-name-mismatch",
  "modern-http-version-header",
  "modern-http-version-mismatch",
  "modern-http-param-header",
  "modern-http-get-delete",
  "modern-http-no-session",
];
