/** What a test (or a tools/list) can see of the fakes: the blocks that apply to an identity. */
import { McpTestkitError } from "../errors.js";
import { declaredMatcher, declaringLevel } from "./answer.js";
import type { FakesStore, MountFakes } from "./store.js";
import type { FakeScope, LoadedBlock } from "./types.js";

export interface InspectQuery {
  testId?: string | null;
  context?: string | null;
  /** One mount; all mounts when left out. */
  mount?: string;
}

export interface EntrySnapshot {
  id: string;
  args?: Record<string, unknown>;
  argsMatch?: Record<string, unknown>;
  anyArgs?: true;
  consumed: boolean;
}

export interface BlockSnapshot {
  blockId: string;
  file: string | null;
  mount: string;
  scope: FakeScope;
  undeclaredTools: "deny" | "allow";
  /** Whether the test id's consumption state was dropped by the cap (its calls fail with MCP_FAKE_EVICTED). */
  evicted: boolean;
  tools: Array<{ name: string; entries: EntrySnapshot[] }>;
}

export interface FakesListing {
  testId: string | null;
  context: string | null;
  mounts: Array<{ mount: string; blocks: BlockSnapshot[] }>;
}

function snapshot(mount: MountFakes, block: LoadedBlock, testId: string | null): BlockSnapshot {
  const state = mount.consumption;
  return {
    blockId: block.blockId,
    file: block.file,
    mount: block.mount,
    scope: block.scope,
    undeclaredTools: block.deny ? "deny" : "allow",
    evicted: state.isEvicted(testId),
    tools: [...block.tools.values()].map((tool) => ({
      name: tool.name,
      entries: tool.entries.map((entry) => ({ id: entry.id, ...declaredMatcher(entry), consumed: state.isUsed(testId, entry.id) })),
    })),
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

/**
 * Throws listing every unused entry of the scoped blocks that apply to this test id (shared
 * blocks are for every test, so they are left out), like nock's `isDone`.
 */
export function assertFakesConsumed(store: FakesStore, query: InspectQuery): void {
  const unused: string[] = [];
  for (const { blocks } of inspectFakes(store, query).mounts) {
    for (const block of blocks) {
      if (block.scope === "shared") continue;
      for (const tool of block.tools) for (const entry of tool.entries) if (!entry.consumed) unused.push(`${entry.id} (${block.mount}, tool "${tool.name}")`);
    }
  }
  if (unused.length > 0) {
    const who = [query.testId != null && `testId ${JSON.stringify(query.testId)}`, query.context != null && `context ${JSON.stringify(query.context)}`].filter(Boolean).join(", ") || "no test id or context";
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
  if (!mount) return [];
  const levels = mount.levels(testId, context);
  const names = new Set<string>();
  for (const blocks of levels) for (const block of blocks) for (const name of block.tools.keys()) names.add(name);
  return [...names].map((name) => {
    const tools = declaringLevel(levels, name) ?? [];
    const description = tools.find((tool) => tool.description !== undefined)?.description;
    const inputSchema = tools.find((tool) => tool.inputSchema !== undefined)?.inputSchema ?? { type: "object" };
    return { name, ...(description !== undefined && { description }), inputSchema };
  });
}
