/**
 * What `mcp-testkit mock` prints while it serves: a line per tool call, resource read, prompt
 * get, and session opening and closing, in colour on a terminal. All of it is heard from the
 * mock's events, so nothing here touches the mock's workings.
 */
import { styleText } from "node:util";
import type { MockMcpServer } from "../mock/mock-mcp.js";
import type { RequestEndEvent } from "../engine/events.js";
import { clipLine as clip, describeCall } from "./call-line.js";

type Colour = "green" | "red" | "yellow" | "cyan" | "dim";

/** Prints the mock's live lines with `say`; `colour` on a terminal (NO_COLOR turns it off). */
export function printLiveLines(server: MockMcpServer, say: (line: string) => void, colour: boolean): () => void {
  const paint = (style: Colour, text: string) => (colour ? styleText(style, text) : text);
  const stops = [
    server.on("call:end", (call) => {
      const style: Colour = call.outcome === "result" ? "green" : call.outcome === "tool-error" ? "yellow" : "red";
      say(paint(style, describeCall(call)));
    }),
    server.on("request:end", (event) => {
      const line = describeRequest(event);
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
