/** Strict mode: checking recorded messages with the per-version validator, and the error it throws. */
import { McpTestkitError } from "../errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { validateMessage, type ValidateMessageOptions } from "../protocol/validate/index.js";
import type { MessageProblem, TrafficSide, WireDirection } from "./types.js";

/** The schema direction of a message, which depends on which side's transport is wrapped. */
export function wireDirection(side: TrafficSide, direction: "outgoing" | "incoming"): WireDirection {
  const fromClient = (side === "client") === (direction === "outgoing");
  return fromClient ? "client-to-server" : "server-to-client";
}

export interface MessageCheck {
  side: TrafficSide;
  direction: "outgoing" | "incoming";
  protocolVersion: string | undefined;
  /** For a response: the method of the request it answers (the validator checks results by method). */
  requestMethod: string | undefined;
  /** The HTTP headers the message came with, when the wire is Streamable HTTP and they are known. */
  headers?: MessageHeaders;
  /** The tools a `tools/list` gave (for `Mcp-Param-*` headers). */
  tools?: Iterable<{ readonly name: string; readonly inputSchema?: unknown }>;
  /** The session id the server gave (legacy Streamable HTTP). */
  sessionId?: string;
}

/** HTTP headers as the recorder takes them: a `Headers`, or a record with names in any case. */
export type MessageHeaders = NonNullable<ValidateMessageOptions["headers"]>;

export function checkMessage(message: unknown, check: MessageCheck): MessageProblem[] {
  return validateMessage(message, {
    direction: wireDirection(check.side, check.direction),
    protocolVersion: check.protocolVersion,
    requestMethod: check.requestMethod,
    ...(check.headers !== undefined && { headers: check.headers, tools: check.tools, sessionId: check.sessionId }),
  });
}

/** Thrown by `send` with `strict: "throw"` when the outgoing message breaks the MCP schema. */
export class InvalidMessageError extends McpTestkitError {
  override name = "InvalidMessageError";
  readonly method: string | undefined;
  readonly id: JsonRpcId | null | undefined;
  readonly protocolVersion: string | undefined;
  readonly problems: readonly MessageProblem[];

  constructor(details: {
    method: string | undefined;
    id: JsonRpcId | null | undefined;
    isResponse: boolean;
    protocolVersion: string | undefined;
    problems: readonly MessageProblem[];
  }) {
    const what = `${details.method ?? "unknown method"} ${details.isResponse ? "response" : "message"}`;
    const which = details.id === undefined ? "" : ` (id ${JSON.stringify(details.id)})`;
    const version = details.protocolVersion === undefined ? "" : ` ${details.protocolVersion}`;
    const lines = details.problems.map((p) => `  - ${p.path || "(message)"}: ${p.message} [${p.rule}]`);
    super(
      `strict mode did not send the outgoing ${what}${which}: it breaks the MCP${version} schema.\n` +
        `${lines.join("\n")}\n` +
        `Fix the message, or use strict: true to record problems without refusing to send.`,
    );
    this.method = details.method;
    this.id = details.id;
    this.protocolVersion = details.protocolVersion;
    this.problems = details.problems;
  }
}
