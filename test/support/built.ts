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
 * Throws unless each source under `src/<folder>` (all of src/ by default) has its `.js` in
 * `dist/<folder>`, written after the source was last changed.
 */
export function assertBuilt(folder = ""): void {
  const sources = join(root, "src", folder);
  for (const source of sourcesIn(sources)) {
    const name = relative(join(root, "src"), source);
    // The timeline page's sources are bundled into one script, not compiled file by file.
    const built = name.startsWith(PAGE_SOURCES) ? PAGE_BUNDLE : name.replace(/\.ts$/, ".js");
    const output = join(root, "dist", built);
    if (!existsSync(output) || statSync(output).mtimeMs < statSync(source).mtimeMs) {
      throw new Error(`dist/${built} is missing or older than src/${name}: run \`npm run build\` first (npm test does).`);
    }
  }
}
