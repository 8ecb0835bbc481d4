/**
 * 2026-07-28, spoken per request: every request carries the version, client info and
 * capabilities in its `_meta`; a server asks for input in `input_required` results (MRTR), which
 * the driver answers and retries, rather than in requests of its own (refused here as unknown);
 * over HTTP a request is cancelled by closing its stream, a tool call carries `Mcp-Param-*`
 * headers made from the tool's schema, and list changes come through a subscription the driver
 * opens itself (list-changes.ts).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { isInputMethod } from "../protocol/methods.js";
import { RpcError } from "../protocol/rpc-error.js";
import type { DiscoverNegotiation } from "./discover-negotiation.js";
import type { Era, SpokenVersion } from "./era.js";
import { RequestTimeoutError, type ProcessContext } from "./errors.js";
import { withInputRounds } from "./input-rounds.js";
import type { ListCache } from "./list-cache.js";
import type { ListChangeFollower } from "./list-changes.js";
import type { ModernHttpFetch } from "./modern-http.js";
import { abortedBeforeSending } from "./request-errors.js";
import type { JsonObject, RequestSpec, ServerRequestContext } from "./request-types.js";
import type { ServerRequestAnswers } from "./server-requests.js";
import type { RpcChannel } from "./rpc-channel.js";
import { ExtensionTaskWire } from "./task-wire.js";
import { onAbort } from "../util/on-abort.js";

export interface ModernEraParts {
  channel: RpcChannel;
  discovery: DiscoverNegotiation;
  /** What the negotiated version has (the version table). */
  spoken: SpokenVersion;
  answers: ServerRequestAnswers;
  lists: ListCache;
  /** Undefined with `followListChanges: false`. */
  listChanges: ListChangeFollower | undefined;
  /** Streamable HTTP only. */
  http: ModernHttpFetch | undefined;
  maxInputRounds: number;
  requestTimeout: number;
  /** Aborts when the driver closes: what waits on the caller between input rounds stops then. */
  closing: AbortSignal;
  processContext: () => ProcessContext | undefined;
}

export class ModernEra implements Era {
  readonly tasks: ExtensionTaskWire;

  constructor(private readonly parts: ModernEraParts) {
    this.tasks = new ExtensionTaskWire(() => parts.discovery.requestMeta());
  }

  send(method: string, params: JsonObject | undefined, spec: RequestSpec): Promise<JsonObject> {
    if (!isInputMethod(method) || !this.parts.spoken.has("mrtr")) return this.parts.channel.request(method, params, spec);
    return this.sendWithInputRounds(method, params ?? {}, spec);
  }

  /** No server-to-client requests in this revision (a server asks for input in a result); while the probe runs, answered as ever. */
  answerServerRequest(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    const version = this.parts.discovery.result?.protocolVersion;
    if (version === undefined || this.parts.spoken.has("serverRequests")) return this.parts.answers.answer(method, params, context);
    return Promise.reject(
      new RpcError(
        ErrorCode.MethodNotFound,
        `mcp-testkit: ${version} has no server-to-client requests (a server asks for input in an input_required result), so this client does not answer ${method}`,
      ),
    );
  }

  requestMeta(): JsonObject | undefined {
    return this.parts.discovery.requestMeta();
  }

  cancel(id: JsonRpcId, reason: string): boolean {
    return this.parts.http?.closeStream(id, reason) ?? false;
  }

  /** Over HTTP: the tools' schemas are kept for the Mcp-Param-* headers, and a tool with an invalid x-mcp-header is left out. */
  acceptTools(tools: Tool[]): Tool[] {
    const http = this.parts.http;
    return http === undefined || !this.parts.spoken.has("requestHeaders") ? tools : http.acceptTools(tools);
  }

  /**
   * Makes sure the lists are followed (see list-changes.ts). Its listen request goes out before
   * the list's (both wait for the same handshake).
   */
  beforeListFetch(): Promise<void> | undefined {
    const { listChanges, discovery, spoken, closing } = this.parts;
    if (listChanges === undefined) return undefined;
    const start = (): Promise<void> | undefined => (spoken.has("subscriptionsListen") && !closing.aborted ? listChanges.follow(discovery.result!.capabilities) : undefined);
    const ready = discovery.ready();
    // A failed handshake fails the list's own request; here there is nothing to follow.
    return ready instanceof Promise ? ready.then(start, () => undefined) : start();
  }

  private async sendWithInputRounds(method: string, params: JsonObject, spec: RequestSpec): Promise<JsonObject> {
    const { channel, answers, http, lists, closing, processContext } = this.parts;
    const label = spec.label ?? method;
    const timeoutMs = spec.timeoutMs ?? this.parts.requestTimeout;
    // Mcp-Param-* headers come from the tool's schema, so over HTTP the tools are listed first (again after a list_changed).
    if (method === "tools/call" && http !== undefined && (!http.knowsTool(params.name as string) || lists.changedSinceFetch("tools"))) {
      const listed = lists.get<Tool>("tools", false).then((tools) => this.acceptTools(tools));
      await boundedByCall(
        listed.catch(() => undefined),
        { label, timeoutMs, signal: spec.signal, doing: "listing the tools for its Mcp-Param headers", processContext },
      );
    }
    // Between rounds the call waits on the caller's handlers: its signal, its timeout and close() bound that wait too;
    // with its own onServerRequest only its signal and close() (that wait is the caller's, as in the legacy era).
    // Not AbortSignal.any: on Node 20 the driver's long-lived closing signal would keep every call's combined signal.
    const linked = spec.signal === undefined ? undefined : eitherAborts(spec.signal, closing);
    try {
      return await withInputRounds((round) => channel.request(method, round, spec), params, {
        label,
        maxRounds: this.parts.maxInputRounds,
        answer: (inputMethod, inputParams, context) => answers.answerFor(spec.onServerRequest, inputMethod, inputParams, context),
        processContext,
        signal: linked?.signal ?? closing,
        answerTimeoutMs: spec.onServerRequest === undefined ? timeoutMs : undefined,
      });
    } finally {
      linked?.release();
    }
  }
}

/** A signal that aborts when either does (with its reason); `release()` unhooks it once the call is over. */
function eitherAborts(first: AbortSignal, second: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const abort = (reason: unknown) => controller.abort(reason);
  // The first signal is asked first, so when both have aborted the reason is the first's.
  const stopFirst = onAbort(first, abort);
  const stopSecond = onAbort(second, abort);
  const release = () => {
    stopFirst();
    stopSecond();
  };
  return { signal: controller.signal, release };
}

/**
 * Work a call does before its request goes out (listing the tools for its headers), bounded by
 * the call's own timeout and signal: a call asked to give up at 300 ms does not wait on the
 * driver-wide `requestTimeout` first.
 */
async function boundedByCall<T>(
  work: Promise<T>,
  call: { label: string; timeoutMs: number; signal?: AbortSignal | undefined; doing: string; processContext: () => ProcessContext | undefined },
): Promise<T> {
  const { label, timeoutMs, signal } = call;
  if (signal?.aborted) throw abortedBeforeSending(label, "tools/call", signal.reason, call.processContext());
  let timer: NodeJS.Timeout | undefined;
  let stopListening = (): void => undefined;
  const givenUp = new Promise<never>((_resolve, reject) => {
    // Infinity is a request with no deadline of its own; every timeout a user gives is checked to fit a timer.
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(
        () =>
          reject(
            new RequestTimeoutError(
              [`${label} got no response within ${timeoutMs} ms: it was still ${call.doing} (nothing was sent yet).`, { kind: "raiseTimeout", timeoutMs, slowAt: "listing its tools" }],
              { timeoutMs, cancelled: false, process: call.processContext() },
            ),
          ),
        timeoutMs,
      );
    }
    stopListening = onAbort(signal, (reason) => reject(abortedBeforeSending(label, "tools/call", reason, call.processContext())));
  });
  try {
    return await Promise.race([work, givenUp]);
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}
