/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `unsubscribe`. */
import { errorDetail } from "../../errors.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import type { ResourceContent, ResourceDefinition, ResourceReadValue } from "../catalog.js";
import { asksForInput, inputRequiredOutcome } from "./input-required.js";
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import type { RequestContext } from "../request-context.js";
import { runHandler } from "../interaction/run-handler.js";
import { REQUEST_ENDED } from "../connection.js";
import { withFault } from "../interaction/faults.js";
import { answerSource } from "./source-answer.js";
import { RESOURCE_FIELDS } from "../version-shape.js";
import { ownEntry } from "../own-entry.js";
import { ok, type HandlerInput, type RequestHandler } from "./handler-input.js";
import { requireString } from "./params.js";
import { versionHas } from "../../protocol/versions.js";
import { cacheHintsFor } from "../cache-hints.js";
import { askSources, byUri } from "../request-sources.js";
import { listPage } from "./list-page.js";
import { thrownRpcError } from "../steps.js";
import { listFirst } from "../../util/text.js";
import { closest } from "../../util/closest.js";

export const listResources: RequestHandler = (input) =>
  listPage(input, input.state.catalog.resources.values(), { key: "resources", fields: RESOURCE_FIELDS, sources: input.state.resourceListSources, name: byUri });

export const listResourceTemplates: RequestHandler = (input) => listPage(input, input.state.catalog.templates.values(), { key: "resourceTemplates", fields: RESOURCE_FIELDS });

/**
 * Resource not found: -32002 in the legacy era, -32602 (invalid params) from 2026-07-28. The
 * message names the closest URI the mock has, as an unknown tool's names the closest tool.
 */
function notFound(uri: string, input: HandlerInput): RpcError {
  const code = versionHas(input.context.protocolVersion, "resourceNotFoundInvalidParams") ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
  const catalog = input.state.catalog;
  const known = [...catalog.resources.keys(), ...catalog.templates.keys()];
  const near = closest(uri, known);
  const hint = near === undefined ? "" : `; did you mean ${JSON.stringify(near)}? (the mock has ${listFirst(known, 5, ", ")})`;
  return new RpcError(code, `Resource not found: ${uri}${hint}`, { uri });
}

export const readResource: RequestHandler = async (input) => {
  const uri = requireString(input.params, "uri", "resources/read");
  const subject = { method: "resources/read", name: uri, args: {}, label: `resources/read ${JSON.stringify(uri)}` };
  const answered = askSources(input.state.resourceReadSources, { uri, sessionId: input.connection.id, requestId: input.request.id }, input.context);
  if (answered !== undefined) return answerSource(input, subject, answered);
  const found = input.state.catalog.findResource(uri);
  if (!found) throw notFound(uri, input);
  const { definition, variables } = found;
  if (definition.throws !== undefined) throw thrownRpcError(definition.throws);
  if (definition.read === undefined && definition.fault === undefined)
    return readResult(input, { requestId: input.request.id, context: input.context }, uri, definition, staticValue(definition, variables));
  // A read function (it may ask the client, or return a fault) or a fault: on the interaction runtime.
  const read = definition.read;
  return runHandler(input, {
    subject,
    ended: REQUEST_ENDED,
    run: async (request) => withFault(definition.fault, read !== undefined ? await read(uri, variables, request) : staticValue(definition, variables)),
    answer: (settled, answering) => {
      if ("thrown" in settled) {
        if (settled.thrown instanceof RpcError) throw settled.thrown;
        throw new RpcError(ErrorCode.InternalError, `Reading resource ${uri} threw: ${errorDetail(settled.thrown)}`);
      }
      if (asksForInput(settled.value)) return inputRequiredOutcome(answering, `Resource ${uri}`, settled.value);
      return readResult(input, answering, uri, definition, settled.value as ResourceReadValue);
    },
  });
};

/** What a resource with no read function gives. */
function staticValue(definition: ResourceDefinition, variables: Record<string, string>): ResourceReadValue {
  return definition.blob !== undefined ? { blob: definition.blob } : { text: substitute(definition.text ?? "", variables) };
}

/** The `resources/read` result for `value`, to the request `answering`. */
function readResult(
  input: HandlerInput,
  answering: { readonly requestId: JsonRpcId; readonly context: RequestContext },
  uri: string,
  definition: ResourceDefinition,
  value: ResourceReadValue,
): Outcome {
  const items = typeof value === "string" ? [{ text: value }] : Array.isArray(value) ? value : [value];
  const contents = items.map((item) => contentFor(uri, definition, item));
  // A resource's own caching hints win over the mock's (the rest is added to every modern result).
  if (definition.cache !== undefined && versionHas(answering.context.protocolVersion, "cacheHints")) {
    return replyWith(answering.requestId, { contents, ...cacheHintsFor(input.state.cache, "resources/read", definition.cache) });
  }
  return replyWith(answering.requestId, { contents });
}

function contentFor(uri: string, definition: ResourceDefinition, item: ResourceContent): Record<string, unknown> {
  const content: Record<string, unknown> = { uri: item.uri ?? uri };
  const mimeType = item.mimeType ?? definition.mimeType ?? (item.blob !== undefined ? "application/octet-stream" : "text/plain");
  content.mimeType = mimeType;
  if (item.blob !== undefined) content.blob = typeof item.blob === "string" ? item.blob : Buffer.from(item.blob).toString("base64");
  else content.text = item.text ?? "";
  if (item._meta !== undefined) content._meta = item._meta;
  return content;
}

/** Fills `{name}` in a template's static text with the values read from the URI. */
function substitute(text: string, variables: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => ownEntry(variables, name) ?? whole);
}

/**
 * Whether the request can see `uri`: the catalog has it, or a source lists it for this request
 * (the fakes' resources of the request's blocks, the ones its `resources/read` would answer).
 * Asked of the listings, not of the read sources: a subscription must not use up a read.
 */
function resourceExists(input: HandlerInput, uri: string): boolean {
  if (input.state.catalog.findResource(uri)) return true;
  for (const source of input.state.resourceListSources) {
    if (source(input.context).some((entry) => entry.uri === uri)) return true;
  }
  return false;
}

export const subscribe: RequestHandler = (input) => {
  const uri = requireString(input.params, "uri", "resources/subscribe");
  if (!resourceExists(input, uri)) throw notFound(uri, input);
  input.connection.negotiated.subscriptions.add(uri);
  return ok(input, {});
};

export const unsubscribe: RequestHandler = (input) => {
  const uri = requireString(input.params, "uri", "resources/unsubscribe");
  input.connection.negotiated.subscriptions.delete(uri);
  return ok(input, {});
};
