/**
 * A trace file being written: JSON Lines, the header at once, then each entry as it comes. Lines
 * are gathered for at most 20 ms (or 64 KiB) and written together with one synchronous write, so
 * a busy mock pays one system call per burst, not one per message; on process exit (an uncaught
 * exception included) what is gathered is written, so a crash keeps what came before.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { McpTestkitError } from "../errors.js";
import { errorText } from "../util/text.js";
import type { TraceHeader, TraceLine } from "./entry.js";

/** How long lines wait, and how much text, before they are written. */
const FLUSH_MS = 20;
const FLUSH_CHARS = 64 * 1024;

/** Files open in this process, written out on exit. One listener serves them all. */
const openFiles = new Set<TraceFile>();
let exitHookInstalled = false;

function flushAllOnExit(): void {
  for (const file of openFiles) file.flush();
}

export class TraceFile {
  private fd: number | undefined;
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled = false;

  /** Creates (or truncates) `path`, its folder too, and writes the header line. */
  constructor(
    readonly path: string,
    header: TraceHeader,
  ) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, "w");
    } catch (error) {
      throw new McpTestkitError(`Cannot write the trace file ${path}: ${errorText(error)}. Name a file in a folder you can write to.`);
    }
    writeSync(this.fd, `${JSON.stringify(header)}\n`);
    openFiles.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", flushAllOnExit);
    }
  }

  /** Adds one line; it reaches the file at the end of this turn of the event loop. */
  write(line: TraceLine): void {
    if (this.fd === undefined) return;
    const text = JSON.stringify(line);
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) return this.flush();
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(this.flushLater, FLUSH_MS).unref();
  }

  private readonly flushLater = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** Writes every gathered line now. */
  flush(): void {
    if (this.fd === undefined || this.pending.length === 0) return;
    const text = `${this.pending.join("\n")}\n`;
    this.pending = [];
    this.pendingChars = 0;
    try {
      writeSync(this.fd, text);
    } catch {
      // A full disk or a vanished folder must not break the traffic being traced: the file stops.
      this.close();
    }
  }

  /** Writes what is gathered and closes the file; later lines are ignored. */
  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    const fd = this.fd;
    this.fd = undefined;
    openFiles.delete(this);
    closeSync(fd);
  }
}
