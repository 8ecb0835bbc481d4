/**
 * MRTR `requestState` (2026-07-28): the opaque string an `input_required` result hands the
 * client, which its retry must send back. The spec treats it as attacker-controlled, so ours is
 * integrity-protected: an HMAC-SHA256 with a random key of this mock's own, over which parked
 * call it resumes, the round, the request (its method and the tool's, prompt's or resource's
 * name) and a digest of its arguments, and an expiry. The parked
 * calls themselves (a step function waiting for the answers) live here too, each until its
 * retry or its expiry, so a state can be used once.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

const PREFIX = "mtk1.";
/** How long a client may take to answer an input request before its call is given up (default). */
export const DEFAULT_STATE_TTL_MS = 5 * 60_000;
/** requestStates of scripted `inputRequired` steps remembered, so their retries reach the script. */
const MAX_RAW_STATES = 1000;

interface StatePayload {
  /** The parked call. */
  id: string;
  round: number;
  /** The request's method: a state answers only a retry of the same kind. */
  method: string;
  /** The tool, prompt or resource. */
  name: string;
  /** sha256 of the call's name and arguments, canonical JSON. */
  digest: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

/** A call waiting for its client's retry. */
export interface ParkedCall {
  /** The retry never came: the call ends. */
  expire(reason: string): void;
}

export type StateVerdict<T> = { ok: true; parked: T; round: number } | { ok: false; problem: "malformed" | "tampered" | "expired" | "stale" | "mismatch"; message: string };

interface Parking<T> {
  parked: T;
  round: number;
  /** Expiry, ms since the epoch (as in the state). */
  exp: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A parked call must not keep a test process alive. */
function unrefTimer(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  timer.unref?.();
  return timer;
}

/** JSON with sorted keys, so the same arguments always give the same digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** "a call of tool "weather"", "a prompts/get of "greet"": what a state was issued for, in words. */
function requestOf(method: string, name: string): string {
  return method === "tools/call" ? `a call of tool ${JSON.stringify(name)}` : `a ${method} of ${JSON.stringify(name)}`;
}

/**
 * The one rule for when a state has expired: from its expiry's millisecond on. Both the timer
 * that gives the parked call up and a retry's check use it, so a retry in the millisecond of
 * expiry is told "expired", never "stale".
 */
function hasExpired(exp: number, now: number): boolean {
  return now >= exp;
}

export function callDigest(tool: string, args: unknown): string {
  return createHash("sha256").update(canonical({ tool, args })).digest("base64url");
}

export class RequestStateKeeper<T extends ParkedCall = ParkedCall> {
  readonly #key = randomBytes(32);
  readonly #parked = new Map<string, Parking<T>>();
  readonly #raw = new Set<string>();

  constructor(readonly ttlMs: number = DEFAULT_STATE_TTL_MS) {}

  /** Parks `parked` (a `method` request for `name`) and returns the state its retry must carry. */
  park(parked: T, method: string, name: string, args: unknown, round: number, id: string = randomUUID()): { id: string; state: string } {
    const exp = Date.now() + this.ttlMs;
    const parking: Parking<T> = { parked, round, exp, timer: undefined };
    const expireWhenDue = (): void => {
      if (this.#parked.get(id) !== parking) return;
      const now = Date.now();
      // A timer runs on the monotonic clock and may fire a moment before the wall clock reaches
      // exp: until then the state is still good, so the rest is waited out.
      if (!hasExpired(exp, now)) parking.timer = unrefTimer(setTimeout(expireWhenDue, exp - now));
      else this.#expire(id, parking);
    };
    parking.timer = unrefTimer(setTimeout(expireWhenDue, this.ttlMs));
    this.#parked.set(id, parking);
    const payload = Buffer.from(JSON.stringify({ id, round, method, name, digest: callDigest(name, args), exp } satisfies StatePayload)).toString("base64url");
    return { id, state: `${PREFIX}${payload}.${this.#sign(payload)}` };
  }

  /** Checks a retry's state (a `method` request for `name`) and takes its parked call (a state works once). */
  take(state: string, method: string, name: string, args: unknown): StateVerdict<T> {
    const [payload, signature, extra] = state.startsWith(PREFIX) ? state.slice(PREFIX.length).split(".") : [];
    if (payload === undefined || signature === undefined || extra !== undefined) {
      return { ok: false, problem: "malformed", message: "requestState is not one this server issued: send back exactly the requestState of the input_required result" };
    }
    const expected = Buffer.from(this.#sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return {
        ok: false,
        problem: "tampered",
        message: "requestState failed its integrity check (it was changed, or made by another server instance): send back exactly the requestState you were given",
      };
    }
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as StatePayload;
    if (claims.method !== method || claims.name !== name) {
      return {
        ok: false,
        problem: "mismatch",
        message: `requestState belongs to ${requestOf(claims.method, claims.name)}, not ${requestOf(method, name)}: a retry must repeat the original request's method, name and arguments`,
      };
    }
    if (claims.digest !== callDigest(name, args)) {
      return { ok: false, problem: "mismatch", message: `requestState was issued for ${requestOf(method, name)} with other arguments: a retry must repeat the original request's arguments exactly` };
    }
    const parking = this.#parked.get(claims.id);
    if (hasExpired(claims.exp, Date.now())) {
      // Come before its timer ran: the call is given up here, as the timer would have.
      if (parking !== undefined && parking.round === claims.round && parking.exp === claims.exp) this.#expire(claims.id, parking);
      return { ok: false, problem: "expired", message: `requestState expired: the request was given up; send ${method} again without requestState` };
    }
    if (parking === undefined || parking.round !== claims.round) {
      return {
        ok: false,
        problem: "stale",
        message: "requestState is stale: it was already used for a retry (a state works once), expired, or the mock was reset; send the newest requestState, or call again without one",
      };
    }
    clearTimeout(parking.timer);
    this.#parked.delete(claims.id);
    return { ok: true, parked: parking.parked, round: parking.round };
  }

  /** Gives up a parked call whose state expired. */
  #expire(id: string, parking: Parking<T>): void {
    clearTimeout(parking.timer);
    this.#parked.delete(id);
    parking.parked.expire(`the client did not retry within ${this.ttlMs} ms of the input_required result (its requestState expired)`);
  }

  /** A scripted `inputRequired` step's own state: its retry goes to the tool's script, unchecked. */
  rememberRaw(state: string): void {
    this.#raw.add(state);
    if (this.#raw.size > MAX_RAW_STATES) this.#raw.delete(this.#raw.values().next().value!);
  }

  isRaw(state: string): boolean {
    return this.#raw.has(state);
  }

  get parkedCount(): number {
    return this.#parked.size;
  }

  /** Gives up every parked call (reset, close). */
  clear(reason = "the mock was reset or closed while the call waited for the client's retry"): void {
    const parked = [...this.#parked.values()];
    this.#parked.clear();
    this.#raw.clear();
    for (const parking of parked) {
      clearTimeout(parking.timer);
      parking.parked.expire(reason);
    }
  }

  #sign(payload: string): string {
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }
}
