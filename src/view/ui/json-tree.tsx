/**
 * A JSON value as a tree of native `<details>`: each object and array folds, keyboard and
 * screen readers work as they do everywhere, and nothing below a closed node is drawn.
 */
import { useState } from "preact/hooks";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Nodes deeper than this start closed. */
const OPEN_DEPTH = 2;

export function JsonTree({ value, label }: { value: unknown; label?: string }) {
  return (
    <div class="json">
      <Node value={value as Json} name={label} depth={0} />
    </div>
  );
}

function Node({ value, name, depth }: { value: Json; name: string | undefined; depth: number }) {
  const key = name === undefined ? null : <span class="json-key">{name}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div class="json-leaf">
        {key}
        <span class={`json-${value === null ? "null" : typeof value}`}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  return <Branch value={value} keyNode={key} depth={depth} />;
}

function Branch({ value, keyNode, depth }: { value: Json[] | { [key: string]: Json }; keyNode: preact.ComponentChild; depth: number }) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const entries: [string, Json][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  const brackets = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  const size = Array.isArray(value) ? `${entries.length} item${entries.length === 1 ? "" : "s"}` : `${entries.length} key${entries.length === 1 ? "" : "s"}`;
  if (entries.length === 0) {
    return (
      <div class="json-leaf">
        {keyNode}
        {brackets.join("")}
      </div>
    );
  }
  return (
    <details open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        {keyNode}
        {brackets[0]}
        {open ? "" : ` ${size} ${brackets[1]}`}
      </summary>
      {open && (
        <div class="json-children">
          {entries.map(([name, item]) => (
            <Node key={name} value={item} name={Array.isArray(value) ? undefined : name} depth={depth + 1} />
          ))}
        </div>
      )}
      {open && <div class="json-close">{brackets[1]}</div>}
    </details>
  );
}
