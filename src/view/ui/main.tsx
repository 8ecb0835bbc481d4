/**
 * Starts the page: reads the data the HTML carries, draws it, and on a live page adds each
 * entry the mock sends over server-sent events (batched, so a burst redraws once).
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { TraceEntry } from "../../trace/entry.js";
import type { TimelineData } from "../timeline-data.js";
import { App } from "./app.js";

/** How long new live entries wait to be drawn together. */
const LIVE_BATCH_MS = 100;

function Root({ data }: { data: TimelineData }) {
  const [entries, setEntries] = useState<readonly TraceEntry[]>(data.entries);
  const [status, setStatus] = useState<string | undefined>(data.eventsPath === undefined ? undefined : "connecting");
  useEffect(() => {
    if (data.eventsPath === undefined) return;
    const source = new EventSource(data.eventsPath);
    let pending: TraceEntry[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      setEntries((current) => [...current, ...batch]);
    };
    source.onopen = () => setStatus("live");
    source.onerror = () => setStatus(source.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting");
    source.onmessage = (event: MessageEvent<string>) => {
      pending.push(JSON.parse(event.data) as TraceEntry);
      timer ??= setTimeout(flush, LIVE_BATCH_MS);
    };
    return () => {
      source.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [data.eventsPath]);
  return <App data={data} entries={entries} live={status} />;
}

performance.mark("timeline:start");
const script = document.getElementById("timeline-data");
const data = JSON.parse(script?.textContent ?? "null") as TimelineData;
performance.mark("timeline:parsed");
const root = document.getElementById("timeline")!;
render(<Root data={data} />, root);
performance.mark("timeline:rendered");
// When the first screen is drawn, for the page's tests and benchmark to read.
requestAnimationFrame(() => {
  document.documentElement.dataset.firstRenderMs = performance.now().toFixed(1);
});
