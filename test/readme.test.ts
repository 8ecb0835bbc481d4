/**
 * The README's and the guides' TypeScript examples are real code: each ```ts block of README.md
 * and docs/*.md is type-checked as a user's project would check it (`tsc --strict`, imports of
 * "mcp-testkit" resolved to the sources; one tsc run for every file), then written to a module
 * and run here, one describe per file. A block marked ```ts no-test is type-checked but not run
 * (it needs an agent of yours, or files of yours); a block that uses vitest's describe/it runs
 * under a tiny stand-in that calls its hooks and tests in order, and must register a test.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "node_modules", ".cache", "readme-blocks");

interface Block {
  code: string;
  runs: boolean;
  /** The module's name: the document and the block's place in it (`docs-mocking-3.ts`). */
  file: string;
}

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

function blocksOf(document: string): Block[] {
  const text = readFileSync(join(root, document), "utf8");
  const slug = document.replace(/\.md$/, "").replace(/\//g, "-").toLowerCase();
  return [...text.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)]
    .filter((match) => /^ts( no-test)?$/.test(match[1]!.trim()))
    .map((match, index) => ({ code: match[2]!, runs: match[1]!.trim() === "ts", file: `${slug}-${index + 1}.ts` }));
}

const blocksByDocument = new Map(documents.map((document) => [document, blocksOf(document)]));

const modulePaths: Record<string, string> = {
  "mcp-testkit": join(root, "src/index.ts"),
  "mcp-testkit/testing": join(root, "src/testing/index.ts"),
  "mcp-testkit/protocol": join(root, "src/protocol/index.ts"),
  "mcp-testkit/inspect": join(root, "src/inspect/index.ts"),
  "mcp-testkit/driver": join(root, "src/driver/index.ts"),
  "mcp-testkit/trace": join(root, "src/trace/index.ts"),
  "mcp-testkit/matchers": join(root, "src/matchers/matchers.ts"),
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

let typecheck: Promise<string> | undefined;

/** One tsc run over every document's blocks; its output (empty when all is well), shared by every describe. */
function typecheckAll(): Promise<string> {
  typecheck ??= (async () => {
    const checkDir = join(outDir, "typecheck");
    mkdirSync(checkDir, { recursive: true });
    for (const blocks of blocksByDocument.values()) {
      for (const block of blocks) writeFileSync(join(checkDir, block.file), (block.runs ? "" : READER_SUPPLIED) + block.code);
    }
    // The repository's settings (strict, NodeNext, lib esnext.disposable for `await using`, and
    // paths that resolve "mcp-testkit" to the sources), applied to the blocks alone.
    writeFileSync(join(checkDir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), compilerOptions: { noEmit: true, strict: true }, include: ["*.ts"] }));
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    return await promisify(execFile)(process.execPath, [tsc, "-p", join(checkDir, "tsconfig.json")], { cwd: checkDir, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
  })();
  return typecheck;
}

it("finds the README and a guide per capability", () => {
  expect(documents).toEqual(
    expect.arrayContaining([
      "README.md",
      "docs/mocking.md",
      "docs/faults.md",
      "docs/fakes.md",
      "docs/driver.md",
      "docs/eras.md",
      "docs/record-replay.md",
      "docs/observe.md",
      "docs/cli.md",
      "docs/http.md",
      "docs/recipes.md",
    ]),
  );
  expect(blocksByDocument.get("README.md")!.filter((block) => block.runs).length).toBeGreaterThanOrEqual(8);
});

it("a README block whose test starts a server with npx gives the test a time-out of its own: npx may download the server first", () => {
  const npxTests = blocksByDocument.get("README.md")!.filter((block) => block.runs && /\bnpx\b/.test(block.code) && declaredTests(block.code) > 0);
  expect(npxTests.some((block) => block.code.includes("server-everything"))).toBe(true);
  for (const block of npxTests) expect(block.code, block.file).toMatch(/\},\s*\d[\d_]*\s*\);/);
});

for (const [document, blocks] of [...blocksByDocument].filter(([, list]) => list.length > 0)) {
  describe(`${document} examples`, () => {
    it("type-check under tsc --strict", async () => {
      const output = await typecheckAll();
      // tsc names each problem's file first: this document's blocks only.
      const own = output.split("\n").filter((line) => blocks.some((block) => line.startsWith(block.file)));
      expect(own).toEqual([]);
      // A tsc failure that names no block (a bad config) fails every document.
      if (output !== "") expect(output.split("\n").filter((line) => /error TS/.test(line) && !/^[a-z0-9-]+-\d+\.ts\(/.test(line))).toEqual([]);
    }, 300_000);

    for (const block of blocks.filter((candidate) => candidate.runs)) {
      const firstLine = block.code.split("\n").find((line) => line.trim() && !line.startsWith("import")) ?? "";
      it(`${block.file}: ${firstLine.trim().slice(0, 60)}`, async () => {
        mkdirSync(outDir, { recursive: true });
        const file = join(outDir, block.file);
        writeFileSync(file, rewriteImports(block.code));
        const runner = await import("./support/readme-runner.js");
        runner.reset();
        const { value: ran } = await runner.withConsoleCaptured(async () => {
          await import(pathToFileURL(file).href);
          return await runner.runCollected();
        });
        // A block that declares tests must have them run: one each.
        expect(ran, "tests the block registered and ran").toBe(declaredTests(block.code));
        // Only a guard against a hang: the first block pays for loading the sources, and some spawn a
        // server; it leaves room above a block's own time-out (60 s for a server started by npx).
      }, 90_000);
    }
  });
}
