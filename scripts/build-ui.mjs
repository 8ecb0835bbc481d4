/**
 * Bundles the timeline page (src/view/ui, Preact) into one minified script and one stylesheet,
 * which `mcp-testkit view` and a mock's live page inline into their HTML, so the page loads
 * nothing from a network. `npm run build` runs it after tsc and writes dist/view/timeline-ui.js
 * and .css; run from the sources, src/view/ui-assets.ts calls `buildTimelineUi()` itself.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ui = new URL("../src/view/ui/", import.meta.url);

/** The page's script and stylesheet, as text. */
export async function buildTimelineUi() {
  const common = { bundle: true, minify: true, write: false, legalComments: "none", logLevel: "silent" };
  const [script, style] = await Promise.all([
    build({
      ...common,
      entryPoints: [fileURLToPath(new URL("main.tsx", ui))],
      format: "iife",
      target: "es2022",
      jsx: "automatic",
      jsxImportSource: "preact",
      define: { "process.env.NODE_ENV": '"production"' },
    }),
    build({ ...common, entryPoints: [fileURLToPath(new URL("timeline.css", ui))] }),
  ]);
  return { js: script.outputFiles[0].text, css: style.outputFiles[0].text };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL("../dist/view/", import.meta.url);
  const { js, css } = await buildTimelineUi();
  await mkdir(out, { recursive: true });
  await writeFile(new URL("timeline-ui.js", out), js);
  await writeFile(new URL("timeline-ui.css", out), css);
}
