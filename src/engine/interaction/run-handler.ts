/**
 * Runs a user function that may ask the client (a prompt's messages, a resource's read, a
 * `server.use()` handler) on the interaction runtime: a retry of a parked run resumes it, any
 * other request starts the function anew with a view of its request (`HandlerView`). What the
 * function returns may be wrapped in a fault (`delay()`, `hang()`…), enacted before the answer.
 */
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import { isObject } from "../../protocol/jsonrpc.js";
import type { LoggingLevel } from "../../protocol/methods.js";
import { requestAnswered, type GiveUp } from "../connection.js";
import type { HandlerInput } from "../methods/handler-input.js";
import { RpcError, type Outcome } from "../outcome.js";
import { answerThroughFault } from "./faults.js";
import { HandlerRun, inputResponsesOf, parkedRunOf, type Answering, type RunSubject, type Settled } from "./handler-run.js";
import { Interaction, type AskOptions, type ClientRoot, type ElicitAnswer, type SampleAnswer } from "./interaction.js";

type Json = Record<string, unknown>;

/** What a function that answers a request sees of it while it runs, and how it talks to the client. */
export interface HandlerView {
  /** The protocol revision the request speaks. */
  readonly protocolVersion: string;
  /** What the client declared it can do: per request in 2026-07-28, at `initialize` before. */
  readonly clientCapabilities: Json;
  /** 2026-07-28 MRTR retry: the client's answers to the input requests, and the state it echoed. */
  readonly inputResponses?: Json;
  readonly requestState?: string;
  /** Aborts when the client cancels the request (then nothing is answered), or its state expires. */
  readonly signal: AbortSignal;
  /** Any request of the client (in 2026-07-28 only elicitation, sampling and roots can be asked, as input requests). */
  request(method: string, params?: Json, options?: AskOptions): Promise<Json>;
  /** `elicitation/create`; resolves with `{ action, content? }`. */
  elicit(params: Json, options?: AskOptions): Promise<ElicitAnswer>;
  /** `sampling/createMessage`; resolves with the client's answer. */
  sample(params: Json, options?: AskOptions): Promise<SampleAnswer>;
  /** `roots/list`; resolves with the client's roots themselves. */
  listRoots(options?: AskOptions): Promise<ClientRoot[]>;
  /** Sends `notifications/progress` if the request carried a progress token and is not answered yet. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message`, unless the client's log level filters it out. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Sends a notification to this request's client; over HTTP it travels on the request's own stream. */
  notify(method: string, params?: Json): void;
}

/** The view of the request `current()` answers now (the first, then each retry), over its interaction. */
export function viewOf(interaction: Interaction, current: () => Json): HandlerView {
  return {
    get protocolVersion() {
      return interaction.protocolVersion;
    },
    get clientCapabilities() {
      return interaction.clientCapabilities;
    },
    get inputResponses() {
      return inputResponsesOf(current());
    },
    get requestState() {
      const state = current().requestState;
      return typeof state === "string" ? state : undefined;
    },
    get signal() {
      return interaction.signal;
    },
    request: (method, params, options) => interaction.request(method, params, options),
    elicit: (params, options) => interaction.elicit(params, options),
    sample: (params, options) => interaction.sample(params, options),
    listRoots: (options) => interaction.listRoots(options),
    progress: (progress, total, message) => interaction.progress(progress, total, message),
    log: (level, data, logger) => interaction.log(level, data, logger),
    notify: (method, params) => interaction.notify(method, params),
  };
}

export interface HandlerRunSpec<T> {
  /** The method, name and arguments a retry must repeat, and how messages name the request. */
  readonly subject: RunSubject;
  /** The user's function, given the view of its request. */
  run(view: HandlerView): T | PromiseLike<T>;
  /**
   * The answer from what the function gave (a fault's value, once the fault is enacted) or threw,
   * to the request now answering. Throw an RpcError to answer with that error.
   */
  answer(settled: Settled<unknown>, answering: Answering): Outcome | Promise<Outcome>;
  /** Why asks left waiting are given up once the request is answered (default: "the <method> that asked was answered first"). */
  readonly ended?: GiveUp;
  /** A retry whose state is another subject's (a built-in handler's parked run) runs anew here, so the handler it belongs to can still resume it. */
  readonly passOthers?: boolean;
}

export function runHandler<T>(input: HandlerInput, spec: HandlerRunSpec<T>): Promise<Outcome> {
  const { subject } = spec;
  const parked = parkedRunOf(input, subject, { othersStates: spec.passOthers ? "run" : "refuse" });
  if (parked !== undefined) return parked.resume(input, inputResponsesOf(input.params) ?? {});
  const { connection, request, context, params } = input;
  const meta = params._meta;
  const interaction = new Interaction({
    connection,
    requestId: request.id,
    protocolVersion: context.protocolVersion,
    client: context.client,
    given: inputResponsesOf(params),
    progressToken: isObject(meta) ? (meta.progressToken as JsonRpcId | undefined) : undefined,
    ended: spec.ended ?? requestAnswered(subject.method),
  });
  // Cancellable from the start: the function may run long before it looks at its signal.
  interaction.cancellable();
  let handlerRun: HandlerRun<T> | undefined;
  const view = viewOf(interaction, () => handlerRun?.answering.params ?? params);
  // Started a tick later, as a handler that awaits first would be: its asks join the run's rounds.
  const produced = Promise.resolve().then(() => spec.run(view));
  handlerRun = new HandlerRun<T>(
    interaction,
    input.state.requestStates,
    subject,
    {
      settle: (settled, answering, live) => ("thrown" in settled ? spec.answer(settled, answering) : answerThroughFault(settled.value, live, answering, (value) => spec.answer({ value }, answering))),
      refuse: (error) => {
        throw new RpcError(error.code, error.message, error.data);
      },
    },
    produced,
    { connection, requestId: request.id, context, params },
  );
  return handlerRun.run();
}
