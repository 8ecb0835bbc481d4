/**
 * The input requests of one call in the 2026-07-28 era, where a server sends no requests of its
 * own: a step function's `call.elicit()`, `call.sample()` or `call.listRoots()` becomes an entry
 * of the call's next `input_required` result, and its promise settles when the client's retry
 * brings the matching `inputResponses` entry. Asks made together (`Promise.all`) go out in one
 * round: the round is due one macrotask after its first ask.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { withParams, type JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { CLIENT_CAPABILITY_OF_REQUEST } from "../../protocol/methods.js";
import type { ServerRequestExchange } from "../call-log.js";
import { GIVEN_UP_BY_STEP, ServerRequestError } from "../connection.js";
import { onAbort } from "../../util/on-abort.js";

type Json = Record<string, unknown>;

const KEY_PREFIX: Record<string, string> = { "elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots" };

/** The elicitation mode an ask needs (2025-11-25 on: form or URL); undefined for an ask with no modes. */
function modeOf(ask: Pick<Ask, "method" | "params">): "form" | "url" | undefined {
  if (ask.method !== "elicitation/create") return undefined;
  return ask.params?.mode === "url" ? "url" : "form";
}

/**
 * Whether a declared elicitation capability covers `mode`: URL mode needs `url`; form mode
 * `form`, or the empty `{}` that means form alone (the spec's backward compatibility).
 */
function declaresMode(declared: unknown, mode: "form" | "url"): boolean {
  if (typeof declared !== "object" || declared === null) return false;
  const modes = declared as Json;
  return mode === "url" ? modes.url !== undefined : Object.keys(modes).length === 0 || modes.form !== undefined;
}

/** What of a capability the asks' `modes` need that `declared` lacks, or undefined when it covers them. */
function lackingPart(modes: ReadonlySet<"form" | "url">, declared: unknown): Json | undefined {
  // Undeclared: the capability itself; only a URL ask needs its mode named ({} means form alone).
  if (declared === undefined) return modes.has("url") ? Object.fromEntries([...modes].map((mode) => [mode, {}])) : {};
  const lacking = [...modes].filter((mode) => !declaresMode(declared, mode));
  return lacking.length === 0 ? undefined : Object.fromEntries(lacking.map((mode) => [mode, {}]));
}

/** `elicitation`, `elicitation.url`: the capabilities (and modes) of a `requiredCapabilities`, by name. */
export function capabilityNames(required: Record<string, unknown>): string[] {
  return Object.entries(required).flatMap(([name, parts]) => {
    const modes = typeof parts === "object" && parts !== null ? Object.keys(parts) : [];
    return modes.length === 0 ? [name] : modes.map((mode) => `${name}.${mode}`);
  });
}

interface Ask {
  method: string;
  params?: Json;
  exchange: ServerRequestExchange;
  /** In a round that went out: the client may answer it on its retry. */
  sent?: boolean;
  resolve(result: Json): void;
  reject(error: Error): void;
}

/** A round is due: these asks wait for the client. */
export interface DueRound {
  readonly inputRequests: Record<string, { method: string; params?: Json }>;
}

export class InputRound {
  readonly #asks = new Map<string, Ask>();
  #next = 0;
  #due?: { promise: Promise<DueRound>; resolve(round: DueRound): void };
  #scheduled = false;
  /**
   * Keys of asks given up after their round went out: the client's retry may still answer them,
   * and that answer is not for a new ask under the same key (asked again in the next round).
   */
  #withdrawn?: Set<string>;

  /** Whether `method` can be asked this way (only elicitation, sampling and roots can). */
  static accepts(method: string): boolean {
    return method in CLIENT_CAPABILITY_OF_REQUEST;
  }

  /**
   * Answers a request already carries (a call made with `inputResponses` and no `requestState`,
   * as to a stateless server): an ask with a matching key is answered at once, once.
   */
  #given?: Json;

  constructor(given?: Json) {
    this.#given = given;
  }

  ask(method: string, params: Json | undefined, exchange: ServerRequestExchange, options: { key?: string; signal?: AbortSignal } = {}): Promise<Json> {
    const key = options.key ?? `${KEY_PREFIX[method] ?? "input"}-${this.#next + 1}`;
    this.#next++;
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(this.#givenUp(method, exchange));
    const given = this.#given?.[key];
    if (typeof given === "object" && given !== null && !Array.isArray(given)) {
      delete this.#given![key];
      exchange.result = given as Json;
      exchange.answeredAt = Date.now();
      return Promise.resolve(given as Json);
    }
    if (this.#asks.has(key))
      return Promise.reject(
        new ServerRequestError({ code: ErrorCode.InternalError, message: `two input requests of one round share the key ${JSON.stringify(key)}; keys must be unique within a request` }, method),
      );
    return new Promise<Json>((resolve, reject) => {
      // Given up: it leaves the round (or, sent already, its answer will be ignored as an extra entry).
      const giveUp = () => {
        const waiting = this.#asks.get(key);
        if (waiting?.exchange !== exchange) return;
        this.#asks.delete(key);
        if (waiting.sent) (this.#withdrawn ??= new Set()).add(key);
        reject(this.#givenUp(method, exchange));
      };
      const settle = onAbort(signal, giveUp);
      this.#asks.set(key, {
        method,
        params,
        exchange,
        resolve: (result) => (settle(), resolve(result)),
        reject: (error) => (settle(), reject(error)),
      });
      this.#schedule();
    });
  }

  #givenUp(method: string, exchange: ServerRequestExchange): ServerRequestError {
    const error = GIVEN_UP_BY_STEP.error(method);
    exchange.error = error.error;
    exchange.answeredAt = Date.now();
    return error;
  }

  /** Resolves when asks wait for the client (at once if some already do). */
  due(): Promise<DueRound> {
    if (this.#due === undefined) {
      let resolve!: (round: DueRound) => void;
      const promise = new Promise<DueRound>((r) => (resolve = r));
      this.#due = { promise, resolve };
      if (this.#asks.size > 0) this.#schedule();
    }
    return this.#due.promise;
  }

  /** The capabilities the waiting asks need that `declared` lacks, as `requiredCapabilities`. */
  missingCapabilities(declared: Json): Json | undefined {
    // The modes each capability's asks need, first (a form and a URL ask in one round need both).
    const needs = new Map<string, Set<"form" | "url">>();
    for (const ask of this.#asks.values()) {
      const modes = needs.get(CLIENT_CAPABILITY_OF_REQUEST[ask.method]!) ?? new Set();
      const mode = modeOf(ask);
      if (mode !== undefined) modes.add(mode);
      needs.set(CLIENT_CAPABILITY_OF_REQUEST[ask.method]!, modes);
    }
    const missing: Json = {};
    for (const [capability, modes] of needs) {
      const lacking = lackingPart(modes, declared[capability]);
      if (lacking !== undefined) missing[capability] = lacking;
    }
    return Object.keys(missing).length > 0 ? missing : undefined;
  }

  /**
   * The client's retry brought `responses`: each waiting ask with an entry settles (extra
   * entries are ignored, as the spec says); the keys still missing are returned, to be asked again.
   */
  answer(responses: Json): string[] {
    const missing: string[] = [];
    const withdrawn = this.#withdrawn;
    this.#withdrawn = undefined;
    for (const [key, ask] of [...this.#asks]) {
      const response = withdrawn?.has(key) ? undefined : responses[key];
      if (typeof response !== "object" || response === null || Array.isArray(response)) {
        missing.push(key);
        continue;
      }
      this.#asks.delete(key);
      ask.exchange.result = response as Json;
      ask.exchange.answeredAt = Date.now();
      ask.resolve(response as Json);
    }
    return missing;
  }

  /** The call ended while asks waited: they fail, so a step awaiting them stops. */
  abandon(error: JsonRpcErrorObject = { code: ErrorCode.InternalError, message: "the tool call ended before the client answered" }): void {
    for (const ask of this.#asks.values()) {
      ask.exchange.error = error;
      ask.reject(new ServerRequestError(error, ask.method, "", true));
    }
    this.#asks.clear();
  }

  #schedule(): void {
    if (this.#scheduled || this.#due === undefined) return;
    this.#scheduled = true;
    // One macrotask: asks made in the same turn (Promise.all) join the round.
    setImmediate(() => {
      this.#scheduled = false;
      const due = this.#due;
      if (due === undefined || this.#asks.size === 0) return;
      this.#due = undefined;
      const inputRequests: DueRound["inputRequests"] = {};
      for (const [key, ask] of this.#asks) {
        ask.sent = true;
        inputRequests[key] = withParams({ method: ask.method }, ask.params);
      }
      due.resolve({ inputRequests });
    });
  }
}
