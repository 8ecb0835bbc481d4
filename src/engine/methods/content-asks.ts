/**
 * A prompt's messages function or a resource's read function that asks the client something
 * (`request.elicit()`, `request.sample()`, `request.listRoots()`, `request.request()`), as a tool's
 * step function does: in the legacy era a server request on the request's own stream; in
 * 2026-07-28 an input round, the function kept waiting (parked under a signed `requestState`)
 * until the client's retry brings the answers, then going on to answer that retry. The client
 * may cancel the request meanwhile (`request.signal` aborts, and nothing is answered).
 */
import { ErrorCode } from "../../protocol/errors.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { versionHas } from "../../protocol/versions.js";
import type { ClientRoot, ElicitAnswer, SampleAnswer } from "../call-context.js";
import type { ContentRequest } from "../catalog.js";
import type { Exchange } from "../call-log.js";
import { askClient } from "../ask-client.js";
import { GIVEN_UP_BY_STEP, idKey, REQUEST_ENDED, ServerRequestError } from "../connection.js";
import { capabilityNames, InputRound, type DueRound } from "../mrtr/input-round.js";
import type { ParkedCall } from "../mrtr/request-state.js";
import { CANCELLED, replyWith, RpcError, type Outcome } from "../outcome.js";
import type { HandlerInput } from "./handler-input.js";
import { untilAbort } from "../../util/on-abort.js";

type Json = Record<string, unknown>;

/** What a content function's run came to: its value, or the answer already decided (input first, or cancelled). */
export type ContentRun<T> = { value: T } | { outcome: Outcome };

const CANCELLED_RUN = Object.freeze({ cancelled: true as const });

/** The asks of one content request, across its MRTR retries. */
class ContentCall<T> implements ParkedCall {
  /** 2026-07-28: the asks travel as input requests. */
  readonly #round: InputRound | undefined;
  /** Legacy: requests waiting for the client, given up when the function has answered. */
  readonly #asking = new Set<AbortController>();
  /** Aborts when the client cancels the request (or a retry of it), or the request is given up. */
  readonly #controller = new AbortController();
  #running: Promise<T> | undefined;
  #rounds = 0;

  constructor(
    private input: HandlerInput,
    private readonly method: string,
    private readonly name: string,
    private readonly args: unknown,
  ) {
    // A copy: the asks use the given answers up, and the request's own params stay as they came.
    const given = answersIn(input.params);
    if (!versionHas(input.context.protocolVersion, "serverRequests")) this.#round = new InputRound(given && { ...given });
  }

  /** What the function sees: the facts of the request now answering (a retry's, once resumed), and the asks. */
  request(): ContentRequest {
    // The getters read the request now answering, so they need the call itself.
    const call = this;
    return {
      get protocolVersion() {
        return call.input.context.protocolVersion;
      },
      get clientCapabilities() {
        return call.capabilities();
      },
      get inputResponses() {
        return answersIn(call.input.params);
      },
      get requestState() {
        const state = call.input.params.requestState;
        return typeof state === "string" ? state : undefined;
      },
      signal: this.#controller.signal,
      request: (method, params, options) => this.ask(method, params, options),
      elicit: (params, options) => this.ask("elicitation/create", params, options) as Promise<ElicitAnswer>,
      sample: (params, options) => this.ask("sampling/createMessage", params, options) as Promise<SampleAnswer>,
      listRoots: async (options) => ((await this.ask("roots/list", this.#round === undefined ? undefined : {}, options)).roots as ClientRoot[] | undefined) ?? [],
    };
  }

  /** Starts the function (the first request). */
  start(fn: (request: ContentRequest) => T | Promise<T>): this {
    this.#cancellableOn(this.input);
    const request = this.request();
    this.#running = Promise.resolve().then(() => fn(request));
    // While the call waits for a retry nobody awaits it; a rejection then is handled on resume.
    this.#running.catch(() => undefined);
    return this;
  }

  /** The function's value, or an input round due first (then the call is parked for the retry), or the client cancelled. */
  async run(): Promise<ContentRun<T>> {
    const running = this.#running!;
    const cancelled = untilAbort(this.#controller.signal).then(() => CANCELLED_RUN);
    const racers: Array<Promise<{ value: T } | { round: DueRound } | typeof CANCELLED_RUN>> = [running.then((value) => ({ value })), cancelled];
    if (this.#round !== undefined) racers.push(this.#round.due().then((round) => ({ round })));
    let produced: Awaited<(typeof racers)[number]>;
    try {
      produced = await Promise.race(racers);
    } catch (thrown) {
      this.#release();
      throw thrown;
    }
    if ("cancelled" in produced) {
      this.#release();
      return { outcome: CANCELLED };
    }
    if ("value" in produced) {
      this.#release();
      return produced;
    }
    return { outcome: this.#suspend(produced.round) };
  }

  /** The client's retry: its answers settle the waiting asks, and the same function goes on. */
  resume(input: HandlerInput, responses: Json): this {
    this.input = input;
    this.#cancellableOn(input);
    this.#round!.answer(responses);
    return this;
  }

  expire(reason: string): void {
    this.#round?.abandon({ code: ErrorCode.InternalError, message: `the ${this.method} was given up: ${reason}` });
    this.#controller.abort(new Error(reason));
  }

  private capabilities(): Json {
    return this.input.context.client?.capabilities ?? this.input.connection.negotiated.clientCapabilities;
  }

  /** The request now answering can be cancelled by the client (its in-flight entry, with no call record). */
  #cancellableOn(input: HandlerInput): void {
    input.connection.inFlight.set(idKey(input.request.id), { controller: this.#controller });
  }

  /** The function has answered (or the client cancelled): what it still waits for is given up, the client told in the legacy era. */
  #release(): void {
    this.input.connection.releaseInFlight(idKey(this.input.request.id), this.#controller);
    for (const asking of [...this.#asking]) asking.abort(REQUEST_ENDED);
    this.#round?.abandon({ code: ErrorCode.InternalError, message: REQUEST_ENDED.why });
  }

  #suspend(round: DueRound): Outcome {
    const missing = this.#round!.missingCapabilities(this.capabilities());
    if (missing !== undefined) {
      this.#release();
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: ${this.method} ${JSON.stringify(this.name)} asks the client for ${capabilityNames(missing).join(", ")}, which its clientCapabilities in _meta do not declare`,
        { requiredCapabilities: missing },
      );
    }
    // The answer goes now; the retry is a request of its own, cancellable in its turn.
    this.input.connection.releaseInFlight(idKey(this.input.request.id), this.#controller);
    const { state } = this.input.state.requestStates.park(this, this.method, this.name, this.args, ++this.#rounds);
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
    return await askClient(this.input.connection, method, params, {
      relatedRequestId: this.input.request.id,
      giveUps: [
        [this.#controller.signal, REQUEST_ENDED],
        [options.signal, GIVEN_UP_BY_STEP],
      ],
      asking: this.#asking,
      declared: () => this.capabilities(),
    });
  }
}

function answersIn(params: Json): Json | undefined {
  return isObject(params.inputResponses) ? params.inputResponses : undefined;
}

/**
 * Runs a content function for `input` (a `method` request for `name` with `args`), with the asks
 * it may make: a retry whose `requestState` is one of ours goes on with its parked function (a
 * bad one of ours is -32602, saying what was wrong); any other request runs the function anew
 * (a state of the function's own, from a raw `{ inputRequired }`, is the function's to read).
 */
export function runContent<T>(input: HandlerInput, method: string, name: string, args: unknown, fn: (request: ContentRequest) => T | Promise<T>): Promise<ContentRun<T>> {
  const { params, state } = input;
  if (versionHas(input.context.protocolVersion, "mrtr")) {
    const token = params.requestState;
    if (token !== undefined && typeof token !== "string") throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "requestState" must be the string of the input_required result, sent back unchanged`);
    if (params.inputResponses !== undefined && !isObject(params.inputResponses)) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "inputResponses" must be an object mapping each inputRequests key to its result`);
    }
    if (typeof token === "string") {
      const verdict = state.requestStates.take(token, method, name, args);
      if (verdict.ok) return (verdict.parked as ContentCall<T>).resume(input, answersIn(params) ?? {}).run();
      if (verdict.problem !== "malformed") throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${verdict.message}`, { problem: verdict.problem });
    }
  }
  return new ContentCall<T>(input, method, name, args).start(fn).run();
}
