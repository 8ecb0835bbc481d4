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
 * Throws unless the bundle (`dist/index.js`, written with every entry in one build) is newer
 * than each source under `src/<folder>` (all of src/ by default).
 */
export function assertBuilt(folder = ""): void {
  const bundle = join(root, "dist", "index.js");
  const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  for (const source of sourcesIn(join(root, "src", folder))) {
    if (statSync(source).mtimeMs > builtAt) {
      const name = relative(join(root, "src"), source);
      throw new Error(`dist/ is missing or older than src/${name}: run \`npm run build\` first (npm test does).`);
    }
  }
}
