/**
 * Which methods each side may send, per protocol version. The lists and the feature each method
 * needs come from `methods.ts`.
 */
import {
  ClientNotificationMethods,
  ClientRequestMethods,
  featuresOfMethod,
  SkillsRequestMethods,
  ServerNotificationMethods,
  ServerRequestMethods,
  TaskExtensionMethods,
  TaskNotificationMethods,
  TaskRequestMethods,
} from "../methods.js";
import { compareVersions, FEATURES, versionHas, type Feature, type ProtocolVersion } from "../versions.js";
import type { MessageDirection } from "./problem.js";
import { featureProblemMessage, featureSpanText } from "./schemas/kit.js";

export type MethodKind = "request" | "notification";

const taskRequests = TaskRequestMethods;
const taskNotifications = TaskNotificationMethods;

/** Both sides send task requests and status notifications (either side can run tasks). */
const sentBy: Record<MessageDirection, Record<MethodKind, readonly string[]>> = {
  "client-to-server": {
    request: [...ClientRequestMethods, ...taskRequests, ...SkillsRequestMethods, ...TaskExtensionMethods],
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

/** Why one side may not send a method when it lacks `feature`, in words the feature's own would get wrong. */
interface SenderReason {
  feature: Feature;
  /** What the sender does not do, e.g. "a client sends no progress notifications". */
  absent: string;
  /** Why, in terms of the feature the revision lacks. */
  because: string;
}

/**
 * Methods a side loses with a feature that is not the method itself: a client's progress
 * notification is no server request, it reported on one (see CLIENT_SENT_FEATURES in methods.ts).
 */
const SENDER_REASONS: Record<"client" | "server", Readonly<Record<string, SenderReason>>> = {
  client: {
    "notifications/progress": {
      feature: "serverRequests",
      absent: "a client sends no progress notifications",
      because: "they only reported on server-to-client requests",
    },
  },
  server: {},
};

/** Why `sender` may not send `method` in `version`, which lacks `feature`. */
export function unavailableMethodMessage(method: string, sender: "client" | "server", feature: Feature, version: ProtocolVersion): string {
  const reason = Object.hasOwn(SENDER_REASONS[sender], method) ? SENDER_REASONS[sender][method] : undefined;
  if (reason === undefined || reason.feature !== feature) return featureProblemMessage(feature, version);
  return `in protocol version ${version} ${reason.absent}, since ${reason.because}, which ${lackedSince(feature, version)} (${featureSpanText(feature)})`;
}

/** "2026-07-28 removed" when `version` is past the feature, else "that revision does not have". */
function lackedSince(feature: Feature, version: ProtocolVersion): string {
  const { until }: { since: ProtocolVersion; until?: ProtocolVersion } = FEATURES[feature];
  return until !== undefined && compareVersions(version, until) >= 0 ? `${until} removed` : "that revision does not have";
}

/** The methods of a kind that a side may send in a version (for "expected one of" lists). */
export function methodsSentBy(direction: MessageDirection, kind: MethodKind, version: ProtocolVersion): string[] {
  const sender = senderOf(direction);
  return sentBy[direction][kind].filter((method) => featuresOfMethod(method, sender).every((feature) => versionHas(version, feature)));
}

export type MethodLookup = { found: "yes" } | { found: "other-kind"; kind: MethodKind } | { found: "other-direction" } | { found: "no" };

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
