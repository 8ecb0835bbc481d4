/** Content blocks, resource contents and annotations, per revision (audio, resource_link, tool use). */
import { zod } from "../../../util/zod-on-demand.js";
import { isObject } from "../../jsonrpc.js";
import { mcpObject, sharedShapes } from "./base.js";
import { choose, tagged, stringFormats, type Schema } from "./combinators.js";
import { displayFields } from "./display.js";
import type { SchemaKit } from "./kit.js";

export interface ContentSchemas {
  annotations: Schema;
  resourceContents: Schema;
  /** The blocks of tool results and prompt messages. */
  contentBlock: Schema;
  /** What a sampling message carries: one block, or (with sampling tools) a list of them. */
  samplingContent: Schema;
  /** Resource fields, shared by `resources/list` entries and resource_link blocks. */
  resourceShape: Record<string, Schema>;
}

export function contentSchemas(kit: SchemaKit): ContentSchemas {
  const z = zod();
  const { jsonObject, role, unitInterval } = sharedShapes();
  const { base64String, uriString } = stringFormats();
  const { since } = kit;
  const annotations = z.looseObject({
    audience: z.array(role).optional(),
    priority: unitInterval.optional(),
    lastModified: since("annotationLastModified", z.string()).optional(),
  });
  const { title, icons } = displayFields(kit);

  const textContents = mcpObject({ uri: uriString, mimeType: z.string().optional(), text: z.string() });
  const blobContents = mcpObject({ uri: uriString, mimeType: z.string().optional(), blob: base64String });
  const resourceContents = choose('resource contents with "text" (a string) or "blob" (base64)', (value) => {
    if (!isObject(value)) return undefined;
    if ("text" in value) return textContents;
    if ("blob" in value) return blobContents;
    return undefined;
  });

  const text = mcpObject({ type: z.literal("text"), text: z.string(), annotations: annotations.optional() });
  const binary = (type: string) => mcpObject({ type: z.literal(type), data: base64String, mimeType: z.string(), annotations: annotations.optional() });
  const embeddedResource = mcpObject({ type: z.literal("resource"), resource: resourceContents, annotations: annotations.optional() });
  const resourceShape = {
    uri: uriString,
    name: z.string(),
    title,
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.number().optional(),
    annotations: annotations.optional(),
    icons,
  };
  const resourceLink = mcpObject({ ...resourceShape, type: z.literal("resource_link") });

  const contentBlock = tagged("type", {
    text,
    image: binary("image"),
    audio: since("audioContent", binary("audio")),
    resource: embeddedResource,
    resource_link: since("resourceLinkContent", resourceLink),
  });

  const toolUse = mcpObject({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: jsonObject });
  const toolResult = mcpObject({
    type: z.literal("tool_result"),
    toolUseId: z.string(),
    content: z.array(contentBlock),
    structuredContent: jsonObject.optional(),
    isError: z.boolean().optional(),
  });
  const samplingBlock = tagged("type", {
    text,
    image: binary("image"),
    audio: since("audioContent", binary("audio")),
    tool_use: since("samplingTools", toolUse),
    tool_result: since("samplingTools", toolResult),
  });
  const samplingBlocks = since("samplingTools", z.array(samplingBlock));
  const samplingContent = choose("a content block", (value) => (Array.isArray(value) ? samplingBlocks : samplingBlock));

  return { annotations, resourceContents, contentBlock, samplingContent, resourceShape };
}
