/**
 * One handler's run across its MRTR rounds, the same for every method: the handler's value is
 * raced against its asks (2026-07-28: a round of input requests due first parks the run under a
 * signed `requestState` and answers `input_required`; the client's retry resumes it) and against
 * the request's cancellation. What the value means is the owner's to say (a tool's step, a
 * prompt's messages, a `use()` handler's result).
 */
import { ErrorCode } from "../../protocol/errors.js";
import { isObject, type JsonRpcErrorObject, type JsonRpcId } from "../../protocol/jsonrpc.js";
import { versionHas } from "../../protocol/versions.js";
import type { HandlerInput } from "../methods/handler-input.js";
import type { DueRound } from "../mrtr/input-round.js";
import type { ParkedCall, RequestStateKeeper } from "../mrtr/request-state.js";
import { CANCELLED, replyWith, RpcError, type Outcome } from "../outcome.js";
import type { RequestContext } from "../request-context.js";
import type { Connection } from "../connection.js";
import { missingCapability } from "./era-refusals.js";
import type { Interaction } from "./interaction.js";
import { ABORTED, untilAborted } from "./waits.js";

type Json = Record<string, unknown>;

/** What a run answers for: its method, the tool's, prompt's or resource's name, and its arguments (a retry must repeat them). */
export interface RunSubject {
  readonly method: string;
  readonly name: string;
  readonly args: unknown;
  /** How messages name it: `tool "search"`, `prompts/get "greet"`. */
  readonly label: string;
}

/** The handler's value, or what it threw. */
export type Settled<T> = { readonly value: T } | { readonly thrown: unknown };

/** The request a run answers now: the first one, then each retry. */
export interface Answering {
  readonly connection: Connection;
  readonly requestId: JsonRpcId;
  readonly context: RequestContext;
  /** Its params (a retry's carry its `inputResponses` and `requestState`). */
  readonly params: Json;
}

export interface RunOwner<T> {
  /** The handler settled: the answer to `answering` (it may wait, on `interaction`'s signal). */
  settle(settled: Settled<T>, answering: Answering, interaction: Interaction): Outcome | Promise<Outcome>;
  /** A round the client cannot answer: the request is refused with `error`. */
  refuse(error: JsonRpcErrorObject, answering: Answering): Outcome;
  /** Given up while parked (expired, reset, closed). */
  expired?(reason: string): void;
}

export class HandlerRun<T> implements ParkedCall {
  #answering: Answering;
  #rounds = 0;
  readonly #produced: Promise<Settled<T>>;

  constructor(
    readonly interaction: Interaction,
    private readonly keeper: RequestStateKeeper,
    readonly subject: RunSubject,
    private readonly owner: RunOwner<T>,
    produced: PromiseLike<T>,
    answering: Answering,
  ) {
    this.#answering = answering;
    // While the run waits for a retry nobody awaits it: a rejection is kept as data, for the resume.
    this.#produced = Promise.resolve(produced).then(
      (value) => ({ value }),
      (thrown: unknown) => ({ thrown }),
    );
  }

  /** The request the run answers now. */
  get answering(): Answering {
    return this.#answering;
  }

  /** Runs until the handler settles, a round is due, or the request is cancelled. */
  async run(): Promise<Outcome> {
    const interaction = this.interaction;
    const signal = interaction.cancellable().signal;
    let parked = false;
    try {
      // A cancelled request is answered at once (nothing), not when its handler returns: the
      // handler may run on, but the client's stream ends now (its value is dropped).
      const next = await untilAborted(this.#next(), signal);
      if (next === ABORTED || signal.aborted) return CANCELLED;
      if ("round" in next) {
        const missing = interaction.input!.missingCapabilities(interaction.clientCapabilities);
        if (missing !== undefined) {
          const error = missingCapability(this.subject.label, missing);
          interaction.input!.abandon(error);
          return this.owner.refuse(error, this.#answering);
        }
        parked = true;
        return this.#park(next.round);
      }
      return await this.owner.settle(next, this.#answering, interaction);
    } finally {
      if (!parked) interaction.release();
    }
  }

  /** The client's retry with `inputResponses`: the waiting asks settle and the same handler goes on, answering this request. */
  resume(input: HandlerInput, responses: Json): Promise<Outcome> {
    const { connection, request, context } = input;
    this.#answering = { connection, requestId: request.id, context, params: input.params };
    const meta = input.params._meta;
    const progressToken = isObject(meta) ? (meta.progressToken as JsonRpcId | undefined) : undefined;
    this.interaction.rebind(connection, request.id, context.client, progressToken);
    // Missing answers stay waiting: the next round asks for them again, as the spec advises.
    this.interaction.input!.answer(responses);
    return this.run();
  }

  expire(reason: string): void {
    this.owner.expired?.(reason);
    this.interaction.input?.abandon({ code: ErrorCode.InternalError, message: `the ${this.subject.method} was given up: ${reason}` });
    this.interaction.cancel(reason);
    this.interaction.release();
  }

  /** The handler's value, or (2026-07-28) a round of input requests due first. */
  #next(): Promise<Settled<T> | { round: DueRound }> {
    const input = this.interaction.input;
    if (input === undefined) return this.#produced;
    return Promise.race([this.#produced, input.due().then((round) => ({ round }))]);
  }

  /** Answers `input_required` and parks the run until the retry. */
  #park(round: DueRound): Outcome {
    const { method, name, args } = this.subject;
    const { state } = this.keeper.park(this, method, name, args, ++this.#rounds);
    this.interaction.detach();
    return replyWith(this.#answering.requestId, { resultType: "input_required", inputRequests: round.inputRequests, requestState: state });
  }
}

export interface RetryOptions {
  /**
   * A state of no shape of ours: the handler's own to read (`"run"`, default: the handler hands
   * out states of its own through `{ inputRequired }`), or -32602 (`"refuse"`: a tool's script
   * states are remembered, so any other is a client's mistake).
   */
  foreignStates?: "run" | "refuse";
  /** A state of ours for another subject (another tool, a built-in handler's run): -32602 (default), or the request runs anew. */
  othersStates?: "run" | "refuse";
}

/**
 * The checks of an MRTR retry (2026-07-28), in one place for every method: a `requestState` of
 * ours gives back its parked run; a bad one is -32602 saying what was wrong. A state that is not
 * ours (a scripted `{ inputRequired }`'s own) gives undefined: the request runs as a new one.
 */
export function parkedRunOf(input: HandlerInput, subject: Omit<RunSubject, "label">, options: RetryOptions = {}): HandlerRun<unknown> | undefined {
  const { params, state } = input;
  // Most requests carry neither: answered before the version table is asked.
  if ((params.requestState === undefined && params.inputResponses === undefined) || !versionHas(input.context.protocolVersion, "mrtr")) return undefined;
  const token = params.requestState;
  const { method } = subject;
  if (token !== undefined && typeof token !== "string")
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "requestState" must be the string of the input_required result, sent back unchanged`);
  if (params.inputResponses !== undefined && !isObject(params.inputResponses)) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "inputResponses" must be an object mapping each inputRequests key to its result`);
  }
  if (token === undefined || state.requestStates.isRaw(token)) return undefined;
  const verdict = state.requestStates.take(token, method, subject.name, subject.args);
  if (verdict.ok) return verdict.parked as HandlerRun<unknown>;
  // A handler may hand out states of its own (raw control): one that is not ours at all is its to read.
  if (verdict.problem === "malformed" && options.foreignStates !== "refuse") return undefined;
  if (verdict.problem === "mismatch" && options.othersStates === "run") return undefined;
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${verdict.message}`, { problem: verdict.problem });
}

/** The `inputResponses` a request carries (an object), if any. */
export function inputResponsesOf(params: Json): Json | undefined {
  return isObject(params.inputResponses) ? params.inputResponses : undefined;
}
