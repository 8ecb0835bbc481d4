/**
 * Reading a trace file back: the header line, then one entry per line. A bad line is named by
 * its number, with what was expected; a trace of a newer format is refused, saying so. A line
 * cut short at the very end (the writer crashed mid-write) is dropped, not an error: a trace
 * is written as things happen, and what came before is still good.
 */
import { readFile } from "node:fs/promises";
import { McpTestkitError } from "../errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { errorText } from "../util/text.js";
import { TRACE_FORMAT_VERSION, type TraceEntry, type TraceHeader } from "./entry.js";

export interface Trace {
  readonly header: TraceHeader;
  readonly entries: TraceEntry[];
}

const FROM = new Set(["client", "server"]);

/** A trace from its JSON Lines text; throws a McpTestkitError naming the first bad line. */
export function parseTrace(text: string, name = "the trace"): Trace {
  const lines = text.split("\n");
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  if (lines.length === 0) throw new McpTestkitError(`${name} is empty; a trace starts with a header line {"type":"mcp-testkit-trace","version":1,…}.`);
  const header = parseLine(lines[0]!, 1, name);
  if (!isObject(header) || header.type !== "mcp-testkit-trace") {
    throw new McpTestkitError(
      `${name} line 1 is not a trace header; expected {"type":"mcp-testkit-trace","version":${TRACE_FORMAT_VERSION},…}. Is it a HAR or OTLP file? Convert it with \`mcp-testkit trace convert\`.`,
    );
  }
  if (typeof header.version !== "number" || header.version > TRACE_FORMAT_VERSION) {
    throw new McpTestkitError(`${name} is trace format version ${JSON.stringify(header.version)}; this mcp-testkit reads version ${TRACE_FORMAT_VERSION} and older. Update mcp-testkit to read it.`);
  }
  const entries: TraceEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const last = i === lines.length - 1 && !text.endsWith("\n");
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (last) break; // cut short by a crash: what came before stands
      throw new McpTestkitError(`${name} line ${i + 1} is not JSON (${errorText(error)}); each line after the header is one trace entry.`);
    }
    entries.push(checkEntry(value, i + 1, name));
  }
  return { header: header as unknown as TraceHeader, entries };
}

/** Reads and parses a trace file. */
export async function readTrace(path: string): Promise<Trace> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new McpTestkitError(`Cannot read the trace ${path}: ${errorText(error)}.`);
  }
  return parseTrace(text, path);
}

function parseLine(line: string, number: number, name: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new McpTestkitError(`${name} line ${number} is not JSON (${errorText(error)}); a trace is JSON Lines, a header then one entry per line.`);
  }
}

function checkEntry(value: unknown, number: number, name: string): TraceEntry {
  const where = `${name} line ${number}`;
  if (!isObject(value)) throw new McpTestkitError(`${where} is not an object; expected a trace entry {"seq","at","from","wire",…}.`);
  if (typeof value.seq !== "number") throw new McpTestkitError(`${where} has no "seq" number; each entry is numbered from 1.`);
  if (typeof value.at !== "number") throw new McpTestkitError(`${where} has no "at" time (milliseconds since 1970, as Date.now() gives).`);
  if (!FROM.has(value.from as string)) throw new McpTestkitError(`${where}: "from" is ${JSON.stringify(value.from)}; expected "client" or "server".`);
  if (typeof value.wire !== "string") throw new McpTestkitError(`${where} has no "wire" ("http", "stdio", "memory", "direct" or "attached").`);
  return value as unknown as TraceEntry;
}
