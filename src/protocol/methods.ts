/** MCP method names, by who sends them. One list, so the engine, validator and recorder agree. */
import type { Feature } from "./versions.js";

export const ClientRequestMethods = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
] as const;

export const ClientNotificationMethods = [
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
] as const;

export const ServerRequestMethods = ["ping", "sampling/createMessage", "elicitation/create", "roots/list"] as const;

export const ServerNotificationMethods = [
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/elicitation/complete",
] as const;

/** Task methods (2025-11-25): either side may run tasks, so both send these. */
export const TaskRequestMethods = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"] as const;
export const TaskNotificationMethods = ["notifications/tasks/status"] as const;

/** The feature a method needs, for methods that not every revision has (the rest are in all). */
const METHOD_FEATURES: Readonly<Record<string, Feature>> = Object.freeze({
  "elicitation/create": "elicitation",
  "notifications/elicitation/complete": "elicitationUrlMode",
  ...Object.fromEntries([...TaskRequestMethods, ...TaskNotificationMethods].map((method) => [method, "tasks" as const])),
});

/** The feature a method needs, if not every revision has it. */
export function featureOfMethod(method: string): Feature | undefined {
  return Object.hasOwn(METHOD_FEATURES, method) ? METHOD_FEATURES[method] : undefined;
}

export type ClientRequestMethod = (typeof ClientRequestMethods)[number];
export type ClientNotificationMethod = (typeof ClientNotificationMethods)[number];
export type ServerRequestMethod = (typeof ServerRequestMethods)[number];
export type ServerNotificationMethod = (typeof ServerNotificationMethods)[number];

/** Logging levels in increasing severity (RFC 5424 names, as MCP uses them). */
export const LoggingLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LoggingLevel = (typeof LoggingLevels)[number];
