/** What servers list and clients and servers introduce themselves with: tools, resources, prompts, implementations, capabilities. */
import { zod } from "../../../util/zod-on-demand.js";
import { mcpObject, sharedShapes } from "./base.js";
import { stringFormats, type Schema } from "./combinators.js";
import type { ContentSchemas } from "./content.js";
import { displayFields } from "./display.js";
import type { SchemaKit } from "./kit.js";

export interface CatalogSchemas {
  tool: Schema;
  resource: Schema;
  resourceTemplate: Schema;
  prompt: Schema;
  promptMessage: Schema;
  implementation: Schema;
  clientCapabilities: Schema;
  serverCapabilities: Schema;
}

export function catalogSchemas(kit: SchemaKit, content: ContentSchemas): CatalogSchemas {
  const z = zod();
  const { jsonObject, role } = sharedShapes();
  const { uriString } = stringFormats();

  /** Capability flags are objects whose keys mean "supported" (`{}` is the usual value). */
  const capability = z.looseObject({});

  /** inputSchema (and outputSchema before 2026-07-28): a JSON Schema whose root is an object type, as MCP requires. */
  const objectTypeSchema = z.looseObject({
    type: z.literal("object"),
    properties: z.record(z.string(), jsonObject).optional(),
    required: z.array(z.string()).optional(),
    $schema: z.string().optional(),
  });

  /** outputSchema from 2026-07-28: any JSON Schema object (structured content may be any JSON value). */
  const anyRootSchema = z.looseObject({ $schema: z.string().optional() });
  const { since } = kit;
  const { title, icons } = displayFields(kit);

  const toolAnnotations = z.looseObject({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  });
  const tool = mcpObject({
    name: z.string(),
    title,
    description: z.string().optional(),
    inputSchema: objectTypeSchema,
    outputSchema: since("outputSchema", kit.has("structuredContentAnyValue") ? anyRootSchema : objectTypeSchema).optional(),
    annotations: since("toolAnnotations", toolAnnotations).optional(),
    execution: since("tasks", z.looseObject({ taskSupport: z.enum(["forbidden", "optional", "required"]).optional() })).optional(),
    icons,
  });

  const resource = mcpObject(content.resourceShape);
  const resourceTemplate = mcpObject({
    uriTemplate: z.string(),
    name: z.string(),
    title,
    description: z.string().optional(),
    mimeType: z.string().optional(),
    annotations: content.annotations.optional(),
    icons,
  });

  const promptArgument = mcpObject({ name: z.string(), title, description: z.string().optional(), required: z.boolean().optional() });
  const prompt = mcpObject({ name: z.string(), title, description: z.string().optional(), arguments: z.array(promptArgument).optional(), icons });
  const promptMessage = z.looseObject({ role, content: content.contentBlock });

  const implementation = z.looseObject({
    name: z.string(),
    version: z.string(),
    title,
    icons,
    description: since("implementationDescription", z.string()).optional(),
    websiteUrl: since("implementationDescription", uriString).optional(),
  });

  const listChanged = z.looseObject({ listChanged: z.boolean().optional() });
  const tasksCapability = since("tasks", capability).optional();
  const clientCapabilities = z.looseObject({
    experimental: z.record(z.string(), capability).optional(),
    roots: listChanged.optional(),
    sampling: z.looseObject({ context: capability.optional(), tools: since("samplingTools", capability).optional() }).optional(),
    elicitation: since("elicitation", z.looseObject({ form: capability.optional(), url: since("elicitationUrlMode", capability).optional() })).optional(),
    tasks: tasksCapability,
  });
  const serverCapabilities = z.looseObject({
    experimental: z.record(z.string(), capability).optional(),
    logging: capability.optional(),
    completions: since("completionsCapability", capability).optional(),
    prompts: listChanged.optional(),
    resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
    tools: listChanged.optional(),
    tasks: tasksCapability,
  });

  return { tool, resource, resourceTemplate, prompt, promptMessage, implementation, clientCapabilities, serverCapabilities };
}
