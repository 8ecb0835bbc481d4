/**
 * The in-memory wire: a transport of the SDK's `Transport` shape, connected to the engine in
 * the same process. Every message is serialized to JSON and parsed again on the way, in both
 * directions, so the client never shares an object with the mock and serialization bugs
 * (a BigInt, a Date, a cycle) show up here as they would on a real wire.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../engine/engine.js";
import type { WireOutcome } from "../engine/outcome.js";
import type { Connection } from "../engine/connection.js";
import { requestContext, wireFacts, type RequestFacts, type RequestIdentity } from "../engine/request-context.js";
import { typeLabel } from "../util/text.js";
import { checkKeys, checkValueKinds } from "../engine/spec-checks.js";
import { McpTestkitError } from "../errors.js";

const MEMORY = wireFacts("memory");

/**
 * Who an in-memory client is, for scenario fakes: what an HTTP client sends as `X-Test-Id`,
 * `X-Test-Context` and `X-Test-Undeclared`. It holds for every message of the connection.
 */
export interface MemoryIdentity {
  testId?: string;
  context?: string;
  undeclared?: "allow" | "deny";
}

const IDENTITY_KINDS = { testId: "string", context: "string", undeclared: "string" } as const;

/** The request facts of a connection with this identity (none without one, so calls record no identity). */
export function memoryFacts(identity: unknown): RequestFacts | undefined {
  if (identity === undefined) return undefined;
  const where = "connectInMemory(identity)";
  if (typeof identity !== "object" || identity === null || Array.isArray(identity))
    throw new McpTestkitError(`${where}: expected an object { testId?, context?, undeclared? }, got ${typeLabel(identity)}.`);
  checkKeys(identity, Object.keys(IDENTITY_KINDS), where);
  checkValueKinds(identity as Record<string, unknown>, IDENTITY_KINDS, where);
  const { testId, context, undeclared } = identity as MemoryIdentity;
  for (const [key, value] of Object.entries({ testId, context })) {
    if (value === "") throw new McpTestkitError(`${where}: "${key}" is an empty string; leave it out for none (an empty header counts as not sent too).`);
  }
  if (undeclared !== undefined && undeclared !== "allow" && undeclared !== "deny") throw new McpTestkitError(`${where}: "undeclared" must be "allow" or "deny", got ${JSON.stringify(undeclared)}.`);
  const fields: RequestIdentity = { ...(testId !== undefined && { testId }), ...(context !== undefined && { context }), ...(undeclared !== undefined && { undeclared }) };
  return Object.keys(fields).length === 0 ? undefined : { identity: Object.freeze(fields) };
}

export class MemoryTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly connection: Connection;
  private started = false;
  private closed = false;
  /** Server messages sent before the client started listening, delivered on `start()`. */
  private backlog: string[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly onClosed?: (transport: MemoryTransport) => void,
    /** The connection's identity for every message (see `memoryFacts`). */
    private readonly facts?: RequestFacts,
  ) {
    this.connection = engine.openConnection({ send: (text) => this.deliver(text) }, "memory");
  }

  /** The engine's id for this connection's session (`call.sessionId`). */
  get mockSessionId(): string {
    return this.connection.id;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("MemoryTransport already started");
    this.started = true;
    const backlog = this.backlog;
    this.backlog = [];
    for (const text of backlog) this.emit(text);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("MemoryTransport is closed");
    const text = JSON.stringify(message);
    const outcome = this.engine.receiveText(this.connection, text, requestContext(this.connection, MEMORY, this.facts));
    if (outcome instanceof Promise) {
      outcome.then(
        (settled) => this.enact(settled),
        (error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))),
      );
    } else this.enact(outcome);
  }

  async close(): Promise<void> {
    this.shutDown("disconnected", "the client closed the connection");
  }

  /** Closes from the server's side (mock closing): in-flight calls end as `cancelled`. */
  closeFromServer(reason: string): void {
    this.shutDown("cancelled", reason);
  }

  /** Enacts an outcome; the client hears of it asynchronously, like a real peer's answer, never inside `send`. */
  private enact(outcome: WireOutcome): void {
    if (this.closed) return;
    if (outcome.type === "reply") this.deliver(outcome.text);
    else if (outcome.type === "raw") this.deliver(outcome.text);
    else if (outcome.type === "drop") queueMicrotask(() => this.shutDown("disconnected", "the mock dropped the connection (disconnect step)"));
  }

  private deliver(text: string): void {
    if (this.closed) return;
    if (!this.started) this.backlog.push(text);
    else queueMicrotask(() => this.emit(text));
  }

  private emit(text: string): void {
    if (this.closed) return;
    try {
      this.onmessage?.(JSON.parse(text) as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private shutDown(outcome: "cancelled" | "disconnected", reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.closeConnection(this.connection, outcome, reason);
    this.onClosed?.(this);
    this.onclose?.();
  }
}
