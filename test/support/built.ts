/**
 * Tests that run the BUILT package (dist/, from `npm run build`) must not run a stale build: a
 * test run alone after an edit would otherwise test yesterday's code and pass.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/** Every `.ts` file under `dir`, at any depth. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => join(dir, name));
}

/**
 * Throws unless each source under `src/<folder>` (all of src/ by default) has its `.js` in
 * `dist/<folder>`, written after the source was last changed.
 */
export function assertBuilt(folder = ""): void {
  const sources = join(root, "src", folder);
  for (const source of sourcesIn(sources)) {
    const name = relative(join(root, "src"), source);
    const output = join(root, "dist", name.replace(/\.ts$/, ".js"));
    if (!existsSync(output) || statSync(output).mtimeMs < statSync(source).mtimeMs) {
      throw new Error(`dist/${name.replace(/\.ts$/, ".js")} is missing or older than src/${name}: run \`npm run build\` first (npm test does).`);
    }
  }
}
