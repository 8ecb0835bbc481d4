/**
 * `subscriptions/listen` (2026-07-28): one long-lived request whose answer is a stream of change
 * notifications, each tagged with the subscription's id (the listen request's id). It is
 * acknowledged first; it ends when the client goes away or cancels it (`disconnected` /
 * `cancelled`, no answer) or when the mock ends it (a result, as the spec's graceful close).
 * Its life, from the acknowledgement to the end, is a `stream:open` / `stream:close` of kind
 * `listen` with the reason it ended (observers and metrics count it as a subscription).
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId, JsonRpcMessage } from "../../protocol/jsonrpc.js";
import { META } from "../../protocol/meta-keys.js";
import type { Connection } from "../connection.js";
import { idKey } from "../connection.js";
import { NO_REPLY, replyWith, RpcError, type Outcome } from "../outcome.js";
import type { EventHub, StreamCloseReason } from "../events.js";
import type { RequestHandler } from "./handler-input.js";
import { LIST_KINDS } from "../../protocol/list-kinds.js";
import { onAbort } from "../../util/on-abort.js";
import type { ClientFacts } from "../../protocol/request-meta.js";
import type { RequestContext } from "../request-context.js";
import { declaresTasks, tasksCapabilityMissing } from "../tasks/task-wire.js";

/** The method that opens a subscription (2026-07-28). */
export const LISTEN_METHOD = "subscriptions/listen";

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks whose status changes the listener hears (`notifications/tasks`, the tasks extension). */
  taskIds?: string[];
}

/** One open `subscriptions/listen`. */
export interface Subscription {
  readonly id: JsonRpcId;
  readonly connection: Connection;
  /** The listen request's context (who listens: features that scope what they tell read it). */
  readonly context: RequestContext;
  readonly filter: SubscriptionFilter;
  /** Ends it from the server side with its closing result (`reason` for observers: `completed`, or `server_stopping`). */
  end(reason?: StreamCloseReason): void;
  /** Ends it with no answer: its connection is going away (`reason` tells observers why). */
  abandon(reason: StreamCloseReason): void;
}

/** Which filter flag opts in to a list_changed notification (from the one table of lists). */
const LIST_FLAGS: Record<string, keyof SubscriptionFilter> = Object.fromEntries(LIST_KINDS.map((spec) => [spec.listChanged, spec.listenFlag]));
const RESOURCE_UPDATED = "notifications/resources/updated";

export interface SubscriptionState {
  readonly subscriptions: Set<Subscription>;
  readonly events: EventHub;
}

/** The filter the mock agrees to: only what the client asked for and the mock can send. */
function agreedFilter(requested: Record<string, unknown>, client: ClientFacts | undefined): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  for (const flag of Object.values(LIST_FLAGS)) if (requested[flag] === true) (agreed as Record<string, unknown>)[flag] = true;
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === "string")) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for subscriptions/listen: "notifications.resourceSubscriptions" must be a list of URIs');
    }
    agreed.resourceSubscriptions = uris;
  }
  const taskIds = requested.taskIds;
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === "string")) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for subscriptions/listen: "notifications.taskIds" must be a list of task ids');
    }
    // Task notifications are the tasks extension's: a client that did not declare it cannot have them.
    if (!declaresTasks(client?.capabilities)) {
      const error = tasksCapabilityMissing("listening for task status (notifications.taskIds)");
      throw new RpcError(error.code, error.message, error.data);
    }
    agreed.taskIds = taskIds;
  }
  return agreed;
}

export function tagged(method: string, params: Record<string, unknown> | undefined, id: JsonRpcId): JsonRpcMessage {
  const meta = (params?._meta as Record<string, unknown> | undefined) ?? {};
  return { jsonrpc: "2.0", method, params: { ...params, _meta: { ...meta, [META.subscriptionId]: id } } };
}

export const listen: RequestHandler = (input) => {
  const { connection, request, params } = input;
  const requested = params.notifications;
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for subscriptions/listen: "notifications" must be an object saying what to listen for, e.g. { "toolsListChanged": true }');
  }
  // server.handle() answers one message with one reply: a listen there could never be acknowledged.
  if (!connection.reachable) {
    throw new RpcError(
      ErrorCode.InvalidRequest,
      "subscriptions/listen needs a connection that carries notifications (its acknowledgement comes first); server.handle() answers one message with one reply. Listen over Streamable HTTP, stdio or connectInMemory()",
    );
  }
  const filter = agreedFilter(requested as Record<string, unknown>, input.context.client);
  const state: SubscriptionState = input.state;
  const controller = new AbortController();
  const key = idKey(request.id);
  connection.inFlight.set(key, { controller });
  // A subscription has no session, whatever wire it came on (its stream id says which connection).
  const stream = { sessionId: "", streamId: `listen:${connection.id}:${key}`, kind: "listen", wire: connection.wire } as const;
  // The acknowledgement is the first message tagged with this subscription's id.
  connection.send(tagged("notifications/subscriptions/acknowledged", { notifications: filter }, request.id), { relatedRequestId: request.id });
  if (state.events.has("stream:open")) state.events.emit("stream:open", stream);
  return new Promise<Outcome>((resolve) => {
    const subscription: Subscription = {
      id: request.id,
      connection,
      context: input.context,
      filter,
      end: (reason = "completed") => finish(replyWith(request.id, { _meta: { [META.subscriptionId]: request.id } }), reason),
      abandon: (reason) => finish(NO_REPLY, reason),
    };
    const finish = (outcome: Outcome, reason: StreamCloseReason) => {
      if (!state.subscriptions.delete(subscription)) return;
      stopListening();
      connection.releaseInFlight(key, controller);
      if (state.events.has("stream:close")) state.events.emit("stream:close", { ...stream, reason });
      resolve(outcome);
    };
    state.subscriptions.add(subscription);
    // Aborted by the client: notifications/cancelled, or (2026-07-28 HTTP) its stream closed, which cancels it.
    const stopListening = onAbort(controller.signal, () => finish(NO_REPLY, "request_cancelled"));
  });
};

/**
 * Sends a notification on every subscription that opted in to it: a list_changed one where its
 * flag is set, a `resources/updated` one where `resourceSubscriptions` names its URI.
 */
export function notifySubscribers(subscriptions: Iterable<Subscription>, method: string, params?: Record<string, unknown>): void {
  const wants = optedIn(method, params);
  if (wants === undefined) return;
  for (const subscription of subscriptions) {
    if (wants(subscription.filter)) subscription.connection.send(tagged(method, params, subscription.id), { relatedRequestId: subscription.id });
  }
}

function optedIn(method: string, params: Record<string, unknown> | undefined): ((filter: Subscription["filter"]) => boolean) | undefined {
  const flag = LIST_FLAGS[method];
  if (flag !== undefined) return (filter) => filter[flag] === true;
  const uri = params?.uri;
  if (method === RESOURCE_UPDATED && typeof uri === "string") return (filter) => filter.resourceSubscriptions?.includes(uri) === true;
  return undefined;
}

/** Ends, with no answer, every subscription on `connection` (it is closing; `reason` says why). */
export function endSubscriptionsOf(subscriptions: Iterable<Subscription>, connection: Connection, reason: StreamCloseReason): void {
  for (const subscription of [...subscriptions]) if (subscription.connection === connection) subscription.abandon(reason);
}
