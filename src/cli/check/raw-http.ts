/**
 * Raw Streamable HTTP requests for the probes a good client never makes (no session id, a
 * foreign Origin, a bad Accept, an unsupported MCP-Protocol-Version, a body that is not JSON).
 * The answer is read whether it is one JSON body or an SSE stream, up to the response to the
 * request sent, within a timeout.
 */
import { isObject } from "../../protocol/jsonrpc.js";
import { clip, errorText } from "../../util/text.js";

type Json = Record<string, unknown>;

export interface RawHttpAnswer {
  /** The HTTP status, or 0 when no answer came (network failure, timeout). */
  status: number;
  headers: Headers | undefined;
  /** JSON-RPC messages in the body (a JSON body, or each SSE `data`). */
  messages: Json[];
  /** The body as text (for a body that is not JSON-RPC). */
  text: string;
  /** Why no answer came, when `status` is 0. */
  failure?: string;
}

export const BASE_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** POSTs `body` (a string sent as is, or a value sent as JSON) and reads the answer. */
export async function rawPost(url: string, headers: Record<string, string>, body: unknown, options: { timeoutMs: number; waitForId?: string | number }): Promise<RawHttpAnswer> {
  return rawRequest(url, "POST", headers, typeof body === "string" ? body : JSON.stringify(body), options);
}

export async function rawDelete(url: string, headers: Record<string, string>, timeoutMs: number): Promise<RawHttpAnswer> {
  return rawRequest(url, "DELETE", headers, undefined, { timeoutMs });
}

/** Any method, raw (GET and DELETE for the 405 probes). */
export async function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: { timeoutMs: number; waitForId?: string | number },
): Promise<RawHttpAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }), signal: controller.signal, redirect: "manual" });
  } catch (error) {
    clearTimeout(timer);
    return { status: 0, headers: undefined, messages: [], text: "", failure: describeFailure(error, controller.signal) };
  }
  const answer: RawHttpAnswer = { status: response.status, headers: response.headers, messages: [], text: "" };
  try {
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) await readEvents(response, answer, options.waitForId);
    else {
      answer.text = await response.text();
      const parsed = parse(answer.text);
      if (Array.isArray(parsed)) answer.messages.push(...parsed.filter(isObject));
      else if (isObject(parsed)) answer.messages.push(parsed);
    }
  } catch {
    // A stream cut short (our timeout, the server closing): keep what was read.
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return answer;
}

/** Reads SSE events until the response to `waitForId` (or the end of the stream). */
async function readEvents(response: Response, answer: RawHttpAnswer, waitForId: string | number | undefined): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    answer.text += text;
    buffer += text.replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      const parsed = data === "" ? undefined : parse(data);
      if (isObject(parsed)) {
        answer.messages.push(parsed);
        if (waitForId !== undefined && parsed.id === waitForId && ("result" in parsed || "error" in parsed)) {
          await reader.cancel().catch(() => undefined);
          return;
        }
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

/** The JSON-RPC error code in the answer, if it carries an error. */
export function errorCode(answer: RawHttpAnswer): number | undefined {
  for (const message of answer.messages) {
    const error = message.error;
    if (isObject(error) && typeof error.code === "number") return error.code;
  }
  return undefined;
}

/** `400`, `400 (-32000 "Bad Request: …")` or `no answer (…)`, for details. */
export function describeAnswer(answer: RawHttpAnswer): string {
  if (answer.status === 0) return `no answer (${answer.failure ?? "unknown reason"})`;
  const error = answer.messages.map((message) => message.error).find(isObject);
  if (error) return `${answer.status} (${String(error.code)} ${JSON.stringify(clip(String(error.message), 80))})`;
  return String(answer.status);
}

function describeFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason.message : "aborted";
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${errorText(error)}${cause}`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
