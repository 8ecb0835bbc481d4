/**
 * The README's TypeScript examples are real code: each ```ts block is written to a module and
 * run here (imports of "mcp-testkit" point at the sources). A block marked ```ts no-test is
 * skipped; a block that uses vitest's describe/it runs under a tiny stand-in that calls its
 * hooks and tests in order.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "node_modules", ".cache", "readme-blocks");
const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)]
  .filter((match) => match[1]!.trim() === "ts")
  .map((match, index) => ({ index, code: match[2]! }));

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

describe("README examples", () => {
  it("has examples to run", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
  });

  for (const block of blocks) {
    const firstLine = block.code.split("\n").find((line) => line.trim() && !line.startsWith("import")) ?? "";
    it(`block ${block.index + 1}: ${firstLine.trim().slice(0, 60)}`, async () => {
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, `block-${block.index + 1}.ts`);
      writeFileSync(file, rewriteImports(block.code));
      const runner = await import("./support/readme-runner.js");
      runner.reset();
      await import(pathToFileURL(file).href);
      await runner.runCollected();
    });
  }
});
