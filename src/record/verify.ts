/**
 * `verifyRecording(recording, driver)`: asks a live server each call a recording holds and
 * compares its answer with the recorded one, path by path. It tells a team whether the fixtures
 * their tests replay still say what the real server says.
 */
import { readFile } from "node:fs/promises";
import { RequestFailedError, type McpDriver } from "../driver/index.js";
import { McpTestkitError } from "../errors.js";
import { DEFAULT_IGNORE, diffAnswers, parsePathRules, type AnswerDiffOptions, type AnswerDifference } from "./answer-diff.js";
import { recordedCalls, recordingBlocks, type RecordedCall, type WireAnswer } from "./recorded-calls.js";
import { withoutProtocolKeys } from "./recording.js";
import type { McpRecording } from "./record-mcp.js";

type Json = Record<string, unknown>;

export interface VerifyOptions extends AnswerDiffOptions {
  /** Ignore `_meta`, ids and timestamps (see `DEFAULT_IGNORE`) besides your own `ignore`. Default: true. */
  defaults?: boolean;
  /** How long each call may take (ms); default: the driver's own timeout. */
  timeoutMs?: number;
  /** Stops verifying; calls not yet made are not made. */
  signal?: AbortSignal;
  /** Called as each call is verified, in order (for progress lines). */
  onCall?: (call: VerifiedCall) => void;
}

/**
 * One recorded call and what the live server said: `matched`, `drifted` (with its
 * differences), `failed` (the server did not answer: it exited, timed out, broke the protocol)
 * or `skipped` (it cannot be asked again as recorded; `reason` says why).
 */
export type VerifiedCall = RecordedCall & {
  status: "matched" | "drifted" | "failed" | "skipped";
  differences: AnswerDifference[];
  /** The live answer, when there was one. */
  actual?: WireAnswer;
  /** Why it was skipped, or how it failed. */
  reason?: string;
};

export interface VerifyReport {
  /** True when no call drifted or failed (skipped calls do not count against it). */
  ok: boolean;
  calls: VerifiedCall[];
  summary: { total: number; matched: number; drifted: number; failed: number; skipped: number };
}

/** A recording: the path of its file, its parsed content (scenario, fixture file or block), or a live `recordMcp` recording. */
export type VerifiableRecording = string | Json | Pick<McpRecording, "fixture">;

/**
 * Asks `driver`'s server each recorded tools/call, resources/read and prompts/get, in the
 * recording's order (tool by tool, each tool's calls as recorded), and compares each answer with
 * the recorded one. Calls that cannot be asked again (redacted arguments, scripted steps) are
 * skipped and say why.
 */
export async function verifyRecording(recording: VerifiableRecording, driver: McpDriver, options: VerifyOptions = {}): Promise<VerifyReport> {
  const ignore = parsePathRules([...(options.defaults === false ? [] : DEFAULT_IGNORE), ...(options.ignore ?? [])], "verifyRecording: ignore");
  const unordered = Array.isArray(options.unorderedArrays) ? parsePathRules(options.unorderedArrays, "verifyRecording: unorderedArrays") : options.unorderedArrays === true;
  const calls = recordedCalls(await blocksOf(recording));
  if (driver.protocolVersion === undefined) await driver.initialize();
  const verified: VerifiedCall[] = [];
  for (const call of calls) {
    if (options.signal?.aborted) break;
    const outcome = await verifyCall(call, driver, { ignore, unordered }, options);
    verified.push(outcome);
    options.onCall?.(outcome);
  }
  const count = (status: VerifiedCall["status"]) => verified.filter((call) => call.status === status).length;
  const summary = { total: verified.length, matched: count("matched"), drifted: count("drifted"), failed: count("failed"), skipped: count("skipped") };
  return { ok: summary.drifted === 0 && summary.failed === 0, calls: verified, summary };
}

async function verifyCall(call: RecordedCall, driver: McpDriver, rules: Parameters<typeof diffAnswers>[2], options: VerifyOptions): Promise<VerifiedCall> {
  if ("skip" in call) return { ...call, status: "skipped", differences: [], reason: call.skip };
  const live = await ask(call, driver, options);
  if ("failure" in live) return { ...call, status: "failed", differences: [], reason: live.failure };
  const differences = diffAnswers(normalized(call.expected), normalized(live), rules);
  return { ...call, status: differences.length === 0 ? "matched" : "drifted", differences, actual: live };
}

/** The live server's answer to the call, or why there was none. */
async function ask(call: RecordedCall, driver: McpDriver, options: VerifyOptions): Promise<WireAnswer | { failure: string }> {
  const callOptions = { ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }), ...(options.signal !== undefined && { signal: options.signal }) };
  try {
    if (call.kind === "tool") return { result: { ...(await driver.callTool(call.name, call.arguments, callOptions)) } };
    if (call.kind === "resource") return { result: { ...(await driver.readResource(call.uri, callOptions)) } };
    return { result: { ...(await driver.getPrompt(call.name, call.arguments, callOptions)) } };
  } catch (error) {
    if (error instanceof RequestFailedError && error.code !== undefined) {
      return { error: { code: error.code, message: error.serverMessage ?? error.message, ...(error.data !== undefined && { data: error.data }) } };
    }
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/** Both sides as a recording writes them: without what the revision adds, and without `isError: false` (the default). */
function normalized(answer: WireAnswer): WireAnswer {
  if ("error" in answer) return answer;
  const result = withoutProtocolKeys(answer.result);
  if (result.isError === false) delete result.isError;
  return { result };
}

async function blocksOf(recording: VerifiableRecording) {
  if (typeof recording === "string") return recordingBlocks(await readRecordingFile(recording), JSON.stringify(recording));
  if (typeof (recording as Pick<McpRecording, "fixture">).fixture === "function") {
    return recordingBlocks((recording as Pick<McpRecording, "fixture">).fixture() ?? {}, "the recording");
  }
  return recordingBlocks(recording, "the recording");
}

/** A recording file's content, checked to hold recorded calls; a file that cannot be read or holds none is refused, saying what to give. */
export async function readRecordingFile(path: string): Promise<Json> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new McpTestkitError(`Cannot read the recording ${JSON.stringify(path)}: ${(error as Error).message}. Give the path of a file written by mcp-testkit record.`);
  }
  let content: Json;
  try {
    content = JSON.parse(text) as Json;
  } catch (error) {
    throw new McpTestkitError(`The recording ${JSON.stringify(path)} is not JSON (${(error as Error).message}). Give a file written by mcp-testkit record.`);
  }
  recordingBlocks(content, JSON.stringify(path));
  return content;
}
