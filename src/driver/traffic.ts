/**
 * `driver.traffic`: what the driver recorded of the conversation, both ways: every message, the
 * schema problems found in what the server sent, and the protocol failures (output that is not
 * JSON-RPC, responses to no request).
 */
import type { TrafficRecorder } from "../inspect/recorder.js";
import type { TrafficProblem, TrafficRecord } from "../inspect/types.js";
import { ProtocolError, type ProcessContext } from "./errors.js";
import type { RpcChannel } from "./rpc-channel.js";
import type { DriverMessageEvent, MessageTap } from "./message-tap.js";
import { McpTestkitError } from "../errors.js";
import type { TraceLog } from "../trace/trace-log.js";

export class DriverTraffic {
  constructor(
    private readonly channel: RpcChannel,
    private readonly processContext: () => ProcessContext | undefined,
    private readonly tap: MessageTap,
    private readonly traceLog?: TraceLog,
  ) {}

  /** The trace (the driver's `trace` option): every message both ways, grouped by call; undefined when off. */
  get trace(): TraceLog | undefined {
    return this.traceLog;
  }

  /**
   * Listens to every message sent or received, as it goes (`message`); returns a function that
   * stops listening. A listener runs synchronously and must not block; one that throws is
   * contained. An async listener is not awaited: one with 1,000 promises unsettled misses events
   * until it catches up (`droppedEvents` counts them). Nothing is built while nobody listens.
   */
  on(event: "message", listener: (event: DriverMessageEvent) => void): () => void {
    if (event !== "message") throw new McpTestkitError(`driver.traffic.on(${JSON.stringify(event)}): the one event is "message".`);
    if (typeof listener !== "function") throw new McpTestkitError('driver.traffic.on("message", listener): the listener must be a function.');
    return this.tap.events.on("message", listener);
  }

  /** Events an async `message` listener missed because it was too far behind. */
  get droppedEvents(): number {
    return this.tap.events.dropped;
  }

  /** The recorder that saw every message both ways, with methods, latencies and problems. */
  get recorder(): TrafficRecorder {
    return this.channel.recorder;
  }

  /** Every message recorded, both ways, oldest first. */
  get messages(): TrafficRecord[] {
    return this.channel.recorder.messages;
  }

  /** Schema problems found in messages from the server (in results, notifications and requests). */
  get problems(): TrafficProblem[] {
    return this.channel.recorder.problems.filter((problem) => problem.direction === "incoming");
  }

  /**
   * Protocol failures seen (output that is not JSON-RPC, responses to no request), oldest first.
   * The first ones are kept (a server writing garbage in a loop must not fill the memory);
   * `protocolErrorCount` counts them all.
   */
  get protocolErrors(): ProtocolError[] {
    return [...this.channel.protocolErrors];
  }

  /** How many protocol failures were seen, kept or not. */
  get protocolErrorCount(): number {
    return this.channel.protocolErrorCount;
  }

  /** Throws the first protocol failure, or a `ProtocolError` listing every schema problem in what the server sent. */
  assertNoProtocolError(): void {
    this.channel.throwIfBroken();
    const problems = this.problems;
    if (problems.length > 0) {
      throw new ProtocolError(
        `The server sent ${problems.length} message problem${problems.length === 1 ? "" : "s"}:\n` +
          problems
            .map((problem) => `  - ${problem.method ?? "(no method)"}${problem.id === undefined ? "" : ` (id ${JSON.stringify(problem.id)})`} ${problem.path}: ${problem.message} [${problem.rule}]`)
            .join("\n"),
        { problems, process: this.processContext() },
      );
    }
  }
}
