/** Shapes every MCP revision shares: ids, `_meta`, and the open objects params and results are made of. */
import { z } from "zod";
import { LoggingLevels } from "../../methods.js";
import type { Schema } from "./combinators.js";

type Shape = Record<string, Schema>;

/** Any JSON object (not an array, not null). */
export const jsonObject = z.record(z.string(), z.unknown());

/** `_meta` is reserved for metadata and must be an object wherever it appears. */
const meta = jsonObject;

export const requestId = z.union([z.string(), z.number()]);
export const progressToken = requestId;

/** An MCP object: open to extra keys (the schema is open), with an optional `_meta`. */
export function mcpObject(shape: Shape): Schema {
  return z.looseObject({ ...shape, _meta: meta.optional() });
}

/** Request params; `_meta.progressToken` asks for progress notifications. */
export function requestParams(shape: Shape): Schema {
  return z.looseObject({ ...shape, _meta: z.looseObject({ progressToken: progressToken.optional() }).optional() });
}

export const notificationParams = mcpObject;
export const resultObject = mcpObject;

export const emptyParams = requestParams({}).optional();
export const emptyNotificationParams = notificationParams({}).optional();
export const emptyResult = resultObject({});

export const paginatedParams = requestParams({ cursor: z.string().optional() }).optional();

export function paginatedResult(shape: Shape): Schema {
  return resultObject({ ...shape, nextCursor: z.string().optional() });
}

export const role = z.enum(["user", "assistant"]);
export const loggingLevel = z.enum(LoggingLevels);

/** A number in [0, 1] (priorities in annotations and model preferences). */
export const unitInterval = z.number().min(0).max(1);
