/**
 * Type tests for snapshots and the surface diff: what `snapshotServer` takes and gives, what
 * `diffSurfaces` takes (two surfaces and ignore paths) and the changes it gives, and the report
 * formats. Checked by Vitest's typecheck (tsc), never run.
 */
import { describe, expectTypeOf, it } from "vitest";
import { diffSurfaces, formatSurfaceDiff, mcpAttach, snapshotServer, type ChangeClass, type McpDriver, type ServerSurface, type SurfaceChange, type SurfaceDiff } from "../../src/index.js";

describe("snapshotServer", () => {
  it("takes a driver and gives a surface", async () => {
    const driver = {} as McpDriver;
    expectTypeOf(snapshotServer(driver)).toEqualTypeOf<Promise<ServerSurface>>();
    expectTypeOf(snapshotServer(mcpAttach({} as never))).toEqualTypeOf<Promise<ServerSurface>>();
    // @ts-expect-error a URL is no driver: connect first (mcpConnect)
    await snapshotServer("http://127.0.0.1:3000/mcp");
  });
});

describe("diffSurfaces", () => {
  it("takes two surfaces and ignore paths; gives classed changes and counts", () => {
    const surface = {} as ServerSurface;
    const diff = diffSurfaces(surface, surface, { ignore: ["serverInfo.version", "tools.*.description"] });
    expectTypeOf(diff).toEqualTypeOf<SurfaceDiff>();
    expectTypeOf(diff.changes).toEqualTypeOf<SurfaceChange[]>();
    expectTypeOf(diff.changes[0]!.class).toEqualTypeOf<ChangeClass>();
    expectTypeOf<ChangeClass>().toEqualTypeOf<"breaking" | "compatible" | "informational">();
    expectTypeOf(diff.counts.breaking).toEqualTypeOf<number>();
    // @ts-expect-error ignore takes a list of paths
    diffSurfaces(surface, surface, { ignore: "serverInfo" });
    // @ts-expect-error a surface has its lists
    diffSurfaces({ mcpSurface: 1 }, surface);
  });

  it("renders as text, JSON, Markdown or JUnit", () => {
    const diff = {} as SurfaceDiff;
    expectTypeOf(formatSurfaceDiff(diff, "markdown", { before: "main", after: "pr" })).toEqualTypeOf<string>();
    // @ts-expect-error no such format
    formatSurfaceDiff(diff, "html");
  });
});
