/**
 * How one tools/call is decided by the fakes of its mount: the most specific level that
 * declares the tool answers with its first unused matching entry, or fails; an undeclared tool
 * under deny fails; anything else passes to the next step source.
 */
import { closestEntry, entryDifference, entryMatches, type ArgsMatcher } from "./args-match.js";
import { evictedError, exhaustedError, mismatchError, notDeclaredError, type DeclaredEntry, type FailureContext, type FakeJsonRpcError, type McpFakeErrorCode } from "./fake-errors.js";
import type { McpFakeOutcome } from "./journal.js";
import type { ConsumptionState } from "./consumption.js";
import type { LevelBlocks, MountFakes } from "./store.js";
import type { FakeCallResult, FakeToolEntries, LoadedBlock, McpFakeStep } from "./types.js";

export type FakeDecision =
  | { kind: "answer"; entryId: string; result: FakeCallResult }
  | { kind: "step"; entryId: string; step: McpFakeStep }
  | { kind: "error"; code: McpFakeErrorCode; outcome: McpFakeOutcome; jsonRpcError: FakeJsonRpcError }
  | { kind: "pass" };

export interface DecideInput {
  tool: string;
  arguments: Record<string, unknown>;
  testId: string | null;
  context: string | null;
  undeclared: "allow" | "deny" | null;
  mount: string;
}

export const NO_BLOCKS: LevelBlocks = [[], [], [], []];

/** The definitions of `name` in the most specific level whose blocks declare it (`pick` chooses tools, resources or prompts). */
export function declaringLevelOf<T>(levels: LevelBlocks, name: string, pick: (block: LoadedBlock) => Map<string, T>): T[] | undefined {
  // Loops, not flatMap: this runs for every faked call, at each of the four levels.
  for (const blocks of levels) {
    let found: T[] | undefined;
    for (const block of blocks) {
      const definition = pick(block).get(name);
      if (definition !== undefined) (found ??= []).push(definition);
    }
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The tool's entries at the most specific level that declares it, with that level's tool definitions. */
export function declaringLevel(levels: LevelBlocks, tool: string): FakeToolEntries[] | undefined {
  return declaringLevelOf(levels, tool, (block) => block.tools);
}

function underDeny(levels: LevelBlocks, override: "allow" | "deny" | null): boolean {
  if (override !== null) return override === "deny";
  // Only scoped blocks can say deny (a shared one is refused at load).
  return levels.slice(0, 3).some((blocks) => blocks.some((block) => block.deny));
}

function declaredTools(levels: LevelBlocks): string[] {
  const names = new Set<string>();
  for (const blocks of levels) for (const block of blocks) for (const name of block.tools.keys()) names.add(name);
  return [...names];
}

export function describeEntry(entry: ArgsMatcher & { id: string }, consumed: boolean): DeclaredEntry {
  return { id: entry.id, ...declaredMatcher(entry), consumed };
}

/** What an entry matches, as written: `{ args }`, `{ argsMatch }` or `{ anyArgs: true }`. */
export function declaredMatcher(entry: ArgsMatcher): { args: Record<string, unknown> } | { argsMatch: Record<string, unknown> } | { anyArgs: true } {
  if (entry.argsMatch !== null) return { argsMatch: entry.argsMatch.written };
  return entry.args === null ? { anyArgs: true } : { args: entry.args };
}

type FakeFailure = Extract<FakeDecision, { kind: "error" }>;

export function fail(jsonRpcError: FakeJsonRpcError, outcome: McpFakeOutcome): FakeFailure {
  return { kind: "error", code: jsonRpcError.data.mcpTestkit.code, outcome, jsonRpcError };
}

/**
 * Among the declaring level's entries, the first unused one that matches `args` (marked used),
 * or the failure: evicted, exhausted (entries matched, all used) or mismatch (none matched).
 */
export function chooseEntry<E extends ArgsMatcher & { id: string }>(state: ConsumptionState, base: FailureContext, entries: readonly E[], args: Record<string, unknown>): E | FakeFailure {
  const { testId } = base;
  if (state.isEvicted(testId)) return fail(evictedError(base, state.cap), "evicted");
  // One pass, no arrays: the first unused match answers; the used ones are listed only on failure.
  let matchedUsed = false;
  for (const entry of entries) {
    if (!entryMatches(args, entry)) continue;
    if (!state.isUsed(testId, entry.id)) {
      state.markUsed(testId, entry.id);
      return entry;
    }
    matchedUsed = true;
  }
  if (matchedUsed)
    return fail(
      exhaustedError(
        base,
        args,
        entries.filter((entry) => entryMatches(args, entry)).map((entry) => entry.id),
      ),
      "exhausted",
    );
  const closest = closestEntry(args, entries);
  const difference = closest ? (entryDifference(args, closest) ?? null) : null;
  const declared = entries.map((entry) => describeEntry(entry, state.isUsed(testId, entry.id)));
  return fail(mismatchError(base, args, declared, difference), "mismatch");
}

export function decide(mount: MountFakes | undefined, input: DecideInput): FakeDecision {
  const { tool, arguments: args, testId, context, undeclared } = input;
  const base: FailureContext = { name: tool, testId, context, mount: input.mount };
  const levels = mount ? mount.levels(testId, context) : NO_BLOCKS;
  const tools = declaringLevel(levels, tool);
  if (!tools || !mount) {
    return underDeny(levels, undeclared) ? fail(notDeclaredError(base, declaredTools(levels)), "not_declared") : { kind: "pass" };
  }
  const chosen = chooseEntry(mount.consumption, base, tools.length === 1 ? tools[0]!.entries : tools.flatMap((t) => t.entries), args);
  if ("kind" in chosen) return chosen;
  // Frozen at load (format.ts): nothing downstream can change the fixture, so no copy per call.
  const reply = chosen.reply;
  return "step" in reply ? { kind: "step", entryId: chosen.id, step: reply.step } : { kind: "answer", entryId: chosen.id, result: reply.result };
}
