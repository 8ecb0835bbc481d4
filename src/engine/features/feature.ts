/**
 * A protocol feature, as the engine sees it: the methods it serves, the client notifications it
 * acts on, and what it adds to the capabilities a server declares at a revision. The engine's
 * method and notification tables are built from a list of these (see `method-table.ts`), so a
 * new feature is a new module, not an edit to the engine.
 */
import type { KindKey } from "../../formats/step-keys.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import type { Feature } from "../../protocol/versions.js";
import type { Catalog } from "../catalog.js";
import type { Connection } from "../connection.js";
import type { EngineState, RequestHandler } from "../methods/handler-input.js";
import type { Outcome } from "../outcome.js";
import type { StepKindCall } from "../step-kind-call.js";
import type { StepObject } from "../steps.js";

/** One method a feature serves. */
export interface MethodSpec {
  readonly method: string;
  readonly handler: RequestHandler;
  /**
   * The protocol features (from the version table) a request's revision needs for the method to
   * exist; asked in another revision it is not found. Default: what the method table of
   * `protocol/methods.ts` says for `method` (nothing, for a method it does not know).
   */
  readonly requires?: readonly Feature[];
}

/** What a notification handler gets. */
export interface NotificationInput {
  readonly state: EngineState;
  readonly connection: Connection;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** One client notification a feature acts on (others are recorded and need no action). */
export interface NotificationSpec {
  readonly method: string;
  readonly handle: (input: NotificationInput) => void;
}

/**
 * A step key a feature answers (a step kind): the key is described with the other step keys in
 * src/formats/ (one description for run-time checks, fixture files and the JSON Schemas); the
 * feature says here how a tool call answers a step that has it.
 */
export interface StepKindSpec {
  readonly key: KindKey;
  /** Before the call's step runs: an error refuses the call (a tool that needs this kind of answer, asked by a client that cannot take it). */
  admit?(call: StepKindCall): JsonRpcErrorObject | undefined;
  /** Whether this kind answers the call even when its step lacks the key (a tool whose every answer is of this kind). */
  claims?(call: StepKindCall): boolean;
  /** Answers the step its way, or undefined when this call cannot take it (the step then answers as `plain` makes it). */
  answer(step: StepObject, call: StepKindCall): Outcome | Promise<Outcome> | undefined;
  /** The step as a call that cannot take this kind of answer gets it (default: without the key). */
  plain?(step: StepObject): StepObject;
  /** What a step function finds at `call[key]` (made once per call, when first read). */
  handle?(call: StepKindCall): unknown;
}

/**
 * A feature's state lives in the feature (a closure made by its factory, one per engine), so the
 * engine's own state does not grow with each feature; the engine tells it when to forget.
 */
export interface EngineFeature {
  /** Names the feature in errors (two features serving one method). */
  readonly name: string;
  readonly methods?: readonly MethodSpec[];
  readonly notifications?: readonly NotificationSpec[];
  /** What the feature adds to the capabilities declared at `version` (initialize and server/discover), given what the mock serves. */
  readonly capabilities?: (version: string, catalog?: Catalog) => Record<string, unknown> | undefined;
  /** Step keys the feature answers in tool calls (see `StepKindSpec`). */
  readonly stepKinds?: readonly StepKindSpec[];
  /** Forgets what the feature holds (`server.reset()`). */
  reset?(): void;
  /** The mock is closing: stop whatever the feature keeps running (timers, work in flight). */
  close?(): void;
  /** A connection ended (a session closed, or a 2026-07-28 request's connection): drop what the feature held for it. */
  connectionClosed?(connection: Connection): void;
}

/** A feature with state of its own is made once per engine; a stateless one can be shared. */
export type FeatureSource = EngineFeature | (() => EngineFeature);
