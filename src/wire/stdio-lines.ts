/**
 * Newline-delimited framing for the stdio wire: bytes in, complete lines out. A line longer
 * than the cap is reported once, as soon as it crosses the cap, and its remaining bytes are
 * skipped up to the next newline, so a client that never sends a newline cannot make the mock
 * buffer without end.
 */

/** The SDK's cap for one stdio message (`STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineHandlers {
  /** A complete line, without its `\n` (and without a `\r` before it). */
  line(text: string): void;
  /** A line crossed `maxLineBytes`; it is dropped. */
  oversized(): void;
}

export class LineSplitter {
  private pieces: Buffer[] = [];
  private size = 0;
  /** Inside an oversized line: bytes are dropped until the next newline. */
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly handlers: LineHandlers,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping) {
        if (newline !== -1) this.skipping = false;
      } else if (this.size + (end - start) > this.maxLineBytes) {
        this.pieces = [];
        this.size = 0;
        this.skipping = newline === -1;
        this.handlers.oversized();
      } else if (newline === -1) {
        this.pieces.push(chunk.subarray(start, end));
        this.size += end - start;
      } else {
        const tail = chunk.subarray(start, end);
        const whole = this.pieces.length === 0 ? tail : Buffer.concat([...this.pieces, tail]);
        this.pieces = [];
        this.size = 0;
        this.handlers.line(decodeLine(whole));
      }
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** The input ended: a last line without a newline still counts. */
  finish(): void {
    if (this.skipping || this.size === 0) {
      this.reset();
      return;
    }
    const whole = Buffer.concat(this.pieces);
    this.reset();
    this.handlers.line(decodeLine(whole));
  }

  private reset(): void {
    this.pieces = [];
    this.size = 0;
    this.skipping = false;
  }
}

function decodeLine(bytes: Buffer): string {
  // A newline byte never occurs inside a multi-byte UTF-8 sequence, so decoding per line is safe.
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  return bytes.toString("utf8", 0, end);
}
