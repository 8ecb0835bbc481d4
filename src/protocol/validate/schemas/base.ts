/** Shapes every MCP revision shares: ids, `_meta`, and the open objects params and results are made of. */
import { zod } from "../../../util/zod-on-demand.js";
import { LoggingLevels } from "../../methods.js";
import type { Schema } from "./combinators.js";

type Shape = Record<string, Schema>;

/** An MCP object: open to extra keys (the schema is open), with an optional `_meta`. */
export function mcpObject(shape: Shape): Schema {
  // `_meta` is reserved for metadata and must be an object wherever it appears.
  return zod().looseObject({ ...shape, _meta: leafShapes().jsonObject.optional() });
}

/** Request params; `_meta.progressToken` asks for progress notifications. */
export function requestParams(shape: Shape): Schema {
  const z = zod();
  return z.looseObject({ ...shape, _meta: z.looseObject({ progressToken: leafShapes().progressToken.optional() }).optional() });
}

export const notificationParams = mcpObject;
export const resultObject = mcpObject;

export function paginatedResult(shape: Shape): Schema {
  return resultObject({ ...shape, nextCursor: zod().string().optional() });
}

export interface SharedShapes {
  /** Any JSON object (not an array, not null). */
  jsonObject: Schema;
  requestId: Schema;
  progressToken: Schema;
  emptyParams: Schema;
  emptyNotificationParams: Schema;
  emptyResult: Schema;
  paginatedParams: Schema;
  role: Schema;
  loggingLevel: Schema;
  /** A number in [0, 1] (priorities in annotations and model preferences). */
  unitInterval: Schema;
}

let leaves: Pick<SharedShapes, "jsonObject" | "requestId" | "progressToken"> | undefined;
let shared: SharedShapes | undefined;

/** The shapes the object builders above are made of. */
function leafShapes(): Pick<SharedShapes, "jsonObject" | "requestId" | "progressToken"> {
  if (leaves !== undefined) return leaves;
  const z = zod();
  const requestId = z.union([z.string(), z.number()]);
  leaves = { jsonObject: z.record(z.string(), z.unknown()), requestId, progressToken: requestId };
  return leaves;
}

/** The shapes every revision shares, built once, when the first schema set is. */
export function sharedShapes(): SharedShapes {
  if (shared !== undefined) return shared;
  const z = zod();
  shared = {
    ...leafShapes(),
    emptyParams: requestParams({}).optional(),
    emptyNotificationParams: notificationParams({}).optional(),
    emptyResult: resultObject({}),
    paginatedParams: requestParams({ cursor: z.string().optional() }).optional(),
    role: z.enum(["user", "assistant"]),
    loggingLevel: z.enum(LoggingLevels),
    unitInterval: z.number().min(0).max(1),
  };
  return shared;
}
