/**
 * Which methods each side may send, per protocol version. The lists and the feature each method
 * needs come from `methods.ts`.
 */
import {
  ClientNotificationMethods,
  ClientRequestMethods,
  featuresOfMethod,
  ServerNotificationMethods,
  ServerRequestMethods,
  TaskNotificationMethods,
  TaskRequestMethods,
} from "../methods.js";
import { versionHas, type ProtocolVersion } from "../versions.js";
import type { MessageDirection } from "./problem.js";

export type MethodKind = "request" | "notification";

const taskRequests = TaskRequestMethods;
const taskNotifications = TaskNotificationMethods;

/** Both sides send task requests and status notifications (either side can run tasks). */
const sentBy: Record<MessageDirection, Record<MethodKind, readonly string[]>> = {
  "client-to-server": {
    request: [...ClientRequestMethods, ...taskRequests],
    notification: [...ClientNotificationMethods, ...taskNotifications],
  },
  "server-to-client": {
    request: [...ServerRequestMethods, ...taskRequests],
    notification: [...ServerNotificationMethods, ...taskNotifications],
  },
};

/** The same lists as sets, for the lookup made on every message. */
const sentBySet: Record<MessageDirection, Record<MethodKind, ReadonlySet<string>>> = {
  "client-to-server": { request: new Set(sentBy["client-to-server"].request), notification: new Set(sentBy["client-to-server"].notification) },
  "server-to-client": { request: new Set(sentBy["server-to-client"].request), notification: new Set(sentBy["server-to-client"].notification) },
};

/** Who sends a message going in `direction`. */
export function senderOf(direction: MessageDirection): "client" | "server" {
  return direction === "client-to-server" ? "client" : "server";
}

export function oppositeDirection(direction: MessageDirection): MessageDirection {
  return direction === "client-to-server" ? "server-to-client" : "client-to-server";
}

export { featuresOfMethod };

/** The methods of a kind that a side may send in a version (for "expected one of" lists). */
export function methodsSentBy(direction: MessageDirection, kind: MethodKind, version: ProtocolVersion): string[] {
  const sender = senderOf(direction);
  return sentBy[direction][kind].filter((method) => featuresOfMethod(method, sender).every((feature) => versionHas(version, feature)));
}

export type MethodLookup =
  | { found: "yes" }
  | { found: "other-kind"; kind: MethodKind }
  | { found: "other-direction" }
  | { found: "no" };

/** Whether `direction`'s side may send `method` as a `kind` (ignoring versions; see featuresOfMethod). */
export function lookupMethod(method: string, direction: MessageDirection, kind: MethodKind): MethodLookup {
  const otherKind: MethodKind = kind === "request" ? "notification" : "request";
  if (sentBySet[direction][kind].has(method)) return foundYes;
  if (sentBySet[direction][otherKind].has(method)) return { found: "other-kind", kind: otherKind };
  const other = sentBySet[oppositeDirection(direction)];
  if (other.request.has(method) || other.notification.has(method)) return { found: "other-direction" };
  return { found: "no" };
}

const foundYes: MethodLookup = { found: "yes" };
