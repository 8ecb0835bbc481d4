/** Params and results of every MCP method, for one protocol version. */
import { zod } from "../../../util/zod-on-demand.js";
import { isObject } from "../../jsonrpc.js";
import { ErrorCode } from "../../errors.js";
import { notificationParams, paginatedResult, requestParams, resultObject, sharedShapes } from "./base.js";
import { catalogSchemas } from "./catalog.js";
import { choose, requiredValue, tagged, stringFormats, type Schema } from "./combinators.js";
import { contentSchemas } from "./content.js";
import { displayFields } from "./display.js";
import { interactionSchemas } from "./interaction.js";
import type { SchemaKit } from "./kit.js";
import { modernSchemas, type ModernSchemas } from "./modern.js";
import { tasksExtensionSchemas } from "./tasks-extension.js";

export interface MethodSchemaSet {
  /** Params of requests and notifications, by method (the same whichever side sends them). */
  params: ReadonlyMap<string, Schema>;
  /** Results, by the method of the request they answer. */
  results: ReadonlyMap<string, Schema>;
  /** Error `data` for error codes that promise a shape. */
  errorData: ReadonlyMap<number, Schema>;
  /** What 2026-07-28 adds around every request and result (nothing before it). */
  modern: ModernSchemas;
}

export function methodSchemas(kit: SchemaKit): MethodSchemaSet {
  const z = zod();
  const { emptyNotificationParams, emptyParams, emptyResult, jsonObject, loggingLevel, paginatedParams, progressToken, requestId } = sharedShapes();
  const { uriString } = stringFormats();
  const { since } = kit;
  const content = contentSchemas(kit);
  const catalog = catalogSchemas(kit, content);
  const interaction = interactionSchemas(kit, content, catalog);
  const { title } = displayFields(kit);
  const modern = modernSchemas(kit, catalog, interaction);
  const { retryParams } = modern;

  /** A result that may instead be a task handle when the request asked for a task (2025-11-25). */
  const orTaskHandle = (result: Schema) => {
    const createTaskResult = since("tasks", resultObject({ task: interaction.task }));
    return choose("a result object", (value) => (isObject(value) && "task" in value && !("content" in value) ? createTaskResult : result));
  };
  const taskIdParams = requestParams({ taskId: z.string() });
  // 2025-11-25: a task result is the task itself (plus the result's own `_meta`); the extension's are its own.
  const extension = tasksExtensionSchemas(kit);
  const taskResult = kit.has("tasksExtension") ? extension.detailedTask : interaction.task;
  const cancelResult = kit.has("tasksExtension") ? extension.ack : interaction.task;
  /** A tool call the server made a task of (the tasks extension: `resultType: "task"`, the task's fields flat). */
  const orExtensionTask = (result: Schema) => choose("a result object", (value) => (isObject(value) && value.resultType === "task" ? extension.createTaskResult : result));

  const callToolResult = resultObject({
    content: z.array(content.contentBlock),
    structuredContent: since("structuredContent", kit.has("structuredContentAnyValue") ? z.unknown() : jsonObject).optional(),
    isError: z.boolean().optional(),
  });

  const completeParams = requestParams({
    ref: tagged("type", {
      "ref/prompt": z.looseObject({ type: z.literal("ref/prompt"), name: z.string(), title }),
      "ref/resource": z.looseObject({ type: z.literal("ref/resource"), uri: z.string() }),
    }),
    argument: z.looseObject({ name: z.string(), value: z.string() }),
    context: since("completionContext", z.looseObject({ arguments: z.record(z.string(), z.string()).optional() })).optional(),
  });
  const completeResult = resultObject({
    completion: z.looseObject({
      values: z.array(z.string()).max(100),
      total: z.int().optional(),
      hasMore: z.boolean().optional(),
    }),
  });

  const params = new Map<string, Schema>([
    ["initialize", requestParams({ protocolVersion: z.string(), capabilities: catalog.clientCapabilities, clientInfo: catalog.implementation })],
    ["ping", emptyParams],
    ["tools/list", paginatedParams],
    ["tools/call", requestParams({ name: z.string(), arguments: jsonObject.optional(), task: interaction.taskMetadata, ...retryParams })],
    ["resources/list", paginatedParams],
    ["resources/templates/list", paginatedParams],
    ["resources/read", requestParams({ uri: uriString, ...retryParams })],
    ["resources/subscribe", requestParams({ uri: uriString })],
    ["resources/unsubscribe", requestParams({ uri: uriString })],
    ["prompts/list", paginatedParams],
    ["prompts/get", requestParams({ name: z.string(), arguments: z.record(z.string(), z.string()).optional(), ...retryParams })],
    ["server/discover", emptyParams],
    ["subscriptions/listen", modern.listenParams],
    ["completion/complete", completeParams],
    ["logging/setLevel", requestParams({ level: loggingLevel })],
    ["sampling/createMessage", interaction.createMessageParams],
    ["elicitation/create", interaction.elicitParams],
    ["roots/list", emptyParams],
    ["tasks/get", taskIdParams],
    ["tasks/result", taskIdParams],
    ["tasks/cancel", taskIdParams],
    ["tasks/list", paginatedParams],
    ["tasks/update", extension.updateParams],
    ["notifications/initialized", emptyNotificationParams],
    [
      "notifications/cancelled",
      notificationParams({
        // Optional once tasks exist: a task is cancelled with tasks/cancel instead.
        requestId: kit.has("cancelWithoutRequestId") ? requestId.optional() : requestId,
        reason: z.string().optional(),
      }),
    ],
    [
      "notifications/progress",
      notificationParams({
        progressToken,
        progress: z.number(),
        total: z.number().optional(),
        message: since("progressMessage", z.string()).optional(),
      }),
    ],
    ["notifications/message", notificationParams({ level: loggingLevel, logger: z.string().optional(), data: requiredValue("any JSON value") })],
    ["notifications/resources/updated", notificationParams({ uri: uriString })],
    ["notifications/resources/list_changed", emptyNotificationParams],
    ["notifications/tools/list_changed", emptyNotificationParams],
    ["notifications/prompts/list_changed", emptyNotificationParams],
    ["notifications/roots/list_changed", emptyNotificationParams],
    ["notifications/elicitation/complete", notificationParams({ elicitationId: z.string() })],
    ["notifications/tasks/status", interaction.task],
    ["notifications/subscriptions/acknowledged", modern.acknowledgedParams],
  ]);

  const results = new Map<string, Schema>([
    [
      "initialize",
      resultObject({
        protocolVersion: z.string(),
        capabilities: catalog.serverCapabilities,
        serverInfo: catalog.implementation,
        instructions: z.string().optional(),
      }),
    ],
    ["ping", emptyResult],
    ["tools/list", paginatedResult({ tools: z.array(catalog.tool) })],
    ["tools/call", orExtensionTask(orTaskHandle(callToolResult))],
    ["resources/list", paginatedResult({ resources: z.array(catalog.resource) })],
    ["resources/templates/list", paginatedResult({ resourceTemplates: z.array(catalog.resourceTemplate) })],
    ["resources/read", resultObject({ contents: z.array(content.resourceContents) })],
    ["resources/subscribe", emptyResult],
    ["resources/unsubscribe", emptyResult],
    ["prompts/list", paginatedResult({ prompts: z.array(catalog.prompt) })],
    ["prompts/get", resultObject({ description: z.string().optional(), messages: z.array(catalog.promptMessage) })],
    ["completion/complete", completeResult],
    ["logging/setLevel", emptyResult],
    ["sampling/createMessage", orTaskHandle(interaction.createMessageResult)],
    ["elicitation/create", orTaskHandle(interaction.elicitResult)],
    ["roots/list", resultObject({ roots: z.array(interaction.root) })],
    ["tasks/get", taskResult],
    ["tasks/cancel", cancelResult],
    ["tasks/update", extension.ack],
    // The payload is the original request's result, whatever it was.
    ["tasks/result", emptyResult],
    ["tasks/list", paginatedResult({ tasks: z.array(interaction.task) })],
    ["server/discover", modern.discoverResult],
    ["subscriptions/listen", modern.listenResult],
  ]);

  const errorData = new Map<number, Schema>();
  if (kit.has("elicitationUrlMode")) errorData.set(ErrorCode.UrlElicitationRequired, interaction.urlElicitationRequiredData);

  // `requested` is a string: the SDK's client recognises -32022 only when it is one.
  if (kit.has("perRequestMeta")) errorData.set(ErrorCode.UnsupportedProtocolVersion, z.looseObject({ supported: z.array(z.string()), requested: z.string() }));
  if (kit.has("perRequestMeta")) errorData.set(ErrorCode.MissingRequiredClientCapability, z.looseObject({ requiredCapabilities: catalog.clientCapabilities }));

  return { params, results, errorData, modern };
}
