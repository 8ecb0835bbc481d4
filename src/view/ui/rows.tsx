/**
 * The list of calls: a tree (lanes, calls, what came with them) drawn a screenful at a time (virtualized rows of one height), so
 * 10,000 messages cost what forty do. Each row shows when it began, who sent it, what it is,
 * how it ended and, on the shared time axis, how long it took.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { TraceEntry } from "../../trace/entry.js";
import type { CallGroup, Child, Model, Row } from "./model.js";

export const ROW_HEIGHT = 24;
/** Rows drawn beyond the visible ones, above and below, so a fast scroll shows no gap. */
const OVERSCAN = 12;

export function rowKey(row: Row): string {
  if (row.type === "lane") return `lane-${row.lane.key}`;
  if (row.type === "call") return `call-${row.group.id}`;
  return `msg-${row.child.entry.seq}`;
}

/** A DOM id for a row (for aria-activedescendant): letters, digits and dashes only. */
export function rowId(row: Row): string {
  return row.type === "lane" ? `row-lane-${row.lane.groups[0]!.id}` : row.type === "call" ? `row-call-${row.group.id}` : `row-msg-${row.child.entry.seq}`;
}

interface ListProps {
  rows: Row[];
  model: Model;
  selected: number;
  collapsed: ReadonlySet<number>;
  onSelect: (index: number) => void;
  onToggle: (group: CallGroup) => void;
  onKey: (event: KeyboardEvent) => void;
  listRef: { current: HTMLDivElement | null };
}

export function CallList({ rows, model, selected, collapsed, onSelect, onToggle, onKey, listRef }: ListProps) {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const viewport = useRef<HTMLDivElement | null>(null);
  useLayoutEffect(() => {
    const element = viewport.current;
    if (element === null) return;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Keep the selected row on screen when the keyboard moves it.
  useLayoutEffect(() => {
    const element = viewport.current;
    if (element === null || selected < 0) return;
    const top = selected * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, [selected]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const span = Math.max(1, model.t1 - model.t0);
  const activeRow = rows[selected];
  const active = selected >= first && selected < last && activeRow !== undefined ? rowId(activeRow) : undefined;
  const drawn = [];
  for (let index = first; index < last; index++) {
    const row = rows[index]!;
    drawn.push(
      <RowView
        key={rowKey(row)}
        row={row}
        index={index}
        selected={index === selected}
        open={row.type === "call" && !collapsed.has(row.group.id)}
        t0={model.t0}
        span={span}
        onSelect={onSelect}
        onToggle={onToggle}
      />,
    );
  }
  return (
    <div class="list-viewport" ref={viewport} onScroll={(event) => setScrollTop((event.currentTarget as HTMLDivElement).scrollTop)}>
      <div
        class="list"
        role="tree"
        aria-label="Messages by lane and call"
        tabIndex={0}
        ref={listRef}
        aria-activedescendant={active}
        onKeyDown={onKey}
        style={{ height: `${rows.length * ROW_HEIGHT}px` }}
      >
        {drawn}
      </div>
    </div>
  );
}

interface RowProps {
  row: Row;
  index: number;
  selected: boolean;
  open: boolean;
  t0: number;
  span: number;
  onSelect: (index: number) => void;
  onToggle: (group: CallGroup) => void;
}

function RowView({ row, index, selected, open, t0, span, onSelect, onToggle }: RowProps) {
  const style = { top: `${index * ROW_HEIGHT}px` };
  if (row.type === "lane") {
    const { sessionId, testId } = row.lane;
    return (
      <div id={rowId(row)} class="row lane" role="treeitem" aria-level={1} aria-expanded={true} aria-selected={selected} tabIndex={-1} style={style}>
        <span class="lane-name">
          {testId !== undefined ? `test ${testId}` : "no test id"} · {sessionId !== undefined ? `session ${short(sessionId)}` : "no session"}
        </span>
        <span class="lane-count">
          {row.count} call{row.count === 1 ? "" : "s"}
        </span>
      </div>
    );
  }
  const group = row.group;
  const entry = row.type === "call" ? group.head : row.child.entry;
  const classes = ["row", row.type, selected ? "selected" : "", row.type === "call" ? `outcome-${group.outcome}` : ""].join(" ");
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree takes the keys for its rows (aria-activedescendant), as the pattern wants
    <div
      id={rowId(row)}
      class={classes}
      role="treeitem"
      aria-level={row.type === "call" ? 2 : 3}
      aria-selected={selected}
      tabIndex={-1}
      aria-expanded={row.type === "call" && group.children.length > 0 ? open : undefined}
      style={style}
      onClick={() => onSelect(index)}
      onDblClick={() => row.type === "call" && onToggle(group)}
    >
      <span class="time">+{formatMs(entry.at - t0)}</span>
      <span class="dir" title={entry.from === "client" ? "sent by the client" : "sent by the server"}>
        {entry.from === "client" ? "→" : "←"}
      </span>
      {row.type === "call" ? <CallCells group={group} open={open} /> : <ChildCells child={row.child} />}
      <span class="bar-cell" aria-hidden="true">
        {row.type === "call" ? (
          <span class={`bar outcome-${group.outcome}`} style={{ left: pct(group.start - t0, span), width: `max(2px, ${pct(group.end - group.start, span)})` }} />
        ) : (
          <span class="tick" style={{ left: pct(entry.at - t0, span) }} />
        )}
      </span>
    </div>
  );
}

function CallCells({ group, open }: { group: CallGroup; open: boolean }) {
  const toggle = group.children.length === 0 ? " " : open ? "▾" : "▸";
  return (
    <>
      <span class="what">
        <span class="toggle" aria-hidden="true">
          {toggle}
        </span>
        <span class="method">{group.method}</span> <span class="info">{detailOf(group.head)}</span>
        {group.children.length > 0 && <span class="under"> +{group.children.length}</span>}
      </span>
      <span class="status">
        <Badge outcome={group.outcome} fault={faultOf(group)} />
        {group.problems > 0 && <span class="badge problem">⚠ {group.problems}</span>}
      </span>
      <span class="duration">{group.outcome === "pending" || group.outcome === "message" ? "" : formatMs(group.end - group.start)}</span>
    </>
  );
}

function ChildCells({ child }: { child: Child }) {
  const entry = child.entry;
  const message = entry.message as Record<string, unknown> | undefined;
  const name = typeof message?.method === "string" ? message.method : isError(entry) ? "error" : entry.raw !== undefined ? "raw bytes" : "result";
  return (
    <>
      <span class="what">
        <span class="kind">↳ {child.kind}</span> <span class="method">{name}</span> <span class="info">{detailOf(entry)}</span>
      </span>
      <span class="status">
        {entry.fault !== undefined && <span class="badge fault">fault: {entry.fault}</span>}
        {isError(entry) && <span class="badge error">error</span>}
        {entry.problems !== undefined && entry.problems.length > 0 && <span class="badge problem">⚠ {entry.problems.length}</span>}
      </span>
      <span class="duration" />
    </>
  );
}

function Badge({ outcome, fault }: { outcome: string; fault: string | undefined }) {
  const text = outcome === "fault" && fault !== undefined ? `fault: ${fault}` : outcome === "message" ? "" : outcome;
  return text === "" ? null : <span class={`badge ${outcome}`}>{text}</span>;
}

export function faultOf(group: CallGroup): string | undefined {
  return [group.head, group.response, ...group.children.map((child) => child.entry)].find((entry) => entry?.fault !== undefined)?.fault;
}

function isError(entry: TraceEntry): boolean {
  const message = entry.message as Record<string, unknown> | undefined;
  const result = message?.result as Record<string, unknown> | undefined;
  return message?.error !== undefined || result?.isError === true;
}

/** The part of a message that tells calls of one method apart: a tool's or prompt's name, a URI, an error. */
export function detailOf(entry: TraceEntry): string {
  const message = entry.message as Record<string, unknown> | undefined;
  const params = message?.params as Record<string, unknown> | undefined;
  if (params !== undefined) {
    for (const key of ["name", "uri", "ref", "level", "progress"]) if (typeof params[key] === "string" || typeof params[key] === "number") return String(params[key]);
    return "";
  }
  const error = message?.error as Record<string, unknown> | undefined;
  if (error !== undefined) return `${String(error.code)} ${String(error.message)}`;
  return entry.raw !== undefined && message === undefined ? entry.raw.slice(0, 60) : "";
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function pct(part: number, whole: number): string {
  return `${Math.min(100, Math.max(0, (part / whole) * 100)).toFixed(3)}%`;
}

function short(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
