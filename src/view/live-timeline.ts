/**
 * A running mock's live timeline: the page at `/__mcp-testkit/ui`, and the server-sent events
 * at `/__mcp-testkit/ui/events` that bring each message as a trace entry while the page is
 * open. The mock listens to its own messages only while some page is connected, so a mock
 * nobody watches pays nothing for it. A page that reads too slowly loses entries, never the
 * mock's memory: the next entry it gets says how many it missed (`dropped`).
 */
import type { ToolCall } from "../engine/call-log.js";
import type { EventHub, MessageEvent } from "../engine/events.js";
import type { Router } from "../wire/http/router.js";
import { TRACE_FORMAT_VERSION, type TraceEntry, type TraceHeader } from "../trace/entry.js";
import { entryFromMockMessage } from "../trace/from-events.js";
import { entriesFromRecord } from "./input-readers.js";
import { timelinePage } from "./page.js";

export const LIVE_UI_PATH = "/__mcp-testkit/ui";
export const LIVE_EVENTS_PATH = "/__mcp-testkit/ui/events";

/** Entries queued for one page before it loses the next ones. */
const QUEUE_LIMIT = 10_000;
/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/** What the live timeline needs of its mock. */
export interface LiveSource {
  /** The mock's events: its `message`s while a page is open, and `server:willStop`. */
  readonly events: Pick<EventHub, "on">;
  /** The tool calls so far, shown when a page opens. */
  calls(): readonly ToolCall[];
  /** The mock's URL, for the page's title and its curl lines. */
  url(): string | undefined;
}

/** Mounts the page and its events on a mock's router, behind its Host/Origin guard, left out of its 404's list. */
export function mountLiveTimeline(router: Pick<Router, "mount">, source: LiveSource): void {
  const live = liveTimeline(source);
  router.mount(LIVE_UI_PATH, live.page, { unlisted: true });
  router.mount(LIVE_EVENTS_PATH, live.events, { unlisted: true });
}

export interface LiveTimeline {
  readonly page: (request: Request) => Promise<Response>;
  readonly events: (request: Request) => Response;
}

export function liveTimeline(source: LiveSource): LiveTimeline {
  // One numbering for every page's entries, so a page's calls so far and its live ones never share a number.
  let seq = 0;
  const renumber = (entries: readonly TraceEntry[]) => entries.map((entry) => ({ ...entry, seq: ++seq }));
  return {
    async page(request) {
      if (request.method !== "GET" && request.method !== "HEAD") return notAllowed();
      const url = source.url();
      const entries = renumber(entriesFromRecord(source.calls()).entries);
      const header: TraceHeader = { type: "mcp-testkit-trace", version: TRACE_FORMAT_VERSION, source: "mock", startedAt: entries[0]?.at ?? Date.now(), ...(url !== undefined && { target: url }) };
      const notes = entries.length > 0 ? ["The calls before this page opened are shown from the mock's call record (tool calls only); what follows arrives live."] : [];
      // Relative, so the page finds its events wherever the mock is mounted.
      const html = await timelinePage({ header, entries, title: url ?? "mock", kind: "live", eventsPath: "ui/events", ...(notes.length > 0 && { notes }) });
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
    },
    events(request) {
      if (request.method !== "GET") return notAllowed();
      const encoder = new TextEncoder();
      let stop = () => {};
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            let dropped = 0;
            const send = (event: MessageEvent) => {
              const entry = entryFromMockMessage(event, ++seq);
              if ((controller.desiredSize ?? 0) <= 0) {
                dropped++;
                return;
              }
              const line = JSON.stringify(dropped > 0 ? { ...entry, dropped } : entry);
              dropped = 0;
              controller.enqueue(encoder.encode(`data: ${line}\n\n`));
            };
            const keepalive = setInterval(() => controller.enqueue(encoder.encode(": keepalive\n\n")), KEEPALIVE_MS);
            keepalive.unref();
            const unsubscribe = source.events.on("message", send);
            const unwatchClose = source.events.on("server:willStop", () => {
              stop();
              controller.close();
            });
            stop = () => {
              unsubscribe();
              unwatchClose();
              clearInterval(keepalive);
            };
            // The stream is open: the page's EventSource fires `open`.
            controller.enqueue(encoder.encode(": connected\n\n"));
          },
          cancel() {
            stop();
          },
        },
        { highWaterMark: QUEUE_LIMIT },
      );
      return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" } });
    },
  };
}

function notAllowed(): Response {
  return new Response(JSON.stringify({ error: "The live timeline is read with GET." }), { status: 405, headers: { allow: "GET", "content-type": "application/json" } });
}
