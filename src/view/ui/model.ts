/**
 * The timeline's model: trace entries grouped into calls (a client request, its answer, and
 * everything that travelled with it), calls into lanes (one per session and test id), and the
 * filters over them. Plain data and functions, no DOM, so it is cheap for 10,000 messages and
 * the page only draws what is on screen.
 */
import type { TraceEntry } from "../../trace/entry.js";

export type Outcome = "ok" | "error" | "fault" | "pending" | "message";

/** Why an entry sits under its call: the call itself, its answer, or what came with it. */
export type ChildKind = "server request" | "client answer" | "notification" | "round" | "task poll" | "answer" | "message";

export interface Child {
  readonly entry: TraceEntry;
  readonly kind: ChildKind;
}

export interface CallGroup {
  readonly id: number;
  readonly lane: string;
  /** The first entry: a client request, or the one message of a group of one. */
  readonly head: TraceEntry;
  response?: TraceEntry;
  readonly children: Child[];
  readonly method: string;
  start: number;
  end: number;
  outcome: Outcome;
  problems: number;
  /** Lower-case text of every body, made on the first search. */
  text?: string;
}

export interface Lane {
  readonly key: string;
  readonly sessionId?: string;
  readonly testId?: string;
  readonly groups: CallGroup[];
}

export interface Model {
  readonly groups: CallGroup[];
  readonly lanes: Lane[];
  readonly t0: number;
  readonly t1: number;
  /** Values the filters offer. */
  readonly testIds: string[];
  readonly methods: string[];
  readonly revisions: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";

export function laneKey(entry: TraceEntry): string {
  return `${entry.sessionId ?? ""}\u0000${entry.testId ?? ""}`;
}

/** Groups entries (in `seq` order) into calls and lanes. */
export function buildModel(entries: readonly TraceEntry[]): Model {
  const groups: CallGroup[] = [];
  // A call by the request ids that belong to it: its own, an MRTR round's, a task poll's.
  const byClientId = new Map<string, CallGroup>();
  // A call by the ids of requests its server sent during it, so the client's answers join it.
  const byServerId = new Map<string, CallGroup>();
  const byRequestState = new Map<string, CallGroup>();
  const byTaskId = new Map<string, CallGroup>();
  const key = (entry: TraceEntry, id: string | number) => `${entry.sessionId ?? ""}\u0000${typeof id}:${String(id)}`;
  const newGroup = (entry: TraceEntry, method: string): CallGroup => {
    const group: CallGroup = { id: groups.length, lane: laneKey(entry), head: entry, children: [], method, start: entry.at, end: entry.at, outcome: "pending", problems: 0 };
    groups.push(group);
    return group;
  };
  for (const entry of entries) {
    const message = isObject(entry.message) ? entry.message : undefined;
    const method = typeof message?.method === "string" ? message.method : undefined;
    const id = isId(message?.id) ? message.id : undefined;
    let group: CallGroup | undefined;
    let kind: ChildKind = "message";
    if (entry.from === "client" && method !== undefined && id !== undefined) {
      const params = isObject(message?.params) ? message.params : {};
      const round = typeof params.requestState === "string" ? byRequestState.get(params.requestState) : undefined;
      const polled = method.startsWith("tasks/") && typeof params.taskId === "string" ? byTaskId.get(params.taskId) : undefined;
      group = round ?? polled;
      if (group === undefined) group = newGroup(entry, method);
      else kind = round !== undefined ? "round" : "task poll";
      byClientId.set(key(entry, id), group);
    } else if (method !== undefined) {
      group = entry.callId === undefined ? undefined : byClientId.get(key(entry, entry.callId));
      if (group !== undefined && entry.from === "server" && id !== undefined) byServerId.set(key(entry, id), group);
      kind = id === undefined ? "notification" : "server request";
      group ??= newGroup(entry, method);
    } else if (id !== undefined) {
      // An answer: the server's to a client request, or the client's to a server request.
      group = entry.from === "server" ? byClientId.get(key(entry, id)) : byServerId.get(key(entry, id));
      if (group === undefined && entry.callId !== undefined) group = byClientId.get(key(entry, entry.callId));
      kind = entry.from === "server" ? "answer" : "client answer";
      if (group !== undefined && entry.from === "server") noteFollowUps(entry, group, byRequestState, byTaskId);
      group ??= newGroup(entry, entry.from === "server" ? "(answer)" : "(client answer)");
    } else {
      group = entry.callId === undefined ? undefined : byClientId.get(key(entry, entry.callId));
      group ??= newGroup(entry, entry.raw !== undefined ? "(raw bytes)" : "(message)");
    }
    if (group.head !== entry) {
      const headId = isObject(group.head.message) ? group.head.message.id : undefined;
      if (kind === "answer" && group.response === undefined && id !== undefined && headId === id) group.response = entry;
      else group.children.push({ entry, kind });
    }
    group.end = Math.max(group.end, entry.at);
    if (entry.problems !== undefined && entry.problems.length > 0) group.problems += entry.problems.length;
  }
  for (const group of groups) group.outcome = outcomeOf(group);
  return { groups, ...lanesOf(groups), ...facets(entries, groups) };
}

/** An MRTR `input_required` result's state, or a created task's id: the requests that will follow it. */
function noteFollowUps(entry: TraceEntry, group: CallGroup, byRequestState: Map<string, CallGroup>, byTaskId: Map<string, CallGroup>): void {
  const result = isObject(entry.message) && isObject(entry.message.result) ? entry.message.result : undefined;
  if (result === undefined) return;
  if (typeof result.requestState === "string") byRequestState.set(result.requestState, group);
  const task = isObject(result.task) ? result.task : undefined;
  if (typeof task?.taskId === "string") byTaskId.set(task.taskId, group);
}

/** The last answer to a client request in the call: the call's own, or its last round's. */
function finalAnswer(group: CallGroup): TraceEntry | undefined {
  for (let index = group.children.length - 1; index >= 0; index--) {
    const child = group.children[index]!;
    if (child.kind === "answer" && child.entry.from === "server") return child.entry;
  }
  return group.response;
}

function outcomeOf(group: CallGroup): Outcome {
  const all = [group.head, ...(group.response === undefined ? [] : [group.response]), ...group.children.map((child) => child.entry)];
  if (all.some((entry) => entry.fault !== undefined)) return "fault";
  const head = isObject(group.head.message) ? group.head.message : undefined;
  const isRequest = group.head.from === "client" && typeof head?.method === "string" && isId(head.id);
  const answer = isRequest ? finalAnswer(group) : group.head;
  if (answer === undefined) return "pending";
  const message = isObject(answer.message) ? answer.message : undefined;
  if (isObject(message?.error) || (isObject(message?.result) && message.result.isError === true)) return "error";
  if (answer.raw !== undefined && message === undefined) return "fault";
  return isRequest ? "ok" : "message";
}

function lanesOf(groups: CallGroup[]): Pick<Model, "lanes" | "t0" | "t1"> {
  const lanes = new Map<string, Lane>();
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  for (const group of groups) {
    let lane = lanes.get(group.lane);
    if (lane === undefined) {
      const { sessionId, testId } = group.head;
      lane = { key: group.lane, ...(sessionId !== undefined && { sessionId }), ...(testId !== undefined && { testId }), groups: [] };
      lanes.set(group.lane, lane);
    }
    lane.groups.push(group);
    t0 = Math.min(t0, group.start);
    t1 = Math.max(t1, group.end);
  }
  if (!Number.isFinite(t0)) t0 = t1 = 0;
  return { lanes: [...lanes.values()], t0, t1 };
}

function facets(entries: readonly TraceEntry[], groups: CallGroup[]): Pick<Model, "testIds" | "methods" | "revisions"> {
  const testIds = new Set<string>();
  const revisions = new Set<string>();
  for (const entry of entries) {
    if (entry.testId !== undefined) testIds.add(entry.testId);
    if (entry.protocolVersion !== undefined) revisions.add(entry.protocolVersion);
  }
  const methods = new Set(groups.map((group) => group.method));
  const sorted = (set: Set<string>) => [...set].sort();
  return { testIds: sorted(testIds), methods: sorted(methods), revisions: sorted(revisions) };
}

export interface Filters {
  testId: string;
  method: string;
  /** An outcome, "problem" (the validator flagged something), or "" for any. */
  outcome: string;
  revision: string;
  search: string;
}

export const NO_FILTERS: Filters = { testId: "", method: "", outcome: "", revision: "", search: "" };

/** Every entry of a call, in order. */
export function entriesOf(group: CallGroup): TraceEntry[] {
  const all = [group.head, ...group.children.map((child) => child.entry)];
  if (group.response !== undefined) all.push(group.response);
  return all.sort((a, b) => a.seq - b.seq);
}

export function matches(group: CallGroup, filters: Filters): boolean {
  if (filters.testId !== "" && group.head.testId !== filters.testId) return false;
  if (filters.method !== "" && group.method !== filters.method) return false;
  if (filters.revision !== "" && group.head.protocolVersion !== filters.revision) return false;
  if (filters.outcome === "problem" ? group.problems === 0 : filters.outcome !== "" && group.outcome !== filters.outcome) return false;
  if (filters.search === "") return true;
  group.text ??= entriesOf(group)
    .map((entry) => JSON.stringify(entry.message ?? entry.raw ?? ""))
    .join("\n")
    .toLowerCase();
  return group.text.includes(filters.search.toLowerCase());
}

/** A row of the list: a lane's heading, a call, or one message under its call. */
export type Row = { type: "lane"; lane: Lane; count: number } | { type: "call"; group: CallGroup } | { type: "child"; group: CallGroup; child: Child };

/** The rows to show: lanes in order of first message, each with its matching calls and, for open calls, what came with them. */
export function visibleRows(model: Model, filters: Filters, collapsed: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  for (const lane of model.lanes) {
    const shown = lane.groups.filter((group) => matches(group, filters));
    if (shown.length === 0) continue;
    rows.push({ type: "lane", lane, count: shown.length });
    for (const group of shown) {
      rows.push({ type: "call", group });
      if (collapsed.has(group.id)) continue;
      for (const child of group.children) rows.push({ type: "child", group, child });
    }
  }
  return rows;
}
