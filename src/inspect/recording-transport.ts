/**
 * A Transport that wraps another one (the SDK's stdio, Streamable HTTP or in-memory transports,
 * or ours) and feeds every message and error through it into a `TrafficRecorder`. Being a
 * Transport itself, it goes wherever the wrapped one would: `client.connect(transport)` or
 * `server.connect(transport)`.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isResponse } from "../protocol/jsonrpc.js";
import { isJsonTextTransport, SENT, toJsonText, type JsonTextExtra, type JsonTextTransport } from "./json-text.js";
import { TrafficRecorder } from "./recorder.js";
import { InvalidMessageError } from "./strict.js";
import type { MessageRecord, TrafficRecorderOptions } from "./types.js";

export class RecordingTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  /** Errors already recorded, so one failure reported twice (callback and rejection) is one record. */
  private readonly recordedErrors = new WeakSet<object>();
  /** The inner transport, when it takes messages as JSON text (see json-text.ts). */
  private readonly textWire: JsonTextTransport | undefined;

  constructor(
    readonly inner: Transport,
    readonly recorder: TrafficRecorder,
  ) {
    this.textWire = isJsonTextTransport(inner) ? inner : undefined;
  }

  // Some transports only learn their session id after a while (Streamable HTTP), so read it live.
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  set sessionId(value: string | undefined) {
    this.inner.sessionId = value;
  }

  async start(): Promise<void> {
    // Installed here, not in the constructor: until the user has set our callbacks (which the
    // SDK does just before start), a message from the inner transport would have nowhere to go.
    this.inner.onmessage = (message, extra?: JsonTextExtra) => {
      try {
        const jsonText = extra?.jsonText;
        if (jsonText !== undefined && extra?.ownsText === true) this.recorder.recordReceivedText(message, jsonText);
        else this.recorder.recordMessage("incoming", message, jsonText);
      } catch (error) {
        // A failure to record (say, a throwing onProblem) must not swallow the message.
        this.onerror?.(toError(error));
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => {
      this.recordError(error);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    try {
      await this.inner.start();
    } catch (error) {
      this.recordError(error);
      throw error;
    }
  }

  /**
   * Records the message and sends it. Not an async function: a line written at once comes back
   * as `SENT` itself (see json-text.ts), with no promise of its own. Every failure still rejects.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Serialized once, for the record and the wire, when the wire is JSON text.
    const jsonText = this.textWire === undefined ? undefined : toJsonText(message);
    if (jsonText !== undefined && this.recorder.strict !== "throw") return this.sendTextFirst(message, jsonText);
    let record: MessageRecord | undefined;
    let sending: Promise<void>;
    try {
      // Recorded before sending: a peer in the same process may answer within send itself.
      record = this.recorder.recordMessage("outgoing", message, jsonText);
      if (this.recorder.strict === "throw" && record.problems && record.problems.length > 0) {
        const error = new InvalidMessageError({
          method: record.method,
          id: record.id,
          isResponse: isResponse(message),
          protocolVersion: this.recorder.protocolVersion,
          problems: record.problems,
        });
        this.recordError(error, record);
        return Promise.reject(error);
      }
      sending = jsonText === undefined ? this.inner.send(message, options) : this.textWire!.sendJsonText(jsonText);
    } catch (error) {
      if (record !== undefined) this.recordError(error, record);
      return Promise.reject(error);
    }
    return this.afterSending(sending, record);
  }

  /**
   * A text wire's line leaves before it is recorded: the server already works on it while it is
   * copied and validated. Its answer comes from I/O, so never before this returns, and the
   * record still comes first. (Not with `strict: "throw"`, which must check before it sends.)
   */
  private sendTextFirst(message: JSONRPCMessage, jsonText: string): Promise<void> {
    let sending: Promise<void>;
    try {
      sending = this.textWire!.sendJsonText(jsonText);
    } catch (error) {
      sending = Promise.reject(error);
    }
    let record: MessageRecord;
    try {
      record = this.recorder.recordMessage("outgoing", message, jsonText);
    } catch (error) {
      // The message has gone: a failure to record it (a throwing onProblem) is reported, not the send's.
      this.onerror?.(toError(error));
      return sending;
    }
    return this.afterSending(sending, record);
  }

  private afterSending(sending: Promise<void>, record: MessageRecord): Promise<void> {
    if (sending === SENT) return sending;
    return sending.then(undefined, (error: unknown) => {
      this.recordError(error, record);
      throw error;
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Called by the SDK client once `initialize` succeeds; passed on to the wrapped transport. */
  setProtocolVersion(version: string): void {
    this.recorder.setProtocolVersion(version);
    this.inner.setProtocolVersion?.(version);
  }

  private recordError(error: unknown, failed?: Parameters<TrafficRecorder["recordError"]>[1]): void {
    if (typeof error === "object" && error !== null) {
      if (this.recordedErrors.has(error)) return;
      this.recordedErrors.add(error);
    }
    this.recorder.recordError(error, failed);
  }
}

export interface RecordedTraffic {
  /** Give this to `client.connect` or `server.connect` in place of the wrapped transport. */
  transport: RecordingTransport;
  recorder: TrafficRecorder;
}

/**
 * Wraps a transport so that all traffic through it is recorded.
 *
 * @example
 * const { transport, recorder } = recordTraffic(new StdioClientTransport({ command: "node", args: ["server.js"] }));
 * await client.connect(transport);
 * await client.callTool({ name: "echo", arguments: { text: "hi" } });
 * recorder.methodCounts(); // { initialize: 2, "notifications/initialized": 1, "tools/call": 2 }
 */
export function recordTraffic(transport: Transport, options: TrafficRecorderOptions = {}): RecordedTraffic {
  const recorder = new TrafficRecorder(options);
  return { transport: new RecordingTransport(transport, recorder), recorder };
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
