/**
 * What protocol revision 2026-07-28 adds around every message: the per-request `_meta` (version,
 * client capabilities, client info, log level), `resultType` on every result (`complete`, or
 * `input_required` with `inputRequests` / `requestState` on the three methods that may ask for
 * input), `ttlMs` and `cacheScope` on cacheable results, and the shapes of `server/discover` and
 * `subscriptions/listen`. Each piece exists only where the version has its feature (the kit).
 */
import { zod } from "../../../util/zod-on-demand.js";
import { isObject } from "../../jsonrpc.js";
import { META } from "../../meta-keys.js";
import { isCacheableMethod, isInputMethod } from "../../methods.js";
import { notificationParams, requestParams, resultObject, sharedShapes } from "./base.js";
import type { CatalogSchemas } from "./catalog.js";
import { choose, exactString, problemIssue, tagged, stringFormats, type Schema } from "./combinators.js";
import type { InteractionSchemas } from "./interaction.js";
import type { SchemaKit } from "./kit.js";

export interface ModernSchemas {
  /** `params` of every client request (with its required `_meta`); undefined before 2026-07-28. */
  requestEnvelope: Schema | undefined;
  /** What every result carries besides its method's fields, by method; none before 2026-07-28. */
  resultEnvelope(method: string): Schema | undefined;
  /** An `input_required` result (the method's own schema does not apply to it). */
  inputRequiredResult: Schema;
  /** Extra request params of the MRTR retry (`inputResponses`, `requestState`). */
  retryParams: Record<string, Schema>;
  discoverResult: Schema;
  listenParams: Schema;
  listenResult: Schema;
  acknowledgedParams: Schema;
}

export function modernSchemas(kit: SchemaKit, catalog: CatalogSchemas, interaction: InteractionSchemas): ModernSchemas {
  const z = zod();
  const { jsonObject, loggingLevel, progressToken } = sharedShapes();
  const { uriString } = stringFormats();
  const { since, has } = kit;

  // A request names the revision it is sent in, so it must be the one it is validated as.
  const ownVersion = exactString(
    kit.version,
    (named) =>
      `the request names protocol version ${JSON.stringify(named)} but is validated as ${kit.version}; its _meta (like its MCP-Protocol-Version header) must name the revision the request is sent in: expected ${JSON.stringify(kit.version)}`,
  );
  const requestMeta = z.looseObject({
    [META.protocolVersion]: ownVersion,
    [META.clientCapabilities]: catalog.clientCapabilities,
    [META.clientInfo]: catalog.implementation.optional(),
    [META.logLevel]: loggingLevel.optional(),
    progressToken: progressToken.optional(),
  });
  const requestEnvelope = has("perRequestMeta") ? z.looseObject({ _meta: requestMeta }) : undefined;

  const cacheFields = { ttlMs: z.int().min(0), cacheScope: z.enum(["public", "private"]) };
  const resultMeta = z.looseObject({ [META.serverInfo]: catalog.implementation.optional() }).optional();
  const complete = z.looseObject({ resultType: z.literal("complete"), _meta: resultMeta });
  const completeOrInput = z.looseObject({ resultType: z.enum(["complete", "input_required"]), _meta: resultMeta });
  // The tasks extension: the server may answer a tool call with a task instead.
  const completeInputOrTask = has("tasksExtension") ? z.looseObject({ resultType: z.enum(["complete", "input_required", "task"]), _meta: resultMeta }) : completeOrInput;
  const cacheable = z.looseObject({ resultType: z.literal("complete"), _meta: resultMeta, ...cacheFields });
  const envelopes = new Map<string, Schema>();
  const resultEnvelope = (method: string): Schema | undefined => {
    if (!has("resultType")) return undefined;
    let schema = envelopes.get(method);
    if (schema === undefined) {
      const cached = has("cacheHints") && isCacheableMethod(method);
      const mayAsk = has("mrtr") && isInputMethod(method);
      // An input_required result skips the cache fields: it is never cached.
      const asking = method === "tools/call" ? completeInputOrTask : completeOrInput;
      schema = mayAsk
        ? choose("a result object", (value) => (isObject(value) && value.resultType === "input_required" ? completeOrInput : cached ? cacheable : asking))
        : cached
          ? cacheable
          : complete;
      envelopes.set(method, schema);
    }
    return schema;
  };

  // The three requests a server may ask in its input (the legacy era's server requests).
  const inputRequest = tagged("method", {
    "elicitation/create": z.looseObject({ method: z.literal("elicitation/create"), params: interaction.elicitParams }),
    "sampling/createMessage": z.looseObject({ method: z.literal("sampling/createMessage"), params: interaction.createMessageParams }),
    "roots/list": z.looseObject({ method: z.literal("roots/list"), params: jsonObject.optional() }),
  });
  const rootsResult = resultObject({ roots: z.array(interaction.root) });
  const inputResponse = choose("an elicitation result ({ action }), a roots result ({ roots }) or a sampling result ({ role, content, model })", (value) => {
    if (!isObject(value)) return undefined;
    if ("action" in value) return interaction.elicitResult;
    if ("roots" in value) return rootsResult;
    // Judged as a sampling result only when it looks like one: anything else is none of the three.
    return "role" in value || "content" in value || "model" in value ? interaction.createMessageResult : undefined;
  });
  const inputRequiredResult = z
    .looseObject({
      resultType: z.literal("input_required"),
      inputRequests: z.record(z.string(), inputRequest).optional(),
      requestState: z.string().optional(),
      _meta: resultMeta,
    })
    .superRefine((value, ctx) => {
      if (value.inputRequests === undefined && value.requestState === undefined) {
        ctx.addIssue(problemIssue("expected inputRequests or requestState (an input_required result carries at least one)"));
      }
    });
  const retryParams = {
    inputResponses: since("mrtr", z.record(z.string(), inputResponse)).optional(),
    requestState: since("mrtr", z.string()).optional(),
  };

  const discoverResult = resultObject({
    supportedVersions: z.array(z.string()).min(1),
    capabilities: catalog.serverCapabilities,
    instructions: z.string().optional(),
  });
  const filter = z.looseObject({
    toolsListChanged: z.boolean().optional(),
    promptsListChanged: z.boolean().optional(),
    resourcesListChanged: z.boolean().optional(),
    resourceSubscriptions: z.array(uriString).optional(),
  });
  const listenParams = requestParams({ notifications: filter });
  const subscriptionId = z.union([z.string(), z.number()]);
  const listenResult = z.looseObject({ _meta: z.looseObject({ [META.subscriptionId]: subscriptionId }) });
  const acknowledgedParams = notificationParams({ notifications: filter });

  return {
    requestEnvelope,
    resultEnvelope,
    inputRequiredResult,
    retryParams,
    discoverResult: since("serverDiscover", discoverResult),
    listenParams: since("subscriptionsListen", listenParams),
    listenResult: since("subscriptionsListen", listenResult),
    acknowledgedParams: since("subscriptionsListen", acknowledgedParams),
  };
}
