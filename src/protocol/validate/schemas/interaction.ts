/** Server-initiated exchanges and their helpers: sampling, elicitation (form and URL), tasks, roots. */
import { zod } from "../../../util/zod-on-demand.js";
import { isObject } from "../../jsonrpc.js";
import { mcpObject, requestParams, resultObject, sharedShapes } from "./base.js";
import { choose, problemIssue, tagged, stringFormats, type Schema } from "./combinators.js";
import type { CatalogSchemas } from "./catalog.js";
import type { ContentSchemas } from "./content.js";
import type { SchemaKit } from "./kit.js";

export interface InteractionSchemas {
  createMessageParams: Schema;
  createMessageResult: Schema;
  elicitParams: Schema;
  /** -32042's `data`: the URL elicitations the client must complete first. */
  urlElicitationRequiredData: Schema;
  elicitResult: Schema;
  task: Schema;
  /** The `task` param that asks for a request to run as a task. */
  taskMetadata: Schema;
  root: Schema;
}

export function interactionSchemas(kit: SchemaKit, content: ContentSchemas, catalog: CatalogSchemas): InteractionSchemas {
  const z = zod();
  const { jsonObject, role, unitInterval } = sharedShapes();
  const { fileUriString, uriString } = stringFormats();
  const { since, has } = kit;
  const taskMetadata = since("tasks", z.looseObject({ ttl: z.number().optional() })).optional();

  const samplingMessage = mcpObject({ role, content: content.samplingContent });
  const modelPreferences = z.looseObject({
    hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
    costPriority: unitInterval.optional(),
    speedPriority: unitInterval.optional(),
    intelligencePriority: unitInterval.optional(),
  });
  const createMessageParams = requestParams({
    messages: z.array(samplingMessage),
    modelPreferences: modelPreferences.optional(),
    systemPrompt: z.string().optional(),
    includeContext: z.enum(["none", "thisServer", "allServers"]).optional(),
    temperature: z.number().optional(),
    maxTokens: z.number(),
    stopSequences: z.array(z.string()).optional(),
    metadata: jsonObject.optional(),
    tools: since("samplingTools", z.array(catalog.tool)).optional(),
    toolChoice: since("samplingTools", z.looseObject({ mode: z.enum(["auto", "required", "none"]).optional() })).optional(),
    task: taskMetadata,
  });
  const createMessageResult = resultObject({
    role,
    content: content.samplingContent,
    model: z.string(),
    stopReason: z.string().optional(),
  });

  const urlParams = requestParams({
    mode: z.literal("url"),
    message: z.string(),
    // Required while URL mode answered through notifications/elicitation/complete; 2026-07-28 dropped it.
    elicitationId: has("elicitationId") ? z.string() : z.string().optional(),
    url: uriString,
    task: taskMetadata,
  });
  const formParams = requestParams({
    mode: z.literal("form").optional(),
    message: z.string(),
    requestedSchema: z.looseObject({
      $schema: z.string().optional(),
      type: z.literal("object"),
      properties: z.record(z.string(), primitiveSchemaDefinition(kit)),
      required: z.array(z.string()).optional(),
    }),
    task: taskMetadata,
  });
  // Before URL mode there was no `mode`; a form request is the one without it.
  const elicitParams = tagged("mode", { form: formParams, url: since("elicitationUrlMode", urlParams) }, { defaultTag: "form" });

  const multiSelectValues = since("elicitationEnumVariants", z.array(z.string()));
  const singleValue = z.union([z.string(), z.number(), z.boolean()]);
  const formValue = choose("a string, a number, a boolean or a list of strings", (value) => (Array.isArray(value) ? multiSelectValues : singleValue));
  const elicitResult = resultObject({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), formValue).optional(),
  }).superRefine((result, ctx) => {
    // The spec: content is "only present when action is accept".
    if (isObject(result) && result.content !== undefined && result.action !== "accept" && typeof result.action === "string") {
      ctx.addIssue({ ...problemIssue(`expected no "content" when "action" is ${JSON.stringify(result.action)}; content comes only with "accept"`), path: ["content"] });
    }
  });

  const task = mcpObject({
    taskId: z.string(),
    status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
    statusMessage: z.string().optional(),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttl: z.number().nullable(),
    pollInterval: z.number().optional(),
  });

  const root = mcpObject({ uri: fileUriString, name: z.string().optional() });

  return {
    createMessageParams,
    createMessageResult,
    elicitParams,
    urlElicitationRequiredData: z.looseObject({ elicitations: z.array(urlParams) }),
    elicitResult,
    task,
    taskMetadata,
    root,
  };
}

/** The flat field schemas a form may ask for: strings, numbers, booleans and enums. */
function primitiveSchemaDefinition(kit: SchemaKit): Schema {
  const z = zod();
  const { since } = kit;
  const described = { title: z.string().optional(), description: z.string().optional() };
  const titledOptions = z.array(z.looseObject({ const: z.string(), title: z.string() }));

  const plainString = z.looseObject({
    ...described,
    type: z.literal("string"),
    minLength: z.int().optional(),
    maxLength: z.int().optional(),
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    default: z.string().optional(),
  });
  const enumString = z.looseObject({
    ...described,
    type: z.literal("string"),
    enum: z.array(z.string()),
    enumNames: z.array(z.string()).optional(),
    default: z.string().optional(),
  });
  const titledEnum = since("elicitationEnumVariants", z.looseObject({ ...described, type: z.literal("string"), oneOf: titledOptions, default: z.string().optional() }));
  const stringField = choose("a string field", (value) => {
    if (isObject(value) && "enum" in value) return enumString;
    if (isObject(value) && "oneOf" in value) return titledEnum;
    return plainString;
  });

  const number = z.looseObject({
    ...described,
    type: z.enum(["number", "integer"]),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  });
  const boolean = z.looseObject({ ...described, type: z.literal("boolean"), default: z.boolean().optional() });
  const untitledItems = z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) });
  const titledItems = z.looseObject({ anyOf: titledOptions });
  const multiSelect = z.looseObject({
    ...described,
    type: z.literal("array"),
    minItems: z.int().optional(),
    maxItems: z.int().optional(),
    items: choose('"items" with "enum" or "anyOf"', (value) => (isObject(value) && "anyOf" in value ? titledItems : untitledItems)),
    default: z.array(z.string()).optional(),
  });

  return tagged("type", {
    string: stringField,
    number,
    integer: number,
    boolean,
    array: since("elicitationEnumVariants", multiSelect),
  });
}
