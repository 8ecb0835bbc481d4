/**
 * MCP Apps views as a mock is given them (the `apps` option): each `ui://` URI becomes a resource
 * served as `text/html;profile=mcp-app`, its sandbox needs in `_meta.ui`. A tool is tied to its
 * view by `_meta: { ui: { resourceUri } }`; `checkToolViews` refuses a tool whose view the mock
 * does not serve, naming the closest one.
 */
import { McpTestkitError } from "../../errors.js";
import { APP_MIME_TYPE, APP_SCHEME, resourceUiProblems, toolUiProblems, type AppResourceMeta } from "../../protocol/apps.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { closest } from "../../util/closest.js";
import { typeLabel } from "../../util/text.js";
import type { ResourceDefinition, ToolEntry } from "../catalog.js";
import { checkKeys, checkValueKinds } from "../spec-checks.js";

export interface AppDefinition extends AppResourceMeta {
  /** The view's HTML. */
  html: string;
  name?: string;
  title?: string;
  description?: string;
  /** More of the resource's `_meta` (`ui` is made from `csp`, `permissions`, `domain` and `prefersBorder`). */
  _meta?: Record<string, unknown>;
}

/** A view: its HTML, or a definition. Keyed by its `ui://` URI. */
export type AppSpec = string | AppDefinition;

const KEYS = ["html", "name", "title", "description", "csp", "permissions", "domain", "prefersBorder", "_meta"];

export function normalizeApp(uri: string, spec: AppSpec): ResourceDefinition {
  const where = `App view "${uri}"`;
  if (typeof uri !== "string" || !uri.startsWith(APP_SCHEME) || uri.length === APP_SCHEME.length) {
    throw new McpTestkitError(`${where}: an app view's URI uses the ${APP_SCHEME} scheme ("ui://weather/view.html"); hosts render only ${APP_SCHEME} resources.`);
  }
  const definition: AppDefinition = typeof spec === "string" ? { html: spec } : spec;
  if (!isObject(definition)) throw new McpTestkitError(`${where} must be its HTML or a definition { html, csp?, permissions? }, got ${typeLabel(spec)}.`);
  checkKeys(definition, KEYS, where);
  checkValueKinds(definition as unknown as Record<string, unknown>, { html: "string", name: "string", title: "string", description: "string", _meta: "object" }, where);
  if (typeof definition.html !== "string") throw new McpTestkitError(`${where} has no "html"; give the view's HTML document.`);
  const ui: Record<string, unknown> = {};
  for (const key of ["csp", "permissions", "domain", "prefersBorder"] as const) if (definition[key] !== undefined) ui[key] = definition[key];
  const problem = resourceUiProblems(ui)[0];
  if (problem !== undefined) throw new McpTestkitError(`${where}: "${problem.path.join(".")}": ${problem.message}.`);
  const meta = Object.keys(ui).length > 0 ? { ...definition._meta, ui } : definition._meta;
  return {
    name: definition.name ?? uri.slice(APP_SCHEME.length),
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    mimeType: APP_MIME_TYPE,
    text: definition.html,
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/** Refuses a tool whose `_meta.ui` is malformed or names a view the mock does not serve. */
export function checkToolViews(tools: Iterable<ToolEntry>, views: readonly string[]): void {
  for (const tool of tools) {
    const ui = (tool.listing._meta as Record<string, unknown> | undefined)?.ui;
    if (ui === undefined) continue;
    const where = `Tool "${tool.name}": "_meta.ui`;
    const problem = toolUiProblems(ui)[0];
    if (problem !== undefined) throw new McpTestkitError(`${where}${problem.path.length > 0 ? `.${problem.path.join(".")}` : ""}": ${problem.message}.`);
    const uri = (ui as { resourceUri?: string }).resourceUri;
    if (uri === undefined || views.includes(uri)) continue;
    const near = closest(uri, views);
    const known = views.length === 0 ? 'the mock serves no view; add one with the "apps" option' : near === undefined ? `the mock serves ${views.join(", ")}` : `did you mean ${JSON.stringify(near)}?`;
    throw new McpTestkitError(`${where}.resourceUri" names ${JSON.stringify(uri)}, which the mock does not serve as an app view: ${known}.`);
  }
}
