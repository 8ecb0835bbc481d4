/**
 * The timeline as one HTML file: the page's script and stylesheet inline, the data as JSON in a
 * non-executed script element. Its Content-Security-Policy allows exactly that script and
 * style (by hash) and connections to its own origin (the live page's events), so the page
 * loads nothing from a network, whether opened from a file or served.
 */
import { createHash } from "node:crypto";
import type { TimelineData } from "./timeline-data.js";
import { timelineUiAssets } from "./ui-assets.js";

/** The page for `data`, as HTML text. */
export async function timelinePage(data: TimelineData): Promise<string> {
  const assets = await timelineUiAssets();
  // Text in a script element must not close it.
  const js = assets.js.replaceAll("</script", "<\\/script");
  const css = assets.css.replaceAll("</style", "<\\/style");
  const policy = ["default-src 'none'", `script-src '${hash(js)}'`, `style-src '${hash(css)}'`, "connect-src 'self'", "img-src data:", "base-uri 'none'", "form-action 'none'"].join("; ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>${escapeHtml(data.title)} · mcp-testkit timeline</title>
<style>${css}</style>
</head>
<body>
<div id="timeline"></div>
<script type="application/json" id="timeline-data">${scriptSafeJson(data)}</script>
<script>${js}</script>
</body>
</html>
`;
}

function hash(text: string): string {
  return `sha256-${createHash("sha256").update(text).digest("base64")}`;
}

/** JSON that cannot end its script element or open a comment inside it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
