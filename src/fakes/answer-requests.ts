/**
 * How one `resources/read` or `prompts/get` is decided by the fakes of its mount, by the rules
 * tools/call follows: the most specific level that declares the resource (by URI) or the prompt
 * answers with its first unused matching entry, or fails; anything else passes to the catalog.
 * There is no closed world here: `undeclaredTools` is about tools.
 */
import { chooseEntry, declaringLevelOf, NO_BLOCKS, type FakeDecision } from "./answer.js";
import type { FailureContext } from "./fake-errors.js";
import type { MountFakes } from "./store.js";
import type { FakeRequestEntry, FakeRpcAnswer, LoadedBlock } from "./types.js";

export type RequestSubject = "resource" | "prompt";

export type RequestDecision = { kind: "answer"; entryId: string; answer: FakeRpcAnswer } | Exclude<FakeDecision, { kind: "answer" | "step" }>;

export interface DecideRequestInput {
  subject: RequestSubject;
  /** The resource's URI or the prompt's name. */
  name: string;
  /** The prompt's arguments (`{}` for a read). */
  arguments: Record<string, unknown>;
  testId: string | null;
  context: string | null;
  mount: string;
}

const PICK: Record<RequestSubject, (block: LoadedBlock) => Map<string, { entries: FakeRequestEntry[] }>> = {
  resource: (block) => block.resources,
  prompt: (block) => block.prompts,
};

export function decideRequest(mount: MountFakes | undefined, input: DecideRequestInput): RequestDecision {
  const { subject, name, testId, context } = input;
  const levels = mount ? mount.levels(testId, context) : NO_BLOCKS;
  const declared = declaringLevelOf(levels, name, PICK[subject]);
  if (!declared || !mount) return { kind: "pass" };
  const base: FailureContext = { subject, name, testId, context, mount: input.mount };
  const chosen = chooseEntry(
    mount.consumption,
    base,
    declared.flatMap((item) => item.entries),
    input.arguments,
  );
  if ("kind" in chosen) return chosen;
  return { kind: "answer", entryId: chosen.id, answer: structuredClone(chosen.answer) };
}
