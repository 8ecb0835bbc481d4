/**
 * Which call each message of a trace belongs to, so a viewer can put a call's server requests,
 * notifications, MRTR rounds and task polls under it. A client request opens a group (its own
 * id) unless it continues one: an MRTR retry carries the `requestState` its call was given, a
 * task poll the `taskId`. Answers join the group of what they answer, progress the call that
 * gave its token. Every table is bounded:
 * a group forgotten only loses its grouping, never a message.
 */
import { isObject, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";

/** Links kept per table; past this many the oldest go. */
const KEPT_LINKS = 10_000;

class BoundedMap<V> {
  private readonly map = new Map<string, V>();
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    if (this.map.size >= KEPT_LINKS && !this.map.has(key)) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }
}

/** An id as a key: the client's and the server's ids are separate spaces, and 1 is not "1". */
const key = (session: string, side: "client" | "server", id: JsonRpcId): string => `${session}\n${side}:${typeof id}:${id}`;

export class CallGroups {
  /** A request's key → the call it belongs to. */
  private readonly requests = new BoundedMap<JsonRpcId>();
  private readonly requestStates = new BoundedMap<JsonRpcId>();
  private readonly tasks = new BoundedMap<JsonRpcId>();
  private readonly progressTokens = new BoundedMap<JsonRpcId>();

  /**
   * The call `message`, sent by `from`, belongs to. `hint` is what the side that saw it knew
   * already (the client request a mock's message travelled with); ids are told apart by
   * `session`. Undefined when it belongs to no call.
   */
  callOf(from: "client" | "server", message: JsonRpcMessage | undefined, hint: JsonRpcId | undefined, session = ""): JsonRpcId | undefined {
    // A hint names a client request, which may itself continue an earlier call.
    if (hint !== undefined) hint = this.requests.get(key(session, "client", hint)) ?? hint;
    if (!isObject(message)) return hint;
    const id = idOf(message.id);
    if (typeof message.method === "string") {
      const params = isObject(message.params) ? message.params : undefined;
      if (id === undefined) return this.notificationCall(session, from, message.method, params) ?? hint;
      const call = from === "client" ? (this.continued(params) ?? id) : hint;
      if (call !== undefined) this.requests.set(key(session, from, id), call);
      const token = isObject(params?._meta) ? params._meta.progressToken : undefined;
      if (call !== undefined && (typeof token === "string" || typeof token === "number")) this.progressTokens.set(`${session}\n${typeof token}:${token}`, call);
      return call;
    }
    // A response: the call of the request it answers (sent by the other side).
    if (id === undefined) return hint;
    const call = this.requests.get(key(session, from === "client" ? "server" : "client", id)) ?? hint;
    if (call !== undefined && from === "server" && isObject(message.result)) this.remember(message.result, call);
    return call;
  }

  /** An MRTR retry's or a task poll's call, from the state or task it names. */
  private continued(params: Record<string, unknown> | undefined): JsonRpcId | undefined {
    if (params === undefined) return undefined;
    if (typeof params.requestState === "string") return this.requestStates.get(params.requestState);
    if (typeof params.taskId === "string") return this.tasks.get(params.taskId);
    return undefined;
  }

  /** What a result hands back for later rounds: an MRTR `requestState`, a task's id. */
  private remember(result: Record<string, unknown>, call: JsonRpcId): void {
    if (typeof result.requestState === "string") this.requestStates.set(result.requestState, call);
    const task = result.task;
    if (isObject(task) && typeof task.taskId === "string") this.tasks.set(task.taskId, call);
  }

  /** A cancellation or progress notification names its request; a task status its task. */
  private notificationCall(session: string, from: "client" | "server", method: string, params: Record<string, unknown> | undefined): JsonRpcId | undefined {
    if (params === undefined) return undefined;
    if (method === "notifications/cancelled") {
      const id = idOf(params.requestId);
      return id === undefined ? undefined : this.requests.get(key(session, from, id));
    }
    if (typeof params.taskId === "string") return this.tasks.get(params.taskId);
    const token = params.progressToken;
    if (method === "notifications/progress" && (typeof token === "string" || typeof token === "number")) return this.progressTokens.get(`${session}\n${typeof token}:${token}`);
    return undefined;
  }
}

function idOf(value: unknown): JsonRpcId | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}
