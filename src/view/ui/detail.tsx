/**
 * The selected call in full: how it went, every message under it as foldable JSON with a copy
 * button, the validator's problems beside the message they concern, and the lines that replay a
 * message the client sent.
 */
import { useState } from "preact/hooks";
import type { TraceEntry } from "../../trace/entry.js";
import { JsonTree } from "./json-tree.js";
import { type CallGroup, entriesOf } from "./model.js";
import { curlLine, handleLine } from "./replay.js";
import { faultOf, formatMs } from "./rows.js";

export function Detail({ group, focus, t0, target }: { group: CallGroup | undefined; focus: TraceEntry | undefined; t0: number; target: string | undefined }) {
  if (group === undefined) {
    return (
      <section class="detail empty" aria-label="Details">
        <p>Select a call to see its messages. Keys: ↑ ↓ move, → ← open and close a call, / search, Esc back to the list.</p>
      </section>
    );
  }
  const fault = faultOf(group);
  const entries = entriesOf(group);
  return (
    <section class="detail" aria-label="Details">
      <h2>
        {group.method} <span class={`badge ${group.outcome}`}>{group.outcome === "fault" && fault !== undefined ? `fault: ${fault}` : group.outcome}</span>
      </h2>
      <dl class="facts">
        <Fact name="Began">+{formatMs(group.start - t0)}</Fact>
        {group.outcome !== "pending" && <Fact name="Took">{formatMs(group.end - group.start)}</Fact>}
        {group.head.sessionId !== undefined && <Fact name="Session">{group.head.sessionId}</Fact>}
        {group.head.testId !== undefined && <Fact name="Test id">{group.head.testId}</Fact>}
        {group.head.context !== undefined && <Fact name="Context">{group.head.context}</Fact>}
        {group.head.protocolVersion !== undefined && <Fact name="Revision">{group.head.protocolVersion}</Fact>}
        <Fact name="Wire">{group.head.wire}</Fact>
      </dl>
      {entries.map((entry) => (
        <MessageView key={entry.seq} entry={entry} t0={t0} target={target} focused={entry === focus} />
      ))}
    </section>
  );
}

function Fact({ name, children }: { name: string; children: preact.ComponentChildren }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

function MessageView({ entry, t0, target, focused }: { entry: TraceEntry; t0: number; target: string | undefined; focused: boolean }) {
  const handle = entry.from === "client" ? handleLine(entry) : undefined;
  const curl = curlLine(entry, target);
  const body = entry.message ?? entry.raw;
  return (
    <article class={`message${focused ? " focused" : ""}`} aria-label={`Message ${entry.seq}`}>
      <h3>
        #{entry.seq} {entry.from === "client" ? "client → server" : "server → client"} at +{formatMs(entry.at - t0)}
        {entry.http?.status !== undefined && ` · HTTP ${entry.http.status}`}
        {entry.fault !== undefined && <span class="badge fault">fault: {entry.fault}</span>}
        {entry.dropped !== undefined && <span class="badge problem">{entry.dropped} dropped before</span>}
      </h3>
      {entry.problems !== undefined && entry.problems.length > 0 && (
        <ul class="problems" aria-label="Validator problems">
          {entry.problems.map((problem) => (
            <li key={problem.path + problem.message}>
              <code>{problem.path}</code> {problem.message}
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <CopyButton label="Copy JSON" text={typeof body === "string" ? body : JSON.stringify(body, null, 2)} />
        {handle !== undefined && <CopyButton label="Copy handle()" text={handle} />}
        {curl !== undefined && <CopyButton label="Copy curl" text={curl} />}
      </div>
      {typeof body === "string" ? <pre class="raw">{body === "" ? "(no bytes)" : body}</pre> : <JsonTree value={body} />}
      {entry.http !== undefined && (
        <details class="http">
          <summary>
            HTTP {entry.http.method ?? ""} {entry.http.path ?? ""}
          </summary>
          <JsonTree value={entry.http.headers} />
        </details>
      )}
      {(handle !== undefined || curl !== undefined) && (
        <details class="replay">
          <summary>Replay this message</summary>
          {handle !== undefined && <pre class="replay-handle">{handle}</pre>}
          {curl !== undefined && <pre class="replay-curl">{curl}</pre>}
        </details>
      )}
    </article>
  );
}

function CopyButton({ label, text }: { label: string; text: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    await copyText(text);
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" onClick={() => void copy()}>
      {done ? "Copied" : label}
    </button>
  );
}

/** The clipboard API where the page may use it; else the older copy command (a file:// page). */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("aria-hidden", "true");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
