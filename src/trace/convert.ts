/**
 * Any traffic file to a trace, and a trace to any format: the trace's own JSON Lines, HAR 1.2
 * or OTLP JSON. What a file is, is told by its content, not its name: a trace starts with its
 * header line, a HAR has `log.entries`, OTLP has `resourceSpans`.
 */
import { readFile } from "node:fs/promises";
import { McpTestkitError } from "../errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { errorText } from "../util/text.js";
import { traceToHar } from "./har-export.js";
import { traceFromHar } from "./har-import.js";
import { traceFromOtlp, traceToOtlp } from "./otlp.js";
import { parseTrace, type Trace } from "./read-trace.js";

export type TraceFormat = "trace" | "har" | "otlp";
export const TRACE_FORMATS: readonly TraceFormat[] = ["trace", "har", "otlp"];

/** The trace in a file's text, whichever of the three formats it is in. */
export function traceFromText(text: string, name = "the file"): { trace: Trace; format: TraceFormat } {
  const start = text.trimStart();
  if (start.startsWith('{"type":"mcp-testkit-trace"') || /^\{\s*"type"\s*:\s*"mcp-testkit-trace"/.test(start)) return { trace: parseTrace(text, name), format: "trace" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new McpTestkitError(`${name} is neither a trace (JSON Lines starting with {"type":"mcp-testkit-trace",…}) nor JSON (a HAR or OTLP file): ${errorText(error)}.`);
  }
  if (isObject(value) && isObject(value.log)) return { trace: traceFromHar(value, name), format: "har" };
  if (isObject(value) && Array.isArray(value.resourceSpans)) return { trace: traceFromOtlp(value, name), format: "otlp" };
  throw new McpTestkitError(`${name} is JSON but not a HAR ({ "log": { "entries": [...] } }) nor OTLP traces ({ "resourceSpans": [...] }), nor a trace.`);
}

/** Reads a trace, a HAR or an OTLP JSON file as a trace. */
export async function readTraffic(path: string): Promise<{ trace: Trace; format: TraceFormat }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new McpTestkitError(`Cannot read ${path}: ${errorText(error)}.`);
  }
  return traceFromText(text, path);
}

/** A trace as the text of `format`. */
export function traceText(trace: Trace, format: TraceFormat): string {
  switch (format) {
    case "trace":
      return `${[trace.header, ...trace.entries].map((line) => JSON.stringify(line)).join("\n")}\n`;
    case "har":
      return `${JSON.stringify(traceToHar(trace), null, 2)}\n`;
    case "otlp":
      return `${JSON.stringify(traceToOtlp(trace))}\n`;
  }
}
