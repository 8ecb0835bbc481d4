/**
 * Sources for `resources/read` and `prompts/get`, the same ordered shape `tools/call` has
 * (step-sources.ts): the engine asks each source in order and the first answer wins; when none
 * answers, the catalog does, so the catalog stays the last source. Scenario fakes are one
 * source; a new way to answer reads is a new source, not a branch in the handler.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { RequestContext } from "./request-context.js";
import { RpcError } from "./outcome.js";
import type { FaultSpec } from "./interaction/faults.js";

/** A source's answer: the method's result as sent, or a JSON-RPC error; either may come through a fault (a delay, a hang…). */
export type SourceAnswer = (
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly result?: undefined; readonly error?: undefined }
) & { readonly fault?: FaultSpec };

export interface ResourceRead {
  readonly uri: string;
  readonly sessionId: string;
  readonly requestId: JsonRpcId;
}

export interface PromptGet {
  readonly name: string;
  /** The arguments as received (`{}` when absent). */
  readonly arguments: Record<string, unknown>;
  readonly sessionId: string;
  readonly requestId: JsonRpcId;
}

export type ResourceReadSource = (read: ResourceRead, context: RequestContext) => SourceAnswer | undefined;
export type PromptGetSource = (get: PromptGet, context: RequestContext) => SourceAnswer | undefined;

/** Resources and prompts listed besides the catalog's for a request (fakes', per mount and identity). */
export type ResourceListSource = (context: RequestContext) => ReadonlyArray<{ readonly uri: string }>;
export type PromptListSource = (context: RequestContext) => ReadonlyArray<{ readonly name: string }>;

/** The first source's answer, or undefined: the catalog answers. */
export function askSources<R>(sources: ReadonlyArray<(request: R, context: RequestContext) => SourceAnswer | undefined>, request: R, context: RequestContext): SourceAnswer | undefined {
  for (const source of sources) {
    const answer = source(request, context);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/**
 * The catalog's listings followed by the sources' entries it does not have (a registered
 * definition wins; sources never hide one). `key` names an entry: a tool's or prompt's name, a
 * resource's URI.
 */
export function mergeListings(
  own: Array<Record<string, unknown>>,
  sources: ReadonlyArray<(context: RequestContext) => readonly object[]>,
  context: RequestContext,
  key: (entry: object) => unknown,
): Array<Record<string, unknown>> {
  if (sources.length === 0) return own;
  const listed = new Set(own.map(key));
  const listings = [...own];
  for (const source of sources) {
    for (const entry of source(context)) {
      if (listed.has(key(entry))) continue;
      listed.add(key(entry));
      listings.push(entry as unknown as Record<string, unknown>);
    }
  }
  return listings;
}

export const byName = (entry: object): unknown => (entry as { name?: unknown }).name;
export const byUri = (entry: object): unknown => (entry as { uri?: unknown }).uri;

/** A source's answer as the handler's outcome: its result, or its error thrown as the JSON-RPC error. */
export function answerOrThrow(answer: SourceAnswer): Record<string, unknown> {
  if ("error" in answer && answer.error !== undefined) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
  // A source answers with neither only beside a fault that ends the request (hang, disconnect, raw).
  return ("result" in answer && answer.result) || {};
}
