/**
 * What the page offers to replay one message a client sent: the exact `server.handle()` line a
 * test can paste, and a `curl` line for an HTTP mock. Credentials were redacted before the
 * trace was written, so a redacted header is left out of the curl line and named instead.
 */
import type { TraceEntry } from "../../trace/entry.js";

/** `await server.handle("…")`: the message as the mock's `handle()` takes it. */
export function handleLine(entry: TraceEntry): string | undefined {
  if (entry.message === undefined) return undefined;
  return `await server.handle(${JSON.stringify(JSON.stringify(entry.message))});`;
}

/** Headers a replay should not copy: the connection's own, and those curl sets itself. */
const SKIPPED = new Set(["host", "content-length", "connection", "accept-encoding", "user-agent", "origin", "referer", "keep-alive", "transfer-encoding"]);

/**
 * A `curl` line that POSTs the message again to `base` (the mock's URL, or the trace's target),
 * with the request's headers (session, protocol version, test id), quoted for a POSIX shell.
 */
export function curlLine(entry: TraceEntry, base: string | undefined): string | undefined {
  if (entry.message === undefined || entry.from !== "client") return undefined;
  const url = targetUrl(base, entry.http?.path);
  const parts = ["curl -sS -X POST", shellQuote(url)];
  const headers = entry.http?.headers ?? {};
  const redacted: string[] = [];
  let hasType = false;
  let hasAccept = false;
  for (const [name, value] of Object.entries(headers)) {
    if (SKIPPED.has(name)) continue;
    if (value === "[redacted]") {
      redacted.push(name);
      continue;
    }
    if (name === "content-type") hasType = true;
    if (name === "accept") hasAccept = true;
    parts.push("-H", shellQuote(`${name}: ${value}`));
  }
  if (!hasType) parts.push("-H", shellQuote("content-type: application/json"));
  if (!hasAccept) parts.push("-H", shellQuote("accept: application/json, text/event-stream"));
  if (entry.http === undefined) {
    if (entry.sessionId !== undefined && entry.wire === "http") parts.push("-H", shellQuote(`mcp-session-id: ${entry.sessionId}`));
    if (entry.testId !== undefined) parts.push("-H", shellQuote(`x-test-id: ${entry.testId}`));
  }
  parts.push("--data-raw", shellQuote(JSON.stringify(entry.message)));
  const line = parts.join(" ");
  return redacted.length === 0 ? line : `${line}\n# left out, redacted in the trace: ${redacted.join(", ")}`;
}

function targetUrl(base: string | undefined, path: string | undefined): string {
  const fallback = "http://127.0.0.1:3000/mcp";
  try {
    const url = new URL(base !== undefined && /^https?:/.test(base) ? base : fallback);
    if (path !== undefined) url.pathname = path;
    return url.href;
  } catch {
    return fallback;
  }
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
