#!/usr/bin/env node
/**
 * The build's second step: bundles each public entry (every `exports` path in package.json, and
 * the CLI) from the TypeScript sources into `dist/`, with the code they share in `dist/chunks/`.
 * `tsc` writes only the type declarations. A bundled entry loads as a handful of files instead of
 * some 240 modules, which is most of what `import("mcp-testkit")` used to cost; what loads at
 * first use (`import()` in the sources) stays in chunks of its own. Packages stay external.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** `./dist/driver/index.js` → `driver/index`, the entry's name in dist/ and its source in src/. */
function entryName(distPath) {
  return distPath.replace(/^\.\/dist\//, "").replace(/\.js$/, "");
}

const outputs = [...Object.values(manifest.exports).flatMap((target) => (typeof target === "object" ? [target.import] : [])), ...Object.values(manifest.bin)];
const entryPoints = Object.fromEntries(
  outputs
    .map((output) => (output.startsWith("./") ? output : `./${output}`))
    .filter((output) => output.startsWith("./dist/"))
    .map((output) => [entryName(output), join(root, "src", `${entryName(output)}.ts`)]),
);

await build({
  entryPoints,
  outdir: join(root, "dist"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
