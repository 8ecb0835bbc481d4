/**
 * The timeline page: a bar of filters, the list of calls by lane with the waterfall, and the
 * selected call's messages. Keyboard: ↑/↓ (or k/j) move, → / Enter open a call, ← close it
 * (or go up to its call), Home/End, PageUp/PageDown, / to search, Esc back to the list.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { TraceEntry } from "../../trace/entry.js";
import type { TimelineData } from "../timeline-data.js";
import { Detail } from "./detail.js";
import { buildModel, type CallGroup, type Filters, NO_FILTERS, type Row, visibleRows } from "./model.js";
import { CallList, ROW_HEIGHT } from "./rows.js";

export function App({ data, entries, live }: { data: TimelineData; entries: readonly TraceEntry[]; live: string | undefined }) {
  const model = useMemo(() => buildModel(entries), [entries]);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [selectedKey, setSelectedKey] = useState<string | undefined>(undefined);
  const rows = useMemo(() => visibleRows(model, filters, collapsed), [model, filters, collapsed]);
  const selected = selectedKey === undefined ? -1 : rows.findIndex((row) => keyOf(row) === selectedKey);
  const listRef = useRef<HTMLDivElement | null>(null);
  const searchRef = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
      if (event.key === "/" && !typing) {
        event.preventDefault();
        searchRef.current?.focus();
      } else if (event.key === "Escape" && typing) {
        (event.target as HTMLElement).blur();
        listRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const select = (index: number) => {
    const row = rows[index];
    if (row !== undefined) setSelectedKey(keyOf(row));
  };
  const toggle = (group: CallGroup, open?: boolean) => {
    const next = new Set(collapsed);
    const isOpen = !next.has(group.id);
    if (open ?? !isOpen) next.delete(group.id);
    else next.add(group.id);
    setCollapsed(next);
  };
  const move = (from: number, step: number) => {
    // Lane headings are not stops: skip them.
    for (let index = from + step; index >= 0 && index < rows.length; index += step) {
      if (rows[index]!.type !== "lane") return select(index);
    }
  };
  const onKey = (event: KeyboardEvent) => {
    const row = rows[selected];
    const page = Math.max(1, Math.floor((listRef.current?.parentElement?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(selected, 1),
      j: () => move(selected, 1),
      ArrowUp: () => move(selected, -1),
      k: () => move(selected, -1),
      Home: () => move(-1, 1),
      End: () => move(rows.length, -1),
      PageDown: () => move(Math.min(rows.length - 1, selected + page) - 1, 1),
      PageUp: () => move(Math.max(0, selected - page) + 1, -1),
      ArrowRight: () => row?.type === "call" && toggle(row.group, true),
      Enter: () => row?.type === "call" && toggle(row.group),
      ArrowLeft: () => {
        if (row?.type === "call") toggle(row.group, false);
        else if (row?.type === "child") setSelectedKey(`call-${row.group.id}`);
      },
    };
    const action = keys[event.key];
    if (action === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    action();
  };

  const row = rows[selected];
  const group = row === undefined || row.type === "lane" ? undefined : row.group;
  const focus = row?.type === "child" ? row.child.entry : row?.type === "call" ? row.group.head : undefined;
  const calls = rows.filter((shown) => shown.type === "call").length;
  const set = (key: keyof Filters) => (event: Event) => setFilters({ ...filters, [key]: (event.currentTarget as HTMLInputElement).value });

  return (
    <div class="app">
      <header class="top">
        <h1>{data.title}</h1>
        <p class="summary" aria-live="polite">
          {entries.length} message{entries.length === 1 ? "" : "s"} · {model.groups.length} call{model.groups.length === 1 ? "" : "s"} · {model.lanes.length} lane
          {model.lanes.length === 1 ? "" : "s"}
          {calls !== model.groups.length && ` · ${calls} shown`}
          {live !== undefined && <span class="live"> · {live}</span>}
        </p>
        {data.notes?.map((note) => (
          <p class="note" key={note}>
            {note}
          </p>
        ))}
        <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filters">
          <label>
            Search <input ref={searchRef} type="search" value={filters.search} onInput={set("search")} placeholder="text in any body" />
          </label>
          <Choice label="Test id" value={filters.testId} options={model.testIds} onChange={set("testId")} />
          <Choice label="Method" value={filters.method} options={model.methods} onChange={set("method")} />
          <Choice label="Outcome" value={filters.outcome} options={["ok", "error", "fault", "pending", "message", "problem"]} onChange={set("outcome")} />
          <Choice label="Revision" value={filters.revision} options={model.revisions} onChange={set("revision")} />
        </form>
      </header>
      <main class="panes">
        <div class="list-pane">
          <div class="axis" aria-hidden="true">
            <span>0</span>
            <span>{formatSpan((model.t1 - model.t0) / 2)}</span>
            <span>{formatSpan(model.t1 - model.t0)}</span>
          </div>
          {rows.length === 0 ? (
            <p class="nothing">{entries.length === 0 ? (live !== undefined ? "Waiting for messages…" : "This trace has no messages.") : "No call matches the filters."}</p>
          ) : (
            <CallList rows={rows} model={model} selected={selected} collapsed={collapsed} onSelect={select} onToggle={toggle} onKey={onKey} listRef={listRef} />
          )}
        </div>
        <Detail group={group} focus={focus} t0={model.t0} target={data.header.target} />
      </main>
    </div>
  );
}

function keyOf(row: Row): string {
  if (row.type === "lane") return `lane-${row.lane.key}`;
  return row.type === "call" ? `call-${row.group.id}` : `msg-${row.child.entry.seq}`;
}

function Choice({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (event: Event) => void }) {
  return (
    <label>
      {label}{" "}
      <select value={value} onChange={onChange}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

function formatSpan(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
