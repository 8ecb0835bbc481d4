/**
 * `await expect(server).toMatchServerSnapshot()` under Vitest and Jest, each run as a child
 * process on a small project of its own (the built `dist/`): the first run writes the surface
 * into the runner's snapshot file; a release that tightens an input bound fails with the classed
 * diff; `-u` accepts it; and a CI run with no stored snapshot says how to write one.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../support/built.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Inside the repository, so the project's imports of vitest resolve from its node_modules.
const project = mkdtempSync(join(root, "test", "matchers", ".server-snapshot-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));
beforeAll(() => assertBuilt());

const dist = (path: string) => JSON.stringify(join(root, "dist", path));

/** A test of a mock whose `search` tool takes a `limit` of at most $MAX. */
function testFile(runnerImports: string): string {
  return `${runnerImports}
import { mockMcp } from ${dist("index.js")};

it("the server's surface", async () => {
  const server = await mockMcp({
    transport: "memory",
    serverInfo: { name: "search-server", version: "1.0.0" },
    tools: { search: { inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer", maximum: Number(process.env.MAX ?? 100) } } }, responses: { returns: "found" } } },
  });
  try {
    await expect(server).toMatchServerSnapshot();
  } finally {
    await server.close();
  }
});
`;
}

interface Run {
  code: number;
  output: string;
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout: 90_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "", ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: `${stdout}\n${stderr}` });
    });
  });
}

function snapshotFileIn(folder: string): string {
  const snapshots = join(folder, "__snapshots__");
  const [name] = readdirSync(snapshots);
  return readFileSync(join(snapshots, name!), "utf8");
}

describe("under Vitest", () => {
  const folder = join(project, "vitest");
  const vitest = (extra: string[], env: Record<string, string>) =>
    run([join(root, "node_modules/vitest/vitest.mjs"), "run", "--root", folder, "--config", join(folder, "vitest.config.mjs"), ...extra], env);

  it("writes the surface on the first run, fails a tightened bound with the classed diff, and -u accepts it", async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "vitest.config.mjs"), "export default { test: { include: ['*.test.mjs'] } };\n");
    writeFileSync(join(folder, "surface.test.mjs"), testFile(`import { expect, it } from "vitest";\nimport ${dist("matchers/vitest.js")};`));

    const first = await vitest([], { MAX: "100" });
    expect(first.code, first.output).toBe(0);
    const stored = snapshotFileIn(folder);
    expect(stored).toContain("exports[`the server's surface 1`]");
    expect(stored).toContain('"name": "search-server"');

    const tightened = await vitest([], { MAX: "50" });
    expect(tightened.code).toBe(1);
    expect(tightened.output).toContain("the server's surface differs from its snapshot (run with -u to accept it):");
    expect(tightened.output).toContain("snapshot → server: 1 breaking");
    expect(tightened.output).toContain('~ tool "search" input: maximum 100 → 50 (tightened) (accepts less: calls that worked may be refused)');
    expect(tightened.output).toContain("at tools.search.inputSchema.properties.limit.maximum");

    const accepted = await vitest(["-u"], { MAX: "50" });
    expect(accepted.code, accepted.output).toBe(0);
    expect(snapshotFileIn(folder)).toContain('"maximum": 50');
    expect((await vitest([], { MAX: "50" })).code).toBe(0);

    // In CI nothing is written: a test with no stored snapshot fails and says how to write it.
    rmSync(join(folder, "__snapshots__"), { recursive: true, force: true });
    const ci = await vitest([], { MAX: "50", CI: "true" });
    expect(ci.code).toBe(1);
    expect(ci.output).toContain("no snapshot of the server's surface is stored for this test");
  }, 300_000);
});

describe("under Jest", () => {
  const folder = join(project, "jest");
  const jest = (extra: string[], env: Record<string, string>) =>
    run(
      ["--experimental-vm-modules", join(root, "node_modules/jest/bin/jest.js"), "--rootDir", folder, "--config", "{}", "--no-watchman", "--cacheDirectory", join(project, "jest-cache"), ...extra],
      env,
    );

  it("writes the surface on the first run, fails a tightened bound with the classed diff, and -u accepts it", async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "surface.test.mjs"), testFile(`import { expect, it } from "@jest/globals";\nimport ${dist("matchers/jest.js")};`));

    const first = await jest([], { MAX: "100" });
    expect(first.code, first.output).toBe(0);
    expect(snapshotFileIn(folder)).toContain('"name": "search-server"');

    const tightened = await jest(["--ci"], { MAX: "50" });
    expect(tightened.code).toBe(1);
    expect(tightened.output).toContain("the server's surface differs from its snapshot (run with -u to accept it):");
    expect(tightened.output).toContain('~ tool "search" input: maximum 100 → 50 (tightened) (accepts less: calls that worked may be refused)');

    const accepted = await jest(["-u"], { MAX: "50" });
    expect(accepted.code, accepted.output).toBe(0);
    expect(snapshotFileIn(folder)).toContain('"maximum": 50');

    rmSync(join(folder, "__snapshots__"), { recursive: true, force: true });
    const ci = await jest(["--ci"], { MAX: "50" });
    expect(ci.code).toBe(1);
    expect(ci.output).toContain("no snapshot of the server's surface is stored for this test");
  }, 300_000);
});
