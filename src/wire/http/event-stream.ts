/**
 * A logical SSE stream: the events of one POST's answer, or of a session's standalone GET
 * stream. Events are kept (bounded) with ids of the form `<stream>_<seq>`, so a client whose
 * connection closed can resume with `Last-Event-ID` and get exactly the events it missed,
 * from this stream only. The HTTP connection carrying it (the sink) may come and go.
 */
import type { StreamCloseReason } from "../../engine/events.js";
import type { SocketConnection, StreamSink } from "./exchange.js";

/** Events kept per stream for resumption. */
const MAX_STORED_EVENTS = 1000;

interface StoredEvent {
  seq: number;
  frame: string;
}

export function formatEvent(id: string | undefined, data: string): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${data}\n\n`;
}

/** Hears an event stream's connections open and close (the mock's `stream:*` events). */
export interface StreamObserver {
  opened(stream: EventStream): void;
  closed(stream: EventStream, reason: StreamCloseReason): void;
  /** Whether anyone listens for closes (a sink is watched for its client leaving only then). */
  watchesClose(): boolean;
}

export class EventStream {
  private readonly events: StoredEvent[] = [];
  private seq = 0;
  /** Highest seq written to a sink; a fresh (non-resuming) attach replays what came after it. */
  private delivered = 0;
  private sink?: StreamSink;
  /** Message events written on the current sink, for `closeAfterEvents`. */
  private writtenOnSink = 0;
  finished = false;
  /** A step cut it (`closeAfterEvents`) and it cannot be resumed: nothing more goes on it. */
  cutShort = false;
  /** Told when it is cut short (its requests still unanswered never will be). */
  onCut?: () => void;
  closeAfterEvents?: number;
  retryMs?: number;

  constructor(
    readonly id: string,
    /** Whether events carry ids, so a client can resume. */
    readonly resumable: boolean,
    /** Whether each connection starts with a priming event (an id, empty data): 2025-11-25 and later. Default: when resumable. */
    private readonly priming?: () => boolean,
    /** Called when the finished stream's last events and its end went out on a live connection. */
    private readonly onDelivered?: (stream: EventStream, connection: SocketConnection) => void,
    private readonly observer?: StreamObserver,
  ) {}

  get attached(): boolean {
    return this.sink !== undefined && !this.sink.closed;
  }

  /** Connects a response body; replays the events after `afterSeq` (default: those never delivered). */
  attach(sink: StreamSink, afterSeq: number = this.delivered): void {
    this.sink = sink;
    this.writtenOnSink = 0;
    if (this.observer !== undefined) this.observe(sink, this.observer);
    if (this.resumable && (this.priming?.() ?? true)) sink.write(`id: ${this.id}_${afterSeq}\n${this.retryMs === undefined ? "" : `retry: ${this.retryMs}\n`}data: \n\n`);
    for (const event of this.events) if (event.seq > afterSeq && this.sink === sink) this.writeToSink(event);
    if (this.finished) this.endFinished();
  }

  /** Adds a message event (a JSON text) and writes it if a connection is attached. */
  push(data: string): void {
    const seq = ++this.seq;
    const event = { seq, frame: formatEvent(this.resumable ? `${this.id}_${seq}` : undefined, data) };
    if (this.resumable) {
      this.events.push(event);
      if (this.events.length > MAX_STORED_EVENTS) this.events.shift();
    }
    if (this.attached) this.writeToSink(event);
  }

  /** Ends the current connection after `count` message events on it: now, if that many went out already (0: right after the priming event). */
  closeAfter(count: number): void {
    this.closeAfterEvents = count;
    if (this.attached && this.writtenOnSink >= count && !this.finished) this.cut();
  }

  /** Tells the client a new reconnection delay (an SSE `retry:` field); a stream that cannot be resumed (2026-07-28) gets none. */
  setRetry(ms: number): void {
    this.retryMs = ms;
    if (this.attached && this.resumable) this.sink!.write(`retry: ${ms}\n\n`);
  }

  /** Writes bytes as they are (a raw step), outside the event framing. */
  writeRaw(text: string): void {
    if (this.attached) this.sink!.write(text);
  }

  /** No more events will come: end the connection once everything is written (`reason`: why, for observers). */
  finish(reason: StreamCloseReason = "completed"): void {
    this.finished = true;
    this.endFinished(reason);
  }

  /** Ends the current connection without finishing (the client may resume). */
  detach(): void {
    this.endSink("closed_for_resumption");
  }

  /** Reports this connection's opening, and its close by the client if anyone listens for that. */
  private observe(sink: StreamSink, observer: StreamObserver): void {
    observer.opened(this);
    if (observer.watchesClose()) {
      sink.watchClose?.(() => {
        if (this.sink === sink) {
          this.sink = undefined;
          observer.closed(this, "client_disconnected");
        }
      });
    }
  }

  private writeToSink(event: StoredEvent): void {
    const sink = this.sink!;
    sink.write(event.frame);
    if (event.seq > this.delivered) this.delivered = event.seq;
    this.writtenOnSink++;
    if (this.closeAfterEvents !== undefined && this.writtenOnSink >= this.closeAfterEvents && !this.finished) this.cut();
  }

  /**
   * Closes the connection early, once, as the step asked: a client resumes a stream with event
   * ids (later connections stay open); one without them is over, what it had not carried lost.
   */
  private cut(): void {
    this.closeAfterEvents = undefined;
    if (this.resumable) return this.endSink("closed_for_resumption");
    this.finished = true;
    this.cutShort = true;
    this.endSink("cut_by_step");
    this.onCut?.();
  }

  /** Ends the connection of a finished stream; a live one carried everything, so the stream was delivered. */
  private endFinished(reason: StreamCloseReason = "completed"): void {
    const sink = this.sink;
    const live = this.attached;
    this.endSink(reason);
    if (live) this.onDelivered?.(this, sink!.connection);
  }

  private endSink(reason: StreamCloseReason): void {
    const sink = this.sink;
    this.sink = undefined;
    if (sink === undefined) return;
    const wasOpen = !sink.closed;
    sink.end();
    if (this.observer !== undefined) this.observer.closed(this, wasOpen ? reason : "client_disconnected");
  }
}

/** Reads `<stream>_<seq>` from a Last-Event-ID header. */
export function parseEventId(value: string): { streamId: string; seq: number } | undefined {
  const at = value.lastIndexOf("_");
  if (at <= 0) return undefined;
  const seq = Number(value.slice(at + 1));
  return Number.isInteger(seq) && seq >= 0 ? { streamId: value.slice(0, at), seq } : undefined;
}
