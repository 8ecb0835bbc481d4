/**
 * Tests that run the BUILT package (dist/, from `npm run build`) must not run a stale build: a
 * test run alone after an edit would otherwise test yesterday's code and pass.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const PAGE_SOURCES = join("view", "ui");
const PAGE_BUNDLE = join("view", "timeline-ui.js");

/** Every `.ts` file under `dir`, at any depth. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => (name.endsWith(".ts") && !name.endsWith(".d.ts")) || name.startsWith(PAGE_SOURCES))
    .map((name) => join(dir, name));
}

/**
 * Throws unless the bundle (`dist/index.js`, written with every entry in one build) is newer
 * than each source under `src/<folder>` (all of src/ by default).
 */
export function assertBuilt(folder = ""): void {
  // Every entry and the page are written by one build: its oldest output stands for it.
  const outputs = [join(root, "dist", "index.js"), join(root, "dist", PAGE_BUNDLE)];
  const builtAt = Math.min(...outputs.map((output) => (existsSync(output) ? statSync(output).mtimeMs : 0)));
  for (const source of sourcesIn(join(root, "src", folder))) {
    if (statSync(source).mtimeMs > builtAt) {
      const name = relative(join(root, "src"), source);
      throw new Error(`dist/ is missing or older than src/${name}: run \`npm run build\` first (npm test does).`);
    }
  }
}
