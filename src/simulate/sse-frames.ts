/**
 * SSE capture for the simulator: the body's text is cut into whole events (each ends at a blank
 * line), so every item keeps its exact bytes as the server wrote them, and each event is parsed
 * by eventsource-parser (the parser the SDK's own client uses) into a message, a comment
 * (keep-alive) or an event without data (a priming event, 2025-11-25).
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";

export type SseFrame = { kind: "event"; event: EventSourceMessage; encoded: string } | { kind: "comment"; comment: string; encoded: string };

/** The end of the first whole event in `text` (just past its blank line), or -1. */
function eventEnd(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char !== "\n" && char !== "\r") continue;
    // A line break; the event ends if the next line is empty.
    const next = char === "\r" && text[index + 1] === "\n" ? index + 2 : index + 1;
    if (next >= text.length) return -1;
    const after = text[next];
    if (after === "\n") return next + 1;
    if (after === "\r") return text[next + 1] === "\n" ? next + 2 : next + 1 < text.length ? next + 1 : -1;
  }
  return -1;
}

/** Cuts an SSE byte stream into frames, event by event. */
export class SseFramer {
  private buffer = "";
  private readonly decoder = new TextDecoder();
  private pending: SseFrame[] = [];
  private current = "";
  private readonly parser = createParser({
    onEvent: (event) => this.pending.push({ kind: "event", event, encoded: this.current }),
    onComment: (comment) => this.pending.push({ kind: "comment", comment, encoded: this.current }),
  });

  /** Feeds a chunk (bytes, or text as a mock writes it); returns the events it completed. */
  push(chunk: Uint8Array | string): SseFrame[] {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const frames: SseFrame[] = [];
    for (;;) {
      const end = eventEnd(this.buffer);
      if (end === -1) return frames;
      this.current = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end);
      this.parser.feed(this.current);
      frames.push(...this.pending);
      this.pending = [];
    }
  }

  /** Text after the last whole event when the stream ended (an unterminated event). */
  get rest(): string {
    return this.buffer + this.decoder.decode();
  }
}
