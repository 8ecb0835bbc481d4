/** MCP method names, by who sends them. One list, so the engine, validator and recorder agree. */
import type { Feature } from "./versions.js";

/** Every request method a client sends a server, in all revisions. */
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
  "server/discover",
  "subscriptions/listen",
] as const;

/** Every notification a client sends a server. */
export const ClientNotificationMethods = ["notifications/initialized", "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed"] as const;

/** Every request a server sends a client (sampling, elicitation, roots, ping). */
export const ServerRequestMethods = ["ping", "sampling/createMessage", "elicitation/create", "roots/list"] as const;

/** Every notification a server sends a client. */
export const ServerNotificationMethods = [
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/elicitation/complete",
  "notifications/subscriptions/acknowledged",
] as const;

/** The notifications a server sends every client when something changed (a step's `broadcast`). */
export const BroadcastNotificationMethods = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/updated",
] as const;

/** Task methods (2025-11-25): either side may run tasks, so both send these. */
/** The Skills extension's requests (SEP-2640), a client's to a server that declares the extension. */
export const SkillsRequestMethods = ["skills/list", "skills/get", "resources/directory/read"] as const;

export const TaskRequestMethods = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"] as const;
/** Task notifications (2025-11-25), sent by either side. */
export const TaskNotificationMethods = ["notifications/tasks/status"] as const;
/** What the tasks extension (2026-07-28) adds: a client answers a task's input requests. */
export const TaskExtensionMethods = ["tasks/update"] as const;

/** Methods whose complete result carries `ttlMs` and `cacheScope` (caching, 2026-07-28). */
export const CacheableMethods = [
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  // The Skills extension's results are cacheable as resources/read's are.
  "skills/list",
  "skills/get",
  "resources/directory/read",
] as const;
export type CacheableMethod = (typeof CacheableMethods)[number];

/** Methods whose result may be `input_required` (multi round-trip requests, 2026-07-28). */
export const InputMethods = ["tools/call", "prompts/get", "resources/read"] as const;
export type InputMethod = (typeof InputMethods)[number];

// Sets for the lookups made on every result.
const cacheable: ReadonlySet<string> = new Set(CacheableMethods);
const askingForInput: ReadonlySet<string> = new Set(InputMethods);

export function isCacheableMethod(method: string): method is CacheableMethod {
  return cacheable.has(method);
}

/** The client capability each server-to-client request needs (the client declares it, at initialize or per request). */
export const CLIENT_CAPABILITY_OF_REQUEST: Readonly<Record<string, string>> = Object.freeze({
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
});

/** Whether `method`'s result may ask for input (`input_required`), so a client answers it in rounds. */
export function isInputMethod(method: string): method is InputMethod {
  return askingForInput.has(method);
}

/**
 * The features a method needs, for methods that not every revision has (the rest are in all).
 * A server request needs `serverRequests` too: 2026-07-28 asks for input in results instead.
 */
const METHOD_FEATURES: Readonly<Record<string, readonly Feature[]>> = Object.freeze({
  initialize: ["initialize"],
  "notifications/initialized": ["initialize"],
  ping: ["ping"],
  "logging/setLevel": ["loggingSetLevel"],
  "resources/subscribe": ["resourcesSubscribe"],
  "resources/unsubscribe": ["resourcesSubscribe"],
  "server/discover": ["serverDiscover"],
  "subscriptions/listen": ["subscriptionsListen"],
  "notifications/subscriptions/acknowledged": ["subscriptionsListen"],
  "elicitation/create": ["elicitation", "serverRequests"],
  "sampling/createMessage": ["serverRequests"],
  "roots/list": ["serverRequests"],
  "notifications/roots/list_changed": ["rootsListChanged"],
  "notifications/elicitation/complete": ["elicitationUrlMode"],
  ...Object.fromEntries([...TaskRequestMethods, ...TaskNotificationMethods].map((method) => [method, ["tasks"] as const])),
  ...Object.fromEntries(SkillsRequestMethods.map((method) => [method, ["skills"] as const])),
  "tasks/result": ["tasks", "coreTasks"],
  "tasks/list": ["tasks", "coreTasks"],
  "tasks/update": ["tasksExtension"],
});

/**
 * What a method needs when one side sends it, beyond `METHOD_FEATURES`: a client's progress
 * notification reports on a server's request (sampling, elicitation), which 2026-07-28 does not have.
 */
const CLIENT_SENT_FEATURES: Readonly<Record<string, readonly Feature[]>> = Object.freeze({
  "notifications/progress": ["serverRequests"],
});

const none: readonly Feature[] = [];

/** The features a method needs, if not every revision has it (empty when all do); `sender` adds what that side's copy needs. */
export function featuresOfMethod(method: string, sender?: "client" | "server"): readonly Feature[] {
  const features = Object.hasOwn(METHOD_FEATURES, method) ? METHOD_FEATURES[method]! : none;
  if (sender !== "client" || !Object.hasOwn(CLIENT_SENT_FEATURES, method)) return features;
  return [...features, ...CLIENT_SENT_FEATURES[method]!];
}

/** One of `ClientRequestMethods`, as a type. */
export type ClientRequestMethod = (typeof ClientRequestMethods)[number];
/** One of `ClientNotificationMethods`, as a type. */
export type ClientNotificationMethod = (typeof ClientNotificationMethods)[number];
/** One of `ServerRequestMethods`, as a type. */
export type ServerRequestMethod = (typeof ServerRequestMethods)[number];
/** One of `ServerNotificationMethods`, as a type. */
export type ServerNotificationMethod = (typeof ServerNotificationMethods)[number];

/** Logging levels in increasing severity (RFC 5424 names, as MCP uses them). */
export const LoggingLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
/** One of `LoggingLevels` (what `logging/setLevel` takes). */
export type LoggingLevel = (typeof LoggingLevels)[number];
