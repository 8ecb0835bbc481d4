/**
 * MCP Apps (SEP-1865, the extension `io.modelcontextprotocol/ui`) as data: a tool names the
 * `ui://` resource that renders it in `_meta.ui.resourceUri`; the resource is HTML served as
 * `text/html;profile=mcp-app`, its `_meta.ui` saying what the sandbox must allow. The mock makes
 * these, and the validator checks them with `appProblems`.
 */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
export const APP_SCHEME = "ui://";
/** Who may call a tool that has a view: the model, the view ("app"), or both (the default). */
export const TOOL_VISIBILITIES = ["model", "app"] as const;
export const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
export const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite", "tools"] as const;

/** What a tool's `_meta.ui` holds. */
export interface AppToolMeta {
  resourceUri?: string;
  visibility?: Array<(typeof TOOL_VISIBILITIES)[number]>;
}

/** What a view resource's `_meta.ui` holds. */
export interface AppResourceMeta {
  csp?: Partial<Record<(typeof CSP_KEYS)[number], string[]>>;
  permissions?: Partial<Record<(typeof PERMISSION_KEYS)[number], Record<string, never>>>;
  domain?: string;
  prefersBorder?: boolean;
}

/** One thing wrong with an Apps shape: where (a path below the value checked) and what was expected. */
export interface AppProblem {
  path: (string | number)[];
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems in a tool's `_meta.ui` (empty when it is well formed). */
export function toolUiProblems(ui: unknown): AppProblem[] {
  if (!isObject(ui)) return [{ path: [], message: 'expected an object { resourceUri?: "ui://…", visibility?: ["model", "app"] }' }];
  const problems: AppProblem[] = [];
  if (ui.resourceUri !== undefined && (typeof ui.resourceUri !== "string" || !ui.resourceUri.startsWith(APP_SCHEME))) {
    problems.push({ path: ["resourceUri"], message: `expected a ${APP_SCHEME} URI naming the view resource, got ${JSON.stringify(ui.resourceUri)}` });
  }
  if (ui.visibility !== undefined) {
    const ok = Array.isArray(ui.visibility) && ui.visibility.every((item) => (TOOL_VISIBILITIES as readonly unknown[]).includes(item));
    if (!ok) problems.push({ path: ["visibility"], message: `expected a list of ${TOOL_VISIBILITIES.map((v) => `"${v}"`).join(" and ")}, got ${JSON.stringify(ui.visibility)}` });
  }
  for (const key of ["csp", "permissions"]) {
    if (ui[key] !== undefined) problems.push({ path: [key], message: `"${key}" belongs on the view resource's _meta.ui, not on the tool; hosts ignore it here` });
  }
  return problems;
}

/** Problems in a view resource's `_meta.ui` (empty when it is well formed). */
export function resourceUiProblems(ui: unknown): AppProblem[] {
  if (!isObject(ui)) return [{ path: [], message: "expected an object { csp?, permissions?, domain?, prefersBorder? }" }];
  const problems: AppProblem[] = [];
  if (ui.csp !== undefined) {
    if (!isObject(ui.csp)) problems.push({ path: ["csp"], message: `expected an object with ${CSP_KEYS.join(", ")} (each a list of origins)` });
    else
      for (const [key, value] of Object.entries(ui.csp)) {
        if (!(CSP_KEYS as readonly string[]).includes(key)) problems.push({ path: ["csp", key], message: `unknown CSP key; expected one of ${CSP_KEYS.join(", ")}` });
        else if (!Array.isArray(value) || !value.every((origin) => typeof origin === "string"))
          problems.push({ path: ["csp", key], message: 'expected a list of origins such as ["https://api.example.com"]' });
      }
  }
  if (ui.permissions !== undefined) {
    if (!isObject(ui.permissions)) problems.push({ path: ["permissions"], message: `expected an object with ${PERMISSION_KEYS.join(", ")} (each {})` });
    else
      for (const [key, value] of Object.entries(ui.permissions)) {
        if (!(PERMISSION_KEYS as readonly string[]).includes(key)) problems.push({ path: ["permissions", key], message: `unknown permission; expected one of ${PERMISSION_KEYS.join(", ")}` });
        else if (!isObject(value)) problems.push({ path: ["permissions", key], message: "expected {} (a permission is asked for by being there)" });
      }
  }
  if (ui.domain !== undefined && typeof ui.domain !== "string") problems.push({ path: ["domain"], message: "expected a string (the host's format for a dedicated origin)" });
  if (ui.prefersBorder !== undefined && typeof ui.prefersBorder !== "boolean") problems.push({ path: ["prefersBorder"], message: "expected true or false" });
  return problems;
}
