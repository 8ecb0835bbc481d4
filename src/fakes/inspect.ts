/** What a test (or a tools/list) can see of the fakes: the blocks that apply to an identity. */
import { McpTestkitError } from "../errors.js";
import { declaredMatcher, declaringLevelOf } from "./answer.js";
import type { ArgsMatcher } from "./args-match.js";
import { levelOfScope, type FakesStore, type MountFakes } from "./store.js";
import type { FakeScope, LoadedBlock } from "./types.js";
import type { DeclaredEntry } from "./fake-errors.js";

export interface InspectQuery {
  testId?: string | null;
  context?: string | null;
  /** One mount; all mounts when left out. */
  mount?: string;
}

/** An entry as the listing shows it: the same shape a mismatch error lists as declared. */
export type EntrySnapshot = DeclaredEntry;

export interface BlockSnapshot {
  blockId: string;
  file: string | null;
  mount: string;
  scope: FakeScope;
  undeclaredTools: "deny" | "allow";
  /** Whether the test id's consumption state was dropped by the cap (its calls fail with MCP_FAKE_EVICTED). */
  evicted: boolean;
  tools: Array<{ name: string; entries: EntrySnapshot[] }>;
  /** Only when the block fakes resources. */
  resources?: Array<{ uri: string; entries: EntrySnapshot[] }>;
  /** Only when the block fakes prompts. */
  prompts?: Array<{ name: string; entries: EntrySnapshot[] }>;
}

export interface FakesListing {
  testId: string | null;
  context: string | null;
  mounts: Array<{ mount: string; blocks: BlockSnapshot[] }>;
}

function snapshot(mount: MountFakes, block: LoadedBlock, testId: string | null): BlockSnapshot {
  const state = mount.consumption;
  const entries = (list: ReadonlyArray<ArgsMatcher & { id: string }>): EntrySnapshot[] => list.map((entry) => ({ id: entry.id, ...declaredMatcher(entry), consumed: state.isUsed(testId, entry.id) }));
  return {
    blockId: block.blockId,
    file: block.file,
    mount: block.mount,
    scope: block.scope,
    undeclaredTools: block.deny ? "deny" : "allow",
    evicted: state.isEvicted(testId),
    tools: [...block.tools.values()].map((tool) => ({ name: tool.name, entries: entries(tool.entries) })),
    ...(block.resources.size > 0 && { resources: [...block.resources.values()].map((resource) => ({ uri: resource.uri, entries: entries(resource.entries) })) }),
    ...(block.prompts.size > 0 && { prompts: [...block.prompts.values()].map((prompt) => ({ name: prompt.name, entries: entries(prompt.entries) })) }),
  };
}

/** Per mount, the blocks that apply to this test id and context, most specific level first. */
export function inspectFakes(store: FakesStore, query: InspectQuery): FakesListing {
  const testId = query.testId ?? null;
  const context = query.context ?? null;
  const mounts: FakesListing["mounts"] = [];
  for (const mount of store.mounts.values()) {
    if (query.mount !== undefined && mount.mount !== query.mount) continue;
    const blocks = mount.levels(testId, context).flat();
    if (blocks.length > 0) mounts.push({ mount: mount.mount, blocks: blocks.map((block) => snapshot(mount, block, testId)) });
  }
  return { testId, context, mounts };
}

type Declared = [noun: string, name: string, entries: EntrySnapshot[]];

function declaredIn(block: BlockSnapshot): Declared[] {
  return [
    ...block.tools.map((tool): Declared => ["tool", tool.name, tool.entries]),
    ...(block.resources ?? []).map((resource): Declared => ["resource", resource.uri, resource.entries]),
    ...(block.prompts ?? []).map((prompt): Declared => ["prompt", prompt.name, prompt.entries]),
  ];
}

/**
 * Throws listing every unused entry of the scoped blocks in `listing` (what `inspectFakes` found
 * for the query; shared blocks are for every test, so they are left out), like nock's `isDone`.
 * A name declared at several levels is answered by the most specific one alone, so the entries of
 * the less specific levels can never be used by this query: they are not asked for.
 */
export function assertFakesConsumed(listing: FakesListing, query: InspectQuery): void {
  const unused: string[] = [];
  for (const { blocks } of listing.mounts) {
    const answering = new Map<string, number>();
    for (const block of blocks) {
      const level = levelOfScope(block.scope);
      for (const [noun, name] of declaredIn(block)) answering.set(`${noun} ${name}`, Math.min(level, answering.get(`${noun} ${name}`) ?? level));
    }
    for (const block of blocks) {
      if (block.scope === "shared") continue;
      const level = levelOfScope(block.scope);
      for (const [noun, name, entries] of declaredIn(block)) {
        if (answering.get(`${noun} ${name}`) !== level) continue;
        for (const entry of entries) if (!entry.consumed) unused.push(`${entry.id} (${block.mount}, ${noun} "${name}")`);
      }
    }
  }
  if (unused.length > 0) {
    const who =
      [query.testId != null && `testId ${JSON.stringify(query.testId)}`, query.context != null && `context ${JSON.stringify(query.context)}`].filter(Boolean).join(", ") || "no test id or context";
    throw new McpTestkitError(`${unused.length} declared MCP fake${unused.length === 1 ? " was" : "s were"} never used (${who}):\n${unused.map((line) => `  - ${line}`).join("\n")}`);
  }
}

export interface FakeToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The tools named in the request's blocks, for tools/list; the engine lists a registered definition instead when there is one. */
export function fakeToolDefinitions(mount: MountFakes | undefined, testId: string | null, context: string | null): FakeToolDefinition[] {
  return definitions(mount, testId, context, (block) => block.tools).map(([name, tools]) => ({
    name,
    ...firstOf(tools, "description"),
    inputSchema: tools.find((tool) => tool.inputSchema !== undefined)?.inputSchema ?? { type: "object" },
  }));
}

export interface FakeResourceDefinition {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface FakePromptDefinition {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

/** Each name (or URI) `pick` finds in the request's blocks, with its declaring level's definitions. */
function definitions<T>(mount: MountFakes | undefined, testId: string | null, context: string | null, pick: (block: LoadedBlock) => Map<string, T>): Array<[string, T[]]> {
  if (!mount) return [];
  const levels = mount.levels(testId, context);
  const names = new Set<string>();
  for (const blocks of levels) for (const block of blocks) for (const name of pick(block).keys()) names.add(name);
  return [...names].map((name) => [name, declaringLevelOf(levels, name, pick) ?? []]);
}

/** The first defined value of `key` among a level's definitions. */
function firstOf<T, K extends keyof T>(items: readonly T[], key: K): Partial<Record<K, NonNullable<T[K]>>> {
  const value = items.find((item) => item[key] !== undefined)?.[key];
  return (value === undefined ? {} : { [key]: value }) as Partial<Record<K, NonNullable<T[K]>>>;
}

/** The resources named in the request's blocks, for resources/list (named by their URI unless given a name). */
export function fakeResourceDefinitions(mount: MountFakes | undefined, testId: string | null, context: string | null): FakeResourceDefinition[] {
  return definitions(mount, testId, context, (block) => block.resources).map(([uri, items]) => ({
    uri,
    name: items.find((item) => item.name !== undefined)?.name ?? uri,
    ...firstOf(items, "description"),
    ...firstOf(items, "mimeType"),
  }));
}

export function fakePromptDefinitions(mount: MountFakes | undefined, testId: string | null, context: string | null): FakePromptDefinition[] {
  return definitions(mount, testId, context, (block) => block.prompts).map(([name, items]) => ({ name, ...firstOf(items, "description"), ...firstOf(items, "arguments") }));
}
