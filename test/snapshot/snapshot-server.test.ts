/**
 * `snapshotServer(driver)` and `diffSurfaces(a, b)` on real servers: three releases of an issue
 * tracker built with the official SDK (1.0.0; 1.1.0 with compatible changes only; 2.0.0 with one
 * of each kind of breaking change), server-everything and server-filesystem from npm, the SDK v2
 * server in 2026-07-28, and a mock that pages its lists.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { diffSurfaces, mcpAttach, mcpConnect, mcpShell, mockMcp, pathText, snapshotServer, surfaceText, type ServerSurface, type SurfaceDiff } from "../../src/index.js";
import { everythingCommand, filesystemBin, useDrivers } from "../driver/support.js";
import { useSdkV2Http } from "../support/sdk-v2-http.js";

const track = useDrivers();
const startV2 = useSdkV2Http();
const issueServer = (release: string) => `"${process.execPath}" "${fileURLToPath(new URL("./servers/issue-server.mjs", import.meta.url))}" ${release}`;

async function snapshotOf(command: string): Promise<ServerSurface> {
  const driver = track(mcpShell(command, { requestTimeout: 15_000 }));
  try {
    return await snapshotServer(driver);
  } finally {
    await driver.close();
  }
}

/** Each change as "class where". */
const listed = (diff: SurfaceDiff) => diff.changes.map((change) => `${change.class} ${pathText(change.path)}`);

describe("three releases of a server built with the official SDK", () => {
  it("1.0.0 → 1.1.0 has compatible and informational changes only", async () => {
    const diff = diffSurfaces(await snapshotOf(issueServer("1.0.0")), await snapshotOf(issueServer("1.1.0")));
    expect(diff.counts.breaking, listed(diff).join("\n")).toBe(0);
    expect(listed(diff)).toEqual([
      "compatible prompts.triage.arguments.lang",
      "compatible resources.issues://stats",
      "compatible tools.close_issue",
      "compatible tools.search_issues.inputSchema.properties.labels",
      "compatible tools.search_issues.inputSchema.properties.limit.maximum",
      "compatible tools.search_issues.inputSchema.properties.state.enum",
      "compatible tools.search_issues.outputSchema.properties.nextCursor",
      "informational serverInfo.version",
      "informational tools.search_issues.inputSchema.properties.query.description",
    ]);
  }, 60_000);

  it("1.0.0 → 2.0.0 has each kind of breaking change, each classed breaking", async () => {
    const diff = diffSurfaces(await snapshotOf(issueServer("1.0.0")), await snapshotOf(issueServer("2.0.0")));
    const breaking = diff.changes.filter((change) => change.class === "breaking").map((change) => pathText(change.path));
    expect(breaking).toEqual([
      "capabilities.logging", // a capability lost
      "prompts.summarize", // a prompt removed
      "prompts.triage.arguments.team", // a new required prompt argument
      "resources.issues://recent", // a resource removed
      "tools.create_issue.inputSchema.properties.body", // input: a property gone under additionalProperties: false
      "tools.delete_issue", // a tool removed
      "tools.search_issues.inputSchema.properties.limit.maximum", // input: a bound tightens
      "tools.search_issues.inputSchema.properties.minScore.type", // input: a type narrows
      "tools.search_issues.inputSchema.properties.state.enum", // input: an enum narrows
      "tools.search_issues.inputSchema.required.limit", // input: a property becomes required
      "tools.search_issues.inputSchema.required.project", // input: a new required property
      "tools.search_issues.outputSchema.properties.issues.items.properties.id.type", // output: a type widens
      "tools.search_issues.outputSchema.properties.issues.items.properties.state.enum", // output: an enum widens
      "tools.search_issues.outputSchema.properties.issues.items.required.title", // output: a property becomes optional
      "tools.search_issues.outputSchema.properties.total", // output: a property removed
    ]);
    expect(diff.changes.find((change) => pathText(change.path) === "tools.search_issues.outputSchema.properties.total")?.message).toBe(
      'tool "search_issues" output: property "total" removed, and properties not listed are refused (promises less: consumers that read it lose it)',
    );
  }, 60_000);

  it("the reverse, 2.0.0 → 1.0.0, loosens what 2.0.0 tightened: only the removed prompt argument breaks", async () => {
    const diff = diffSurfaces(await snapshotOf(issueServer("2.0.0")), await snapshotOf(issueServer("1.0.0")));
    expect(listed(diff).filter((line) => line.startsWith("breaking"))).toEqual(["breaking prompts.triage.arguments.team"]);
    expect(listed(diff)).toContain("compatible tools.search_issues.inputSchema.properties.minScore.type");
    expect(listed(diff)).toContain("compatible tools.search_issues.inputSchema.required.limit");
    expect(listed(diff)).toContain("compatible tools.search_issues.outputSchema.properties.issues.items.properties.id.type");
    expect(listed(diff)).toContain("compatible tools.delete_issue");
  }, 60_000);
});

describe("server-everything and server-filesystem from npm", () => {
  const folder = mkdtempSync(join(tmpdir(), "mcp-testkit-snapshot-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("snapshots server-everything the same twice, byte for byte, with capabilities, instructions, annotations and execution", async () => {
    const first = await snapshotOf(everythingCommand);
    const second = await snapshotOf(everythingCommand);
    expect(surfaceText(second)).toBe(surfaceText(first));
    expect(diffSurfaces(first, second).changes).toEqual([]);
    expect(first.capabilities).toMatchObject({ tools: {}, resources: { subscribe: true }, prompts: {} });
    expect(first.instructions).toMatch(/Everything Server/);
    expect(first.tools.map((tool) => tool.name)).toContain("echo");
    expect(first.tools.some((tool) => typeof tool.annotations === "object")).toBe(true);
    expect(first.tools.some((tool) => typeof tool.execution === "object")).toBe(true);
    // Sorted by their key, so the file diffs well.
    expect(first.tools.map((tool) => tool.name)).toEqual(first.tools.map((tool) => tool.name as string).sort());
    expect(first.resourceTemplates.length).toBeGreaterThan(0);
  }, 90_000);

  it("diffs server-filesystem against server-everything: every everything tool removed is breaking, every filesystem tool added compatible", async () => {
    const everything = await snapshotOf(everythingCommand);
    const filesystem = await snapshotOf(`"${filesystemBin}" "${folder}"`);
    expect(filesystem.tools.map((tool) => tool.name)).toContain("read_text_file");
    const diff = diffSurfaces(everything, filesystem);
    for (const tool of everything.tools) expect(listed(diff)).toContain(`breaking tools.${tool.name}`);
    for (const tool of filesystem.tools) expect(listed(diff)).toContain(`compatible tools.${tool.name}`);
    expect(listed(diff)).toContain("breaking capabilities.resources");
    // `ignore` leaves paths out, and counts what it left.
    const ignored = diffSurfaces(everything, filesystem, { ignore: ["tools", "capabilities.*", "serverInfo", "instructions"] });
    expect(ignored.changes.every((change) => change.path[0] === "resources" || change.path[0] === "resourceTemplates" || change.path[0] === "prompts")).toBe(true);
    expect(ignored.ignored).toBeGreaterThan(20);
  }, 90_000);
});

describe("either era, every page", () => {
  it("reads the SDK v2 server in 2026-07-28", async () => {
    const { url } = await startV2();
    const driver = track(mcpConnect(url, { protocolVersion: "2026-07-28" }));
    const modern = await snapshotServer(driver);
    expect(modern.protocolVersion).toBe("2026-07-28");
    expect(modern.tools.length).toBeGreaterThan(0);
    await driver.close();
  });

  it("follows every page of a mock that lists 5 at a time, in both eras, to the same surface", async () => {
    const tools = Object.fromEntries(Array.from({ length: 23 }, (_, index) => [`tool_${String(index).padStart(2, "0")}`, { returns: "ok" }]));
    await using mock = await mockMcp({ transport: "memory", pageSize: 5, tools, prompts: { p: { messages: [] } } });
    const modern = await snapshotServer(track(mcpAttach(mock.connectInMemory())));
    const legacy = await snapshotServer(track(mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" })));
    expect(modern.tools).toHaveLength(23);
    expect([modern.protocolVersion, legacy.protocolVersion]).toEqual(["2026-07-28", "2025-11-25"]);
    const diff = diffSurfaces(legacy, modern);
    // The same tools and prompts; what differs is the revision, and tasks moving from the core capability (2025-11-25) to the extension (2026-07-28).
    expect(listed(diff)).toEqual(["breaking capabilities.tasks", 'compatible capabilities.extensions["io.modelcontextprotocol/tasks"]', "informational protocolVersion"]);
  });
});
