/**
 * A feature of the user's own: methods (each with an optional params schema and the revisions it
 * exists in), client notifications it acts on, the capabilities it adds, and state made fresh for
 * each mock. It becomes an engine feature like the built-in ones, so it works on every wire and
 * in both eras.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { McpTestkitError } from "../../errors.js";
import { typeLabel } from "../../util/text.js";
import { RpcError } from "../outcome.js";
import type { RequestHandler } from "../methods/handler-input.js";
import type { EngineFeature, MethodSpec, NotificationSpec } from "./feature.js";
import { checkMethodName, runUserHandlers, type McpMethodHandler, type McpMethodRequest } from "./user-handlers.js";

/** A schema that follows the Standard Schema interface (zod 4, valibot, arktype…): checks a method's params. */
export interface ParamsSchema {
  readonly "~standard": {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}
type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

export interface FeatureMethod<State> {
  handler(request: McpMethodRequest, state: State): unknown;
  /** Checks the params first; a request they fail gets -32602 listing the issues. */
  params?: ParamsSchema;
  /** The protocol revisions the method exists in (default: all); asked in another, it is not found (-32601). */
  versions?: readonly string[];
}

/** A client notification, as a feature's handler sees it. */
export interface McpNotification {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId: string;
}

export interface McpFeature<State = undefined> {
  /** Names the feature in errors. */
  name: string;
  /** Made once per mock (and again on `server.reset()`), handed to every handler of the feature. */
  state?: () => State;
  /** The request methods it serves: a handler, or a handler with a params schema and revisions. */
  methods?: Record<string, ((request: McpMethodRequest, state: State) => unknown) | FeatureMethod<State>>;
  /** The client notifications it acts on. */
  notifications?: Record<string, (notification: McpNotification, state: State) => void>;
  /** What it adds to the declared capabilities (initialize and server/discover), fixed or per revision. */
  capabilities?: Record<string, unknown> | ((protocolVersion: string) => Record<string, unknown> | undefined);
  /** A session ended (the client left, closed it, or the mock closed): drop what the state keeps for it. */
  sessionClosed?: (sessionId: string, state: State) => void;
}

/** Declares a feature with its state's type inferred (an identity function, for the types). */
export function defineFeature<State = undefined>(feature: McpFeature<State>): McpFeature<State> {
  return feature;
}

/** A user feature as an engine feature: its state made anew on `reset()`, and told when a session ends. */
export function bindUserFeature(feature: McpFeature<unknown>): EngineFeature {
  checkFeature(feature);
  let state = feature.state?.();
  const methods: MethodSpec[] = Object.entries(feature.methods ?? {}).map(([method, spec]) => {
    checkMethodName(method, `Feature "${feature.name}"'s methods`);
    const { handler, params, versions } = typeof spec === "function" ? { handler: spec, params: undefined, versions: undefined } : spec;
    const served: RequestHandler = async (input) => {
      const version = input.context.protocolVersion;
      if (versions !== undefined && !versions.includes(version)) {
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol version ${version} (feature "${feature.name}" serves it in ${versions.join(", ")})`);
      }
      const checked = params === undefined ? input.params : await checkParams(params, input.params, method);
      const run: McpMethodHandler = (request) => handler(request, state);
      const answer = await runUserHandlers(input, [run], checked);
      if (answer === undefined) throw new RpcError(ErrorCode.InternalError, `Internal error: feature "${feature.name}"'s handler for ${method} answered nothing; return a result object.`);
      return answer;
    };
    return { method, handler: served, requires: [] };
  });
  const notifications: NotificationSpec[] = Object.entries(feature.notifications ?? {}).map(([method, handle]) => ({
    method,
    handle: ({ connection, params }) => handle({ method, params, sessionId: connection.id }, state),
  }));
  const capabilities = feature.capabilities;
  const sessionClosed = feature.sessionClosed;
  return {
    name: feature.name,
    methods,
    notifications,
    capabilities: capabilities === undefined ? undefined : typeof capabilities === "function" ? capabilities : () => capabilities,
    reset() {
      state = feature.state?.();
    },
    // A 2026-07-28 request's own connection is no session: nothing was kept for it.
    ...(sessionClosed !== undefined && { connectionClosed: (connection) => void (connection.session && sessionClosed(connection.id, state)) }),
  };
}

async function checkParams(schema: ParamsSchema, params: Record<string, unknown>, method: string): Promise<Record<string, unknown>> {
  const result = await schema["~standard"].validate(params);
  if (result.issues === undefined) return result.value as Record<string, unknown>;
  const issues = result.issues.map((issue) => {
    const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
  throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${issues.join("; ")}`);
}

function checkFeature(feature: unknown): asserts feature is McpFeature<unknown> {
  const candidate = feature as Partial<McpFeature<unknown>> | null;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.name !== "string" || candidate.name === "") {
    throw new McpTestkitError(
      `A feature must be an object with a "name", such as defineFeature({ name: "x-echo", methods: { "x/echo": (request) => ({ echoed: request.params }) } }); got ${typeLabel(feature)}.`,
    );
  }
  for (const key of Object.keys(candidate)) {
    if (!["name", "state", "methods", "notifications", "capabilities", "sessionClosed"].includes(key)) {
      throw new McpTestkitError(`Feature "${candidate.name}" has an unknown key "${key}"; a feature has name, state, methods, notifications, capabilities and sessionClosed.`);
    }
  }
  for (const [method, spec] of Object.entries(candidate.methods ?? {})) {
    if (typeof spec !== "function" && (typeof spec !== "object" || spec === null || typeof spec.handler !== "function")) {
      throw new McpTestkitError(`Feature "${candidate.name}"'s method ${method} must be a handler (request, state) => result, or { handler, params?, versions? }; got ${typeLabel(spec)}.`);
    }
  }
  for (const [method, handle] of Object.entries(candidate.notifications ?? {})) {
    if (typeof handle !== "function") throw new McpTestkitError(`Feature "${candidate.name}"'s notification ${method} must be a function (notification, state) => void; got ${typeLabel(handle)}.`);
  }
  if (candidate.sessionClosed !== undefined && typeof candidate.sessionClosed !== "function") {
    throw new McpTestkitError(`Feature "${candidate.name}"'s sessionClosed must be a function (sessionId, state) => void; got ${typeLabel(candidate.sessionClosed)}.`);
  }
  const capabilities = candidate.capabilities;
  if (capabilities !== undefined && typeof capabilities !== "function" && (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities))) {
    throw new McpTestkitError(`Feature "${candidate.name}"'s capabilities must be an object or a function (protocolVersion) => object; got ${typeLabel(capabilities)}.`);
  }
}
