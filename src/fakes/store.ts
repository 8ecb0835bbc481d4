/**
 * The loaded blocks of every mount, indexed by scope so a request finds its blocks without
 * looking at other tests' blocks. Adds are all-or-nothing across mounts: every input is
 * validated and every entry id checked before anything is added.
 */
import { parseFakes, type ParsedBlock } from "./format.js";
import { blockId, sourceBase } from "./ids.js";
import { duplicateIdText, type FakeLoadProblem, type FakeLoadWarning } from "./load-errors.js";
import { ConsumptionState, type ConsumptionLimits } from "./consumption.js";
import { blockEntries, type FakeScope, type FakeSourceKind, type LoadedBlock } from "./types.js";

/** One `mcpFakes` value to add, with where it came from. */
export interface FakesInput {
  kind: FakeSourceKind;
  /** The file name (for kind "file"). */
  file?: string;
  value: unknown;
}

export interface AddOutcome {
  problems: FakeLoadProblem[];
  warnings: FakeLoadWarning[];
  /** The blocks added (none when there are problems). */
  added: LoadedBlock[];
}

/** Blocks by level, most specific first: test id and context, test id, context, shared. */
export type LevelBlocks = [LoadedBlock[], LoadedBlock[], LoadedBlock[], LoadedBlock[]];

const bothKey = (testId: string, context: string): string => `${testId}\u0000${context}`;

function push<K>(map: Map<K, LoadedBlock[]>, key: K, block: LoadedBlock): void {
  const list = map.get(key);
  if (list) list.push(block);
  else map.set(key, [block]);
}

export class MountFakes {
  readonly blocks: LoadedBlock[] = [];
  readonly entryIds = new Set<string>();
  private readonly byBoth = new Map<string, LoadedBlock[]>();
  private readonly byTestId = new Map<string, LoadedBlock[]>();
  private readonly byContext = new Map<string, LoadedBlock[]>();
  private readonly shared: LoadedBlock[] = [];
  /** How many adds from code and from the control API reached this mount (ids count from 1). */
  readonly counters: Record<"code" | "control-api", number> = { code: 0, "control-api": 0 };
  readonly consumption: ConsumptionState;

  constructor(
    readonly mount: string,
    limits: ConsumptionLimits,
  ) {
    this.consumption = new ConsumptionState(limits);
  }

  add(block: LoadedBlock): void {
    this.blocks.push(block);
    for (const entry of blockEntries(block)) this.entryIds.add(entry.id);
    const { scope } = block;
    if (scope === "shared") this.shared.push(block);
    else if (scope.testId !== undefined && scope.context !== undefined) push(this.byBoth, bothKey(scope.testId, scope.context), block);
    else if (scope.testId !== undefined) push(this.byTestId, scope.testId, block);
    else push(this.byContext, scope.context as string, block);
  }

  /** The blocks a request with this test id and context sees, by level. */
  /** The blocks a request with this identity sees, most specific level first (a block's level: `levelOfScope`). */
  levels(testId: string | null, context: string | null): LevelBlocks {
    return [
      (testId !== null && context !== null && this.byBoth.get(bothKey(testId, context))) || [],
      (testId !== null && this.byTestId.get(testId)) || [],
      (context !== null && this.byContext.get(context)) || [],
      this.shared,
    ];
  }
}

function toLoaded(parsed: ParsedBlock, file: string | null): LoadedBlock {
  return {
    blockId: parsed.blockId,
    file,
    mount: parsed.mount,
    scope: parsed.scope,
    deny: parsed.deny,
    tools: new Map(parsed.tools.map((tool) => [tool.name, tool])),
    resources: new Map(parsed.resources.map((resource) => [resource.uri, resource])),
    prompts: new Map(parsed.prompts.map((prompt) => [prompt.name, prompt])),
  };
}

const ORIGIN: Record<FakeSourceKind, string> = { file: "file", code: "code", "control-api": "the control API" };

export class FakesStore {
  readonly mounts = new Map<string, MountFakes>();
  /** How many times each file was loaded, for the `@2`, `@3` suffixes. */
  private readonly fileLoads = new Map<string, number>();

  constructor(private readonly limits: ConsumptionLimits) {}

  mountOf(path: string): MountFakes {
    let mount = this.mounts.get(path);
    if (!mount) {
      mount = new MountFakes(path, this.limits);
      this.mounts.set(path, mount);
    }
    return mount;
  }

  /** Validates every input, then adds all of them or none (none either way when `commit` is false). */
  add(inputs: readonly FakesInput[], commit = true): AddOutcome {
    const problems: FakeLoadProblem[] = [];
    const warnings: FakeLoadWarning[] = [];
    const planned: LoadedBlock[] = [];
    const loadsThisCall = new Map<string, number>();
    const countersThisCall = new Map<string, number>();
    for (const [inputIndex, input] of inputs.entries()) {
      const file = input.kind === "file" ? (input.file ?? "") : null;
      let base = "";
      if (file !== null) {
        const number = (loadsThisCall.get(file) ?? this.fileLoads.get(file) ?? 0) + 1;
        loadsThisCall.set(file, number);
        base = sourceBase("file", file, number);
      }
      const counterKind = input.kind === "file" ? null : input.kind;
      // Each mount numbers the code and control-API adds that reach it, so the number depends on the block's mount.
      const blockIdFor = (position: number | null, mount: string): string => {
        if (counterKind === null) return blockId(base, position);
        const key = `${counterKind}\u0000${mount}\u0000${inputIndex}`;
        let number = countersThisCall.get(key);
        if (number === undefined) {
          const used = [...countersThisCall.keys()].filter((k) => k.startsWith(`${counterKind}\u0000${mount}\u0000`)).length;
          number = (this.mounts.get(mount)?.counters[counterKind] ?? 0) + used + 1;
          countersThisCall.set(key, number);
        }
        return blockId(sourceBase(counterKind, null, number), position);
      };
      const parsed = parseFakes({ value: input.value, file, blockIdFor, origin: ORIGIN[input.kind] });
      problems.push(...parsed.problems);
      warnings.push(...parsed.warnings);
      planned.push(...parsed.blocks.map((block) => toLoaded(block, file)));
    }
    problems.push(...this.duplicateIds(planned));
    if (problems.length > 0 || !commit) return { problems, warnings, added: [] };
    this.commit(planned, loadsThisCall, countersThisCall);
    return { problems, warnings, added: planned };
  }

  private duplicateIds(planned: readonly LoadedBlock[]): FakeLoadProblem[] {
    const problems: FakeLoadProblem[] = [];
    const seen = new Map<string, string>();
    for (const block of planned) {
      for (const entry of blockEntries(block)) {
        const key = `${block.mount}\u0000${entry.id}`;
        const where = this.mounts.get(block.mount)?.entryIds.has(entry.id) ? "is already loaded" : seen.has(key) ? "is used twice in this load" : null;
        seen.set(key, entry.id);
        if (where) {
          problems.push({
            rule: "mcp-fakes/duplicate-id",
            file: block.file,
            blockId: block.blockId,
            entryId: entry.id,
            message: `${block.file ?? block.blockId}, block ${block.blockId}: ${duplicateIdText(entry.id, where, block.mount)}`,
          });
        }
      }
    }
    return problems;
  }

  private commit(planned: readonly LoadedBlock[], loads: Map<string, number>, counters: Map<string, number>): void {
    for (const [file, number] of loads) this.fileLoads.set(file, number);
    for (const [key, number] of counters) {
      const [kind, mount] = key.split("\u0000") as ["code" | "control-api", string];
      const state = this.mountOf(mount);
      state.counters[kind] = Math.max(state.counters[kind], number);
    }
    for (const block of planned) this.mountOf(block.mount).add(block);
  }

  /** Removes every block (and with them all consumption state), and restarts the id numbering. */
  clear(): void {
    this.mounts.clear();
    this.fileLoads.clear();
  }
}

/** Where `levels()` puts a block of this scope: 0 test id and context, 1 test id, 2 context, 3 shared. */
export function levelOfScope(scope: FakeScope): number {
  if (scope === "shared") return 3;
  if (scope.testId !== undefined && scope.context !== undefined) return 0;
  return scope.testId !== undefined ? 1 : 2;
}
