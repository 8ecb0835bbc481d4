/**
 * What the timeline page is given: a trace's header and entries, where they came from, and for
 * the live page where to hear new ones. The page (src/view/ui) reads this and nothing else, so
 * any input a reader turns into entries shows the same way.
 */
import type { TraceEntry, TraceHeader } from "../trace/entry.js";

/** The kinds of file `mcp-testkit view` reads. */
export type TimelineInputKind = "trace" | "har" | "record" | "journal" | "recording";

export interface TimelineData {
  readonly header: TraceHeader;
  readonly entries: readonly TraceEntry[];
  /** A title for the page: the file's name, or the live mock's URL. */
  readonly title: string;
  /** What the entries were read from. */
  readonly kind: TimelineInputKind | "live";
  /** Notes for the reader of the page: what an input could not give (timings, non-tool messages). */
  readonly notes?: readonly string[];
  /** Live page only: the path of the server-sent events that bring new entries. */
  readonly eventsPath?: string;
}
