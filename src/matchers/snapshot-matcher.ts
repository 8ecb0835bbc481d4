/**
 * `await expect(server).toMatchServerSnapshot()`: the server's surface (its snapshot file's text)
 * kept in the test runner's own snapshot file, beside the test's other snapshots, and updated the
 * runner's way (`-u`). When it differs, the failure is the classed diff (breaking, compatible,
 * informational) from the stored surface to the server's, not a wall of changed lines.
 *
 * The runner's snapshot store is reached through its own API: Vitest's `Snapshots` (4.1 and later,
 * handed in by `mcp-testkit/vitest`), Jest's `snapshotState` on the matcher context.
 */
import type { SnapshotDriver } from "../snapshot/snapshot-server.js";
import type { ServerSurface } from "../snapshot/surface.js";
import { asMock, describeReceived, isDriver } from "./received.js";
import { misuse, type McpMatcherContext, type McpMatcherResult } from "./report.js";

/** What a runner's snapshot store answered for one value. */
interface StoreAnswer {
  pass: boolean;
  /** The stored snapshot as the runner serialized it, or undefined when there is none. */
  expected?: unknown;
}

/** Vitest's `Snapshots` helper (4.1+): its `toMatchSnapshot`, called with the matcher context. */
export interface VitestSnapshots {
  toMatchSnapshot(this: unknown, received: unknown, hint?: string): { pass: boolean; expected?: unknown } | Promise<{ pass: boolean; expected?: unknown }>;
}

let vitestSnapshots: VitestSnapshots | undefined;

/** Called by `mcp-testkit/vitest` with Vitest's `Snapshots`, when this Vitest has it. */
export function useVitestSnapshots(snapshots: VitestSnapshots | undefined): void {
  vitestSnapshots = snapshots;
}

export interface RunnerContext extends McpMatcherContext {
  /** Vitest: the chai assertion its snapshot helpers read the test from. */
  assertion?: unknown;
  /** Jest: the file's snapshot store and the running test's name. */
  snapshotState?: { match(options: { testName: string; received: unknown; isInline: boolean }): { pass: boolean; expected?: string } };
  currentTestName?: string;
}

/**
 * The driver and the snapshot code, loaded when the matcher first runs: the other matchers need
 * neither, and a test file that never snapshots a server does not pay for them.
 */
async function snapshotParts() {
  const [{ mcpAttach }, { formatSurfaceDiff }, { snapshotServer }, { diffSurfaces }, { isSurfaceFile, readSurface }, { surfaceText }] = await Promise.all([
    import("../driver/connect.js"),
    import("../snapshot/diff-report.js"),
    import("../snapshot/snapshot-server.js"),
    import("../snapshot/surface-diff.js"),
    import("../snapshot/surface-format.js"),
    import("../snapshot/surface.js"),
  ]);
  return { mcpAttach, formatSurfaceDiff, snapshotServer, diffSurfaces, isSurfaceFile, readSurface, surfaceText };
}

type SnapshotParts = Awaited<ReturnType<typeof snapshotParts>>;

export const snapshotMatchers = {
  async toMatchServerSnapshot(this: RunnerContext, received: unknown, hint?: string): Promise<McpMatcherResult> {
    if (this.isNot === true) return misuse(this, "toMatchServerSnapshot cannot be negated: .not would pass for any change at all. Use expect(server).toMatchServerSnapshot().");
    const parts = await snapshotParts();
    const surface = await surfaceOf(received, parts);
    if (typeof surface === "string") return misuse(this, surface);
    const text = parts.surfaceText(surface);
    const answer = await store(this, text, hint);
    if (answer.pass) return { pass: true, message: () => "the server's surface matches its snapshot" };
    if (answer.expected === undefined) {
      return {
        pass: false,
        message: () => "no snapshot of the server's surface is stored for this test, and the runner does not write new ones in this run (CI); run the tests with -u to write it",
      };
    }
    const stored = storedSurface(answer.expected, parts);
    if (stored === undefined) {
      return { pass: false, message: () => "the snapshot stored for this test is not a server surface (was it written by another matcher?); run the tests with -u to rewrite it" };
    }
    const diff = parts.diffSurfaces(stored, surface);
    const report = parts.formatSurfaceDiff(diff, "text", { before: "snapshot", after: "server" }).trimEnd();
    return {
      pass: false,
      // The classed diff is the report: a line diff of two JSON files beside it would bury it.
      message: () => `the server's surface differs from its snapshot (run with -u to accept it):\n\n${report}`,
    };
  },
};

/** The surface of a driver, a mock (read through an in-memory driver) or a surface object; or why the value has none. */
async function surfaceOf(received: unknown, { mcpAttach, snapshotServer, isSurfaceFile, readSurface }: SnapshotParts): Promise<ServerSurface | string> {
  if (isDriver(received)) return await snapshotServer(received as SnapshotDriver);
  if (isSurfaceFile(received)) return readSurface(received);
  const mock = asMock(received) as { connectInMemory?: () => Promise<never> } | undefined;
  if (typeof mock?.connectInMemory === "function") {
    const driver = mcpAttach(mock.connectInMemory());
    try {
      return await snapshotServer(driver);
    } finally {
      await driver.close();
    }
  }
  return `toMatchServerSnapshot takes a driver (mcpShell, mcpConnect, mcpAttach), a mock from mockMcp(), or a surface from snapshotServer(); received ${describeReceived(received)}`;
}

async function store(context: RunnerContext, text: string, hint: string | undefined): Promise<StoreAnswer> {
  if (context.assertion !== undefined) {
    if (vitestSnapshots === undefined) {
      throw new Error(
        '[mcp-testkit] toMatchServerSnapshot needs Vitest 4.1 or later with `import "mcp-testkit/vitest"` (it keeps the surface through Vitest\'s Snapshots API). On an older Vitest: expect(surfaceText(await snapshotServer(driver))).toMatchSnapshot().',
      );
    }
    return await vitestSnapshots.toMatchSnapshot.call(context, text, hint);
  }
  if (context.snapshotState === undefined || context.currentTestName === undefined) {
    throw new Error("[mcp-testkit] toMatchServerSnapshot runs inside a test of Vitest (4.1+) or Jest, which keep the snapshot file; here there is no snapshot store.");
  }
  const testName = hint === undefined ? context.currentTestName : `${context.currentTestName}: ${hint}`;
  return context.snapshotState.match({ testName, received: text, isInline: false });
}

/**
 * The stored surface back from the runner's serialized form: a string is stored as `"<text>"`
 * (both runners print strings unescaped, in double quotes).
 */
function storedSurface(expected: unknown, { readSurface }: SnapshotParts): ServerSurface | undefined {
  if (typeof expected !== "string") return undefined;
  const trimmed = expected.trim();
  const text = trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  try {
    return readSurface(JSON.parse(text));
  } catch {
    return undefined;
  }
}
