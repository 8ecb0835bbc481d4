/**
 * The legacy era (`initialize`, 2024-11-05 to 2025-11-25): a call is one request; the server asks
 * the client with requests of its own, answered by the call they belong to (its own
 * `onServerRequest`) or by the driver's handlers; nothing is added to `_meta`; a request given up
 * is cancelled with `notifications/cancelled` (the session sends it).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CallHandlers } from "./call-handlers.js";
import type { Era } from "./era.js";
import type { JsonObject, RequestSpec, ServerRequestContext } from "./request-types.js";
import type { ServerRequestAnswers } from "./server-requests.js";
import type { RpcChannel } from "./rpc-channel.js";
import { legacyTaskWire } from "./task-wire.js";

export class LegacyEra implements Era {
  readonly tasks = legacyTaskWire;

  constructor(
    private readonly channel: RpcChannel,
    private readonly answers: ServerRequestAnswers,
    private readonly calls: CallHandlers,
  ) {}

  send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    return this.calls.during(spec, (sent) => this.channel.request(method, params, sent));
  }

  answerServerRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    const call = this.calls.owner(method);
    if (call === undefined) return this.answers.answer(method, params, context);
    // The server waits on the call's handler now, not the other way round: its timeout waits too.
    const release = call.id === undefined ? undefined : this.channel.holdDeadline(call.id);
    return this.answers.answerFor(call.handler, method, params, context).finally(release);
  }

  requestMeta(): undefined {
    return undefined;
  }

  cancel(): boolean {
    return false;
  }

  acceptTools(tools: Tool[]): Tool[] {
    return tools;
  }

  beforeListFetch(): undefined {
    return undefined;
  }
}
