/**
 * What `mcp-testkit mock` prints while it serves: a line per tool call, resource read, prompt
 * get, and session opening and closing, in colour on a terminal. All of it is heard from the
 * mock's events, so nothing here touches the mock's workings.
 */
import { styleText } from "node:util";
import type { MockMcpServer } from "../mock/mock-mcp.js";
import type { RequestEndEvent } from "../engine/events.js";
import { clipLine as clip, describeCall } from "./call-line.js";

/** What a live line shows of a request, named as a recording names it. */
type Shown<A, R> = { arguments: A; answer: R };
type Redact = <A, R>(shown: Shown<A, R>) => Shown<A, R>;

type Colour = "green" | "red" | "yellow" | "cyan" | "dim";

/**
 * Prints the mock's live lines with `say`; `colour` on a terminal (NO_COLOR turns it off).
 * `redact` copies what a line shows, `{ arguments, answer }` as a recording names them, with its
 * secrets replaced, where the lines must not show them (`mcp-testkit record`).
 */
export function printLiveLines(server: MockMcpServer, say: (line: string) => void, colour: boolean, redact: Redact = (shown) => shown): () => void {
  const paint = (style: Colour, text: string) => (colour ? styleText(style, text) : text);
  const stops = [
    server.on("call:end", (call) => {
      const style: Colour = call.outcome === "result" ? "green" : call.outcome === "tool-error" ? "yellow" : "red";
      const shown = redact({ arguments: call.arguments, answer: call.response });
      say(paint(style, describeCall({ ...call, arguments: shown.arguments, response: shown.answer })));
    }),
    server.on("request:end", (event) => {
      const shown = redact({ arguments: event.params?.arguments, answer: event.error === undefined ? undefined : { error: event.error } });
      const params = event.params === undefined ? undefined : { ...event.params, ...(shown.arguments !== undefined && { arguments: shown.arguments }) };
      const line = describeRequest({ ...event, ...(params !== undefined && { params }), ...(shown.answer?.error !== undefined && { error: shown.answer.error }) });
      if (line !== undefined) say(paint(event.outcome === "result" ? "cyan" : "red", line));
    }),
    server.on("session:open", (event) => say(paint("dim", `session ${shortId(event.sessionId)} opened (${event.wire})`))),
    server.on("session:close", (event) => say(paint("dim", `session ${shortId(event.sessionId)} closed: ${event.reason}`))),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Whether lines for people should be coloured: a terminal, and NO_COLOR unset. */
export function wantsColour(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR;
}

/** A line for a resource read or a prompt get; other requests print nothing. */
export function describeRequest(event: RequestEndEvent): string | undefined {
  const params = event.params ?? {};
  const outcome = event.outcome === "error" ? `error ${event.error?.code} ${clip(event.error?.message ?? "")}` : event.outcome;
  // Whole milliseconds, as a tool call's line shows them.
  const duration = `${Math.round(event.durationMs)} ms`;
  if (event.method === "resources/read") return `read ${clip(String(params.uri))} → ${outcome} (${duration})`;
  if (event.method === "prompts/get") return `prompt ${clip(String(params.name))} ${clip(JSON.stringify(params.arguments ?? {}))} → ${outcome} (${duration})`;
  return undefined;
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
