/**
 * The stdio wire: the engine served over a pair of byte streams (by default the process's stdin
 * and stdout) as newline-delimited JSON, one session per process, so an agent that spawns its
 * MCP servers can be pointed at a mock. stdout carries only protocol messages: nothing here
 * writes anything else there, and whatever is meant for people belongs on stderr.
 *
 * Outcomes: `reply` is one line; `none` is nothing; `raw` is the step's bytes as one line;
 * `drop` ends the output (the client sees EOF) and ends the session as disconnected. When the
 * input ends the session ends too (calls still pending end as `disconnected`), and the wire
 * tells its owner through `onEnd` / `ended`, so a process can exit.
 */
import type { Readable, Writable } from "node:stream";
import type { Engine } from "../engine/engine.js";
import type { WireOutcome } from "../engine/outcome.js";
import type { Connection } from "../engine/connection.js";
import { requestContext, wireFacts } from "../engine/request-context.js";
import { McpTestkitError } from "../errors.js";
import { ErrorCode } from "../protocol/errors.js";
import { errorResponse } from "../protocol/jsonrpc.js";
import type { ServedWire } from "./served-wire.js";
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from "./stdio-lines.js";
import { errorText } from "../util/text.js";

export { DEFAULT_MAX_LINE_BYTES } from "./stdio-lines.js";

/** Why a stdio wire ended by itself. */
export type StdioEndReason =
  /** The client closed its end (stdin ended or failed). */
  | "input-ended"
  /** A `disconnect` step dropped the connection. */
  | "dropped"
  /** Writing to the client failed (it stopped reading: EPIPE and the like). */
  | "output-failed";

export interface StdioWireOptions {
  /** Where client messages come from (default `process.stdin`). */
  input?: Readable;
  /** Where messages to the client go (default `process.stdout`). Only protocol messages are written. */
  output?: Writable;
  /** The longest line accepted, in bytes (default 10 MiB, like the SDK); a longer one gets a -32600 reply. */
  maxLineBytes?: number;
  /** Called once when the wire ends by itself (not when the mock is closed). */
  onEnd?: (reason: StdioEndReason) => void;
}

export interface StdioWire extends ServedWire {
  /** The engine's id for the one session (`call.sessionId`); reading it opens the session if the client has not spoken yet. */
  readonly sessionId: string;
  /** Resolves when the wire ends: by itself (with the reason) or by `close()` (`"closed"`). */
  readonly ended: Promise<StdioEndReason | "closed">;
}

/** Serves `engine` on a stream pair, starting now. */
export function serveStdio(engine: Engine, options: StdioWireOptions = {}): StdioWire {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new McpTestkitError(`stdio.maxLineBytes must be a whole number of bytes, 1 or more, got ${String(maxLineBytes)}.`);
  }
  return new StdioConnection(engine, options, maxLineBytes);
}

const STDIO = wireFacts("stdio");

const END_REASONS: Record<StdioEndReason, string> = {
  "input-ended": "the client closed the connection (stdin ended)",
  dropped: "the mock dropped the connection (disconnect step)",
  "output-failed": "the client stopped reading (writing to stdout failed)",
};

class StdioConnection implements StdioWire {
  readonly url = undefined;
  readonly ended: Promise<StdioEndReason | "closed">;
  private resolveEnded!: (reason: StdioEndReason | "closed") => void;
  private readonly input: Readable;
  private readonly output: Writable;
  /** The process's own stdout is never ended: other code may still log to it after the mock. */
  private readonly endsOutput: boolean;
  #connection: Connection | undefined;
  private readonly splitter: LineSplitter;
  /** `ending`: the input ended; replies already worked out may still be written. */
  private state: "open" | "ending" | "closed" = "open";

  constructor(
    private readonly engine: Engine,
    private readonly options: StdioWireOptions,
    maxLineBytes: number,
  ) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.endsOutput = this.output !== process.stdout && this.output !== process.stderr;
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.splitter = new LineSplitter(maxLineBytes, {
      line: (text) => this.receive(text),
      oversized: () =>
        this.writeLine(
          JSON.stringify(
            errorResponse(null, {
              code: ErrorCode.InvalidRequest,
              message: `Invalid Request: a message line is longer than ${maxLineBytes} bytes; it was discarded. Send one JSON-RPC message per line, under the limit.`,
            }),
          ),
        ),
    });
    this.input.on("data", this.onData);
    this.input.on("end", this.onInputEnd);
    this.input.on("close", this.onInputEnd);
    this.input.on("error", this.onInputEnd);
    this.output.on("error", this.onOutputError);
  }

  get sessionId(): string {
    return this.connection.id;
  }

  /**
   * The one session, opened when first needed (the first message, usually): the wire starts
   * inside mockMcp(), so a session opened there would be told to no `session:open` listener.
   */
  private get connection(): Connection {
    return (this.#connection ??= this.engine.openConnection({ send: (text) => this.writeLine(text) }, "stdio"));
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.shutDown("cancelled", "the mock server closed");
    this.resolveEnded("closed");
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.state !== "open") return;
    this.splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };

  private readonly onInputEnd = (): void => {
    if (this.state !== "open") return;
    this.splitter.finish();
    this.state = "ending";
    // Let answers that are already settled (a `printf ... | mcp-testkit mock --stdio` smoke
    // test) reach the output first; calls still pending then end as disconnected.
    setImmediate(() => this.endByItself("input-ended"));
  };

  private readonly onOutputError = (): void => {
    this.endByItself("output-failed");
  };

  private receive(text: string): void {
    if (text.trim() === "") return;
    Promise.resolve(this.engine.receiveText(this.connection, text, requestContext(this.connection, STDIO))).then(
      (outcome) => this.enact(outcome),
      (error: unknown) =>
        // The engine turns every bad input into a reply; this is for a bug of ours, so say so.
        this.writeLine(JSON.stringify(errorResponse(null, { code: ErrorCode.InternalError, message: `Internal error in mcp-testkit: ${errorText(error)}` }))),
    );
  }

  private enact(outcome: WireOutcome): void {
    switch (outcome.type) {
      case "reply":
        this.writeLine(outcome.text);
        return;
      case "raw":
        // Framed as a line so the messages after it still arrive whole.
        this.writeLine(outcome.text.endsWith("\n") ? outcome.text.slice(0, -1) : outcome.text);
        return;
      case "drop":
        this.endByItself("dropped");
        return;
      case "none":
        return;
    }
  }

  private writeLine(text: string): void {
    if (this.state === "closed" || this.output.writableEnded || this.output.destroyed) return;
    this.output.write(`${text}\n`);
  }

  private endByItself(reason: StdioEndReason): void {
    if (this.state === "closed") return;
    this.shutDown("disconnected", END_REASONS[reason]);
    this.resolveEnded(reason);
    this.options.onEnd?.(reason);
  }

  private shutDown(outcome: "cancelled" | "disconnected", reason: string): void {
    this.state = "closed";
    this.input.off("data", this.onData);
    this.input.off("end", this.onInputEnd);
    this.input.off("close", this.onInputEnd);
    this.input.off("error", this.onInputEnd);
    this.input.on("error", ignore);
    // Stop reading, so the process's stdin no longer keeps the event loop alive.
    this.input.pause();
    // A client that never spoke opened no session: there is none to close (and none to tell of).
    if (this.#connection !== undefined) this.engine.closeConnection(this.#connection, outcome, reason);
    if (this.endsOutput && !this.output.writableEnded) this.output.end();
    // Keep swallowing late stream errors (EPIPE after the client left) instead of crashing.
    this.output.off("error", this.onOutputError);
    this.output.on("error", ignore);
  }
}

function ignore(): void {}
