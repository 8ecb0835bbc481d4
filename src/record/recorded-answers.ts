/**
 * The answers an earlier recording holds, for the `auto` record mode: a request that matches a
 * recorded entry (its arguments as the fakes match them, each entry once, in order) is answered
 * from the file without reaching the server; the rest are forwarded and recorded after them.
 */
import { readFile } from "node:fs/promises";
import { REDACTED } from "../protocol/http-facts.js";
import { McpTestkitError } from "../errors.js";
import { compilePattern } from "../fakes/arg-patterns.js";
import { entryMatches, type ArgsMatcher } from "../fakes/args-match.js";
import type { McpFakeBlock, McpFakeRedaction } from "../fakes/types.js";
import { recordedCalls, recordingBlocks } from "./recorded-calls.js";
import type { RecordedAnswer, RecordedExchange } from "./recording.js";

type Json = Record<string, unknown>;

interface Entry {
  exchange: RecordedExchange;
  matcher: ArgsMatcher;
  used: boolean;
}

export class RecordedAnswers {
  /** The file's exchanges, in its order, to be written again before the new ones. */
  readonly exchanges: RecordedExchange[] = [];
  /** What the file said it had redacted. */
  readonly redactions: McpFakeRedaction[] = [];
  private readonly entries = new Map<string, Entry[]>();

  constructor(blocks: readonly McpFakeBlock[], source: string) {
    for (const block of blocks) this.redactions.push(...(block.redacted ?? []));
    const written = new Map<string, Json[]>();
    for (const block of blocks) {
      for (const tool of block.tools ?? []) written.set(`tool\u0000${tool.name}`, [...(written.get(`tool\u0000${tool.name}`) ?? []), ...(tool.calls as unknown as Json[])]);
      for (const prompt of block.prompts ?? []) written.set(`prompt\u0000${prompt.name}`, [...(written.get(`prompt\u0000${prompt.name}`) ?? []), ...(prompt.gets as Json[])]);
    }
    const seen = new Map<string, number>();
    for (const call of recordedCalls(blocks)) {
      const key = call.kind === "resource" ? `resource\u0000${call.uri}` : `${call.kind}\u0000${call.name}`;
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      const entry = written.get(key)?.[index] ?? {};
      const recordedArgs = entry.argsMatch !== undefined ? withMarkers(entry.argsMatch) : ((entry.args ?? {}) as Json);
      if (!("expected" in call) && !String(call.skip).includes("redacted")) {
        throw new McpTestkitError(
          `recordMcp: the auto mode can extend only what a recording wrote, and ${source} has an entry it cannot answer again (${call.kind} ${call.kind === "resource" ? call.uri : call.name} #${call.entry}: ${call.skip}). Use mode "record" to record afresh, or "replay".`,
        );
      }
      const answer = ("expected" in call ? call.expected : expectedOfRedacted(entry)) as RecordedAnswer;
      const exchange = (
        call.kind === "resource"
          ? { kind: "resource", uri: call.uri, answer, durationMs: 0 }
          : { kind: call.kind, name: call.name, arguments: call.kind === "tool" ? recordedArgs : (recordedArgs as Record<string, string>), answer, durationMs: 0 }
      ) as RecordedExchange;
      this.exchanges.push(exchange);
      const pattern = entry.argsMatch === undefined ? undefined : compilePattern(entry.argsMatch as Json).pattern;
      const matcher: ArgsMatcher = call.kind === "resource" ? { args: null, argsMatch: null } : { args: pattern ? null : recordedArgs, argsMatch: pattern ?? null };
      this.entries.set(key, [...(this.entries.get(key) ?? []), { exchange, matcher, used: false }]);
    }
  }

  /** The first unused recorded answer for this request, marked used; undefined when the file has none (forward it). */
  take(kind: RecordedExchange["kind"], key: string, args: Json = {}): RecordedAnswer | undefined {
    const entry = this.entries.get(`${kind}\u0000${key}`)?.find((candidate) => !candidate.used && entryMatches(args, candidate.matcher));
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.exchange.answer;
  }
}

/** Reads the recording to extend; a missing file is an empty recording (the first run records it). */
export async function readRecordedAnswers(from: string | Json): Promise<RecordedAnswers> {
  if (typeof from !== "string") return new RecordedAnswers(recordingBlocks(from, "the recording"), "the recording");
  const text = await readFile(from, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new McpTestkitError(`recordMcp: cannot read the recording ${JSON.stringify(from)} to extend: ${error.message}.`);
  });
  if (text === undefined) return new RecordedAnswers([], JSON.stringify(from));
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new McpTestkitError(`recordMcp: the recording ${JSON.stringify(from)} is not JSON (${(error as Error).message}); fix it, or delete it to record afresh.`);
  }
  // A scenario saved before any call was made has no answers yet: nothing to replay, all to record.
  const nothingYet = typeof content === "object" && content !== null && "serverInfo" in content && !("fixtures" in content);
  return new RecordedAnswers(nothingYet ? [] : recordingBlocks(content, JSON.stringify(from)), JSON.stringify(from));
}

/** Arguments with the marker back where the file's pattern matches any value, so saving writes the same pattern again. */
function withMarkers(pattern: unknown): Json {
  const walk = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map(walk);
    const object = value as Json;
    if ("$schema" in object && Object.keys(object).length === 1 && JSON.stringify(object.$schema) === "{}") return REDACTED;
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, walk(item)]));
  };
  return walk(pattern) as Json;
}

/** The answer of an entry whose arguments were redacted: its result or thrown error as written. */
function expectedOfRedacted(entry: Json): RecordedAnswer {
  const step = entry.step as Json | undefined;
  if (step?.throws !== undefined) return { error: step.throws as { code: number; message: string } };
  if (step?.result !== undefined) return { result: step.result as Json };
  if (step !== undefined) return { result: { content: step.content ?? [], ...(step.structuredContent !== undefined && { structuredContent: step.structuredContent }) } };
  if (entry.error !== undefined)
    return typeof entry.error === "string" ? { result: { content: [{ type: "text", text: entry.error }], isError: true } } : { error: entry.error as { code: number; message: string } };
  const result = entry.result;
  if (typeof result === "string") return { result: { content: [{ type: "text", text: result }] } };
  return { result: (result ?? { content: [] }) as Json };
}
