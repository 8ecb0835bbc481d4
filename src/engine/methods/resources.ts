/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `unsubscribe`. */
import { errorDetail } from "../../errors.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { InputRequiredAnswer, ResourceContent, ResourceDefinition, ResourceReadValue } from "../catalog.js";
import { asksForInput, inputRequiredOutcome } from "./input-required.js";
import { runContent } from "./content-asks.js";
import { RpcError, type Outcome } from "../outcome.js";
import { RESOURCE_FIELDS } from "../version-shape.js";
import { ownEntry } from "../own-entry.js";
import { ok, type HandlerInput, type RequestHandler } from "./handler-input.js";
import { requireString } from "./params.js";
import { versionHas } from "../../protocol/versions.js";
import { cacheHintsFor } from "../cache-hints.js";
import { answerOrThrow, askSources, byUri } from "../request-sources.js";
import { listPage } from "./list-page.js";
import { thrownRpcError } from "../steps.js";
import { listFirst } from "../../util/text.js";
import { closest } from "../../util/closest.js";

export const listResources: RequestHandler = (input) =>
  listPage(input, input.state.catalog.resources.values(), { key: "resources", fields: RESOURCE_FIELDS, sources: input.state.resourceListSources, name: byUri });

export const listResourceTemplates: RequestHandler = (input) =>
  listPage(input, input.state.catalog.templates.values(), { key: "resourceTemplates", fields: RESOURCE_FIELDS });

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
  const version = input.context.protocolVersion;
  const answered = askSources(input.state.resourceReadSources, { uri, sessionId: input.connection.id, requestId: input.request.id }, input.context);
  if (answered !== undefined) return ok(input, answerOrThrow(answered));
  const found = input.state.catalog.findResource(uri);
  if (!found) throw notFound(uri, input);
  const contents = await readContents(input, uri, found.definition, found.variables);
  if ("outcome" in contents) return contents.outcome;
  if (asksForInput(contents)) return inputRequiredOutcome(input, `Resource ${uri}`, contents);
  // A resource's own caching hints win over the mock's (the rest is added to every modern result).
  if (found.definition.cache !== undefined && versionHas(version, "cacheHints")) return ok(input, { contents, ...cacheHintsFor(input.state.cache, "resources/read", found.definition.cache) });
  return ok(input, { contents });
};

/** The contents a read gives, a raw `{ inputRequired }` of its function, or (its asks, 2026-07-28) the answer asking for input first. */
async function readContents(input: HandlerInput, uri: string, definition: ResourceDefinition, variables: Record<string, string>): Promise<Record<string, unknown>[] | InputRequiredAnswer | { outcome: Outcome }> {
  let value: ResourceReadValue;
  if (definition.throws !== undefined) throw thrownRpcError(definition.throws);
  if (definition.read) {
    const read = definition.read;
    try {
      const run = await runContent(input, "resources/read", uri, {}, (request) => read(uri, variables, request));
      if ("outcome" in run) return run;
      if (asksForInput(run.value)) return run.value;
      value = run.value;
    } catch (thrown) {
      if (thrown instanceof RpcError) throw thrown;
      throw new RpcError(ErrorCode.InternalError, `Reading resource ${uri} threw: ${errorDetail(thrown)}`);
    }
  } else if (definition.blob !== undefined) value = { blob: definition.blob };
  else value = { text: substitute(definition.text ?? "", variables) };
  const items = typeof value === "string" ? [{ text: value }] : Array.isArray(value) ? value : [value];
  return items.map((item) => contentFor(uri, definition, item));
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
