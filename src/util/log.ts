/**
 * The mock's own log: the lines it writes for people (the unknown-tool `"warn"` policy, a
 * listener that threw, fakes' `MCP-FAKE:` lines when asked for, observer diagnostics, a mounted handler's body
 * that failed mid-way). One sink, so a test can capture or silence them and a CLI can route them.
 */
import { errorText } from "./text.js";

export type LogLevel = "error" | "warn" | "info";

/** Where the mock's lines go: `(level, line) => void`. */
export type LogSink = (level: LogLevel, line: string) => void;

/** The default: every line on stderr (`console.error` for errors, `console.warn` for the rest). */
export const logToStderr: LogSink = (level, line) => {
  if (level === "error") console.error(line);
  else console.warn(line);
};

/**
 * `sink`, contained: a logger that throws must not change what a client gets, and its line must
 * not be lost, so that line goes to stderr with a note of why.
 */
export function containedLog(sink: LogSink): LogSink {
  if (sink === logToStderr) return sink;
  let reported = false;
  return (level, line) => {
    try {
      sink(level, line);
    } catch (error) {
      const note = reported ? "" : ` (the mock's logger threw: ${errorText(error)}; its lines go to stderr when it throws)`;
      reported = true;
      logToStderr(level, `${line}${note}`);
    }
  };
}
