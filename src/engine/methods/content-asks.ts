/**
 * A prompt's messages function or a resource's read function that asks the client something
 * (`request.elicit()`, `request.sample()`, `request.listRoots()`, `request.request()`), as a tool's
 * step function does: in the legacy era a server request on the request's own stream; in
 * 2026-07-28 an input round, the function kept waiting (parked under a signed `requestState`)
 * until the client's retry brings the answers, then going on to answer that retry.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { versionHas } from "../../protocol/versions.js";
import type { ClientRoot, ElicitAnswer, SampleAnswer } from "../call-context.js";
import type { ContentRequest } from "../catalog.js";
import type { Exchange } from "../call-log.js";
import { GIVEN_UP_BY_STEP, REQUEST_ENDED, ServerRequestError } from "../connection.js";
import { InputRound, type DueRound } from "../mrtr/input-round.js";
import type { ParkedCall } from "../mrtr/request-state.js";
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import type { HandlerInput } from "./handler-input.js";

type Json = Record<string, unknown>;

/** What a content function's run came to: its value, or (2026-07-28) the answer asking for input first. */
export type ContentRun<T> = { value: T } | { outcome: Outcome };

/** The asks of one content request, across its MRTR retries. */
class ContentCall<T> implements ParkedCall {
  /** 2026-07-28: the asks travel as input requests. */
  readonly #round: InputRound | undefined;
  /** Legacy: requests waiting for the client, given up when the function has answered. */
  readonly #asking = new Set<AbortController>();
  #running: Promise<T> | undefined;
  #rounds = 0;

  constructor(
    private input: HandlerInput,
    private readonly key: string,
    private readonly args: unknown,
  ) {
    if (!versionHas(input.context.protocolVersion, "serverRequests")) this.#round = new InputRound(answersIn(input.params));
  }

  /** What the function sees: the request's facts, and the asks. */
  request(): ContentRequest {
    const { params, context, connection } = this.input;
    const request: { -readonly [K in keyof ContentRequest]: ContentRequest[K] } = {
      protocolVersion: context.protocolVersion,
      clientCapabilities: context.client?.capabilities ?? connection.negotiated.clientCapabilities,
      request: (method, askParams, options) => this.ask(method, askParams, options),
      elicit: (askParams, options) => this.ask("elicitation/create", askParams, options) as Promise<ElicitAnswer>,
      sample: (askParams, options) => this.ask("sampling/createMessage", askParams, options) as Promise<SampleAnswer>,
      listRoots: async (options) => ((await this.ask("roots/list", this.#round === undefined ? undefined : {}, options)).roots as ClientRoot[] | undefined) ?? [],
    };
    const responses = answersIn(params);
    if (responses !== undefined) request.inputResponses = responses;
    if (typeof params.requestState === "string") request.requestState = params.requestState;
    return request;
  }

  /** Starts the function (the first request). */
  start(fn: (request: ContentRequest) => T | Promise<T>): this {
    const request = this.request();
    this.#running = Promise.resolve().then(() => fn(request));
    // While the call waits for a retry nobody awaits it; a rejection then is handled on resume.
    this.#running.catch(() => undefined);
    return this;
  }

  /** The function's value, or an input round due first (then the call is parked for the retry). */
  async run(): Promise<ContentRun<T>> {
    const running = this.#running!;
    let produced: { value: T } | { round: DueRound };
    try {
      produced = this.#round === undefined ? { value: await running } : await Promise.race([running.then((value) => ({ value })), this.#round.due().then((round) => ({ round }))]);
    } catch (thrown) {
      this.release();
      throw thrown;
    }
    if ("value" in produced) {
      this.release();
      return produced;
    }
    return { outcome: this.suspend(produced.round) };
  }

  /** The client's retry: its answers settle the waiting asks, and the same function goes on. */
  resume(input: HandlerInput, responses: Json): this {
    this.input = input;
    this.#round!.answer(responses);
    return this;
  }

  expire(reason: string): void {
    this.#round?.abandon({ code: ErrorCode.InternalError, message: `the request was given up: ${reason}` });
  }

  /** The function has answered: what it still waits for is given up (the client is told, in the legacy era). */
  private release(): void {
    for (const asking of [...this.#asking]) asking.abort(REQUEST_ENDED);
    this.#round?.abandon({ code: ErrorCode.InternalError, message: REQUEST_ENDED.why });
  }

  private suspend(round: DueRound): Outcome {
    const missing = this.#round!.missingCapabilities(this.request().clientCapabilities);
    if (missing !== undefined) {
      this.#round!.abandon();
      throw new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${this.key} asks the client for ${Object.keys(missing).join(", ")}, which its clientCapabilities in _meta do not declare`, {
        requiredCapabilities: missing,
      });
    }
    const { state } = this.input.state.requestStates.park(this, this.key, this.args, ++this.#rounds);
    return replyWith(this.input.request.id, { resultType: "input_required", inputRequests: round.inputRequests, requestState: state });
  }

  private async ask(method: string, params: Json | undefined, options: { key?: string; signal?: AbortSignal } = {}): Promise<Json> {
    const exchange: Exchange = { method, params, sentAt: Date.now() };
    if (this.#round !== undefined) {
      if (!InputRound.accepts(method)) {
        throw new ServerRequestError({ code: ErrorCode.MethodNotFound, message: `${method} cannot be sent to a client in protocol version ${this.input.context.protocolVersion}: only elicitation/create, sampling/createMessage and roots/list travel as input requests (MRTR)` }, method, "", true);
      }
      return this.#round.ask(method, params, exchange, options);
    }
    const asking = new AbortController();
    const onStepAbort = () => asking.abort(GIVEN_UP_BY_STEP);
    if (options.signal?.aborted) asking.abort(GIVEN_UP_BY_STEP);
    else options.signal?.addEventListener("abort", onStepAbort, { once: true });
    this.#asking.add(asking);
    try {
      return await this.input.connection.request(method, params, { relatedRequestId: this.input.request.id, signal: asking.signal });
    } finally {
      options.signal?.removeEventListener("abort", onStepAbort);
      this.#asking.delete(asking);
    }
  }
}

function answersIn(params: Json): Json | undefined {
  return isObject(params.inputResponses) ? params.inputResponses : undefined;
}

/**
 * Runs a content function for `input`, with the asks it may make: a retry whose `requestState`
 * is one of ours goes on with its parked function (a bad one of ours is -32602, saying what was
 * wrong); any other request runs the function anew (a state of the function's own, from a raw
 * `{ inputRequired }`, is the function's to read). `what` names the request ("prompts/get
 * greet"), and with `args` keys the state, so a retry must repeat the request.
 */
export function runContent<T>(input: HandlerInput, what: string, args: unknown, fn: (request: ContentRequest) => T | Promise<T>): Promise<ContentRun<T>> {
  const { params, state } = input;
  const token = params.requestState;
  if (typeof token === "string" && versionHas(input.context.protocolVersion, "mrtr")) {
    const verdict = state.requestStates.take(token, what, args);
    if (verdict.ok && verdict.parked instanceof ContentCall) return (verdict.parked as ContentCall<T>).resume(input, answersIn(params) ?? {}).run();
    if (!verdict.ok && verdict.problem !== "malformed") {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${what.split(" ")[0]}: ${verdict.message}`, { problem: verdict.problem });
    }
  }
  return new ContentCall<T>(input, what, args).start(fn).run();
}
