/**
 * The README's TypeScript examples are real code: each ```ts block is type-checked as a user's
 * project would check it (`tsc --strict`, imports of "mcp-testkit" resolved to the sources), then
 * written to a module and run here. A block marked ```ts no-test is type-checked but not run
 * (it needs an agent of yours); a block that uses vitest's describe/it runs under a tiny stand-in
 * that calls its hooks and tests in order.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "node_modules", ".cache", "readme-blocks");
const readme = readFileSync(join(root, "README.md"), "utf8");
const tsBlocks = [...readme.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)]
  .filter((match) => /^ts( no-test)?$/.test(match[1]!.trim()))
  .map((match) => ({ code: match[2]!, runs: match[1]!.trim() === "ts" }));
const blocks = tsBlocks.filter((block) => block.runs).map((block, index) => ({ index, code: block.code }));

const modulePaths: Record<string, string> = {
  "mcp-testkit": join(root, "src/index.ts"),
  "mcp-testkit/testing": join(root, "src/testing/index.ts"),
  "mcp-testkit/protocol": join(root, "src/protocol/index.ts"),
  "mcp-testkit/inspect": join(root, "src/inspect/index.ts"),
  "mcp-testkit/vitest": join(root, "src/matchers/vitest.ts"),
  vitest: join(root, "test/support/readme-runner.ts"),
};

function rewriteImports(code: string): string {
  return code.replace(/(from |import )"([^"]+)"/g, (whole, keyword: string, specifier: string) =>
    modulePaths[specifier] ? `${keyword}${JSON.stringify(pathToFileURL(modulePaths[specifier]!).href)}` : whole,
  );
}

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** How many tests a block declares: its `it("…", …)` and `test("…", …)` calls. */
function declaredTests(code: string): number {
  return [...code.matchAll(/(?<![\w.])(?:it|test)\(\s*["'`]/g)].length;
}

/** Things a no-test block uses that a reader supplies (their agent). */
const READER_SUPPLIED = "declare function runMyAgent(url: string): Promise<void>;\n";

describe("README examples", () => {
  it("has examples to run", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
  });

  it("type-checks every TypeScript example under tsc --strict", async () => {
    const checkDir = join(outDir, "typecheck");
    mkdirSync(checkDir, { recursive: true });
    tsBlocks.forEach((block, i) => writeFileSync(join(checkDir, `block-${i + 1}.ts`), (block.runs ? "" : READER_SUPPLIED) + block.code));
    // The repository's settings (strict, NodeNext, lib esnext.disposable for `await using`, and
    // paths that resolve "mcp-testkit" to the sources), applied to the blocks alone.
    writeFileSync(join(checkDir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), compilerOptions: { noEmit: true, strict: true }, include: ["block-*.ts"] }));
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", join(checkDir, "tsconfig.json")], { cwd: checkDir, timeout: 120_000 }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  }, 150_000);

  for (const block of blocks) {
    const firstLine = block.code.split("\n").find((line) => line.trim() && !line.startsWith("import")) ?? "";
    it(`block ${block.index + 1}: ${firstLine.trim().slice(0, 60)}`, async () => {
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, `block-${block.index + 1}.ts`);
      writeFileSync(file, rewriteImports(block.code));
      const runner = await import("./support/readme-runner.js");
      runner.reset();
      const { value: ran } = await runner.withConsoleCaptured(async () => {
        await import(pathToFileURL(file).href);
        return await runner.runCollected();
      });
      // A block that declares tests must have them run: one each.
      expect(ran, "tests the block registered and ran").toBe(declaredTests(block.code));
    });
  }
});
