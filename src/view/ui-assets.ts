/**
 * The timeline page's script and stylesheet. A build ships them in dist/view/ (timeline-ui.js
 * and .css, written by scripts/build-ui.mjs); run from the sources
 * (the repository's own tests), they are bundled on first use with the same script.
 */
import { readFile } from "node:fs/promises";
import { McpTestkitError } from "../errors.js";

export interface UiAssets {
  readonly js: string;
  readonly css: string;
}

let loading: Promise<UiAssets> | undefined;

export function timelineUiAssets(): Promise<UiAssets> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<UiAssets> {
  // The built package bundles this module into dist/ (an entry) or dist/chunks/ (shared code); the assets stay in dist/view/.
  for (const folder of ["./", "../view/", "./view/"]) {
    try {
      const [js, css] = await Promise.all([readFile(new URL(`${folder}timeline-ui.js`, import.meta.url), "utf8"), readFile(new URL(`${folder}timeline-ui.css`, import.meta.url), "utf8")]);
      return { js, css };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  const builder = new URL("../../scripts/build-ui.mjs", import.meta.url);
  try {
    const { buildTimelineUi } = (await import(builder.href)) as { buildTimelineUi: () => Promise<UiAssets> };
    return await buildTimelineUi();
  } catch (error) {
    throw new McpTestkitError(
      `the timeline page's script is missing (timeline-ui.js beside ${new URL(import.meta.url).pathname}) and cannot be built here: run "npm run build" in the mcp-testkit checkout.`,
      { cause: error },
    );
  }
}
