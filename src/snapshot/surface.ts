/**
 * A server's surface: what it says it is (server info, protocol version, capabilities,
 * instructions) and what it lists (tools, resources, resource templates, prompts). The snapshot
 * file is this, normalized: object keys sorted, lists sorted by their key, so two snapshots of one
 * server are the same bytes and a change shows as a small diff in a pull request.
 */

type Json = Record<string, unknown>;

/** The version of the snapshot file's shape; a later shape gets a new number. */
export const SURFACE_FORMAT = 1;

/** A server's surface, as `snapshotServer()` takes it and the snapshot file holds it. */
export interface ServerSurface {
  /** The file's shape (`SURFACE_FORMAT`). */
  mcpSurface: typeof SURFACE_FORMAT;
  /** The revision spoken while the surface was read. */
  protocolVersion?: string;
  /** The server's name and version; absent when the source does not say (a fixture file). */
  serverInfo?: Json;
  /**
   * What the server declared. Absent when the source does not say (a recording or a fixture
   * file): the diff then leaves capabilities out rather than call every one lost.
   */
  capabilities?: Json;
  instructions?: string;
  tools: Json[];
  resources: Json[];
  resourceTemplates: Json[];
  prompts: Json[];
}

/** The four lists, each with the key that names an item in it. */
export const SURFACE_LISTS = [
  { list: "tools", key: "name", noun: "tool" },
  { list: "resources", key: "uri", noun: "resource" },
  { list: "resourceTemplates", key: "uriTemplate", noun: "resource template" },
  { list: "prompts", key: "name", noun: "prompt" },
] as const;

export type SurfaceListName = (typeof SURFACE_LISTS)[number]["list"];

/** Keys whose array value is a set: sorted, so their order never shows as a change. */
const SET_KEYS = new Set(["required"]);

/** A copy with every object's keys sorted, `required` arrays sorted, and `undefined` members dropped (as JSON drops them). */
export function sortedJson(value: unknown, key?: string, setKeys: ReadonlySet<string> = SET_KEYS): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => sortedJson(item, undefined, setKeys));
    if (key === undefined || !setKeys.has(key)) return items;
    return items
      .map((item) => [JSON.stringify(item), item] as const)
      .sort(([a], [b]) => compareText(a, b))
      .map(([, item]) => item);
  }
  if (typeof value !== "object" || value === null) return value;
  const sorted: Json = {};
  for (const name of Object.keys(value).sort()) {
    const member = (value as Json)[name];
    if (member !== undefined) sorted[name] = sortedJson(member, name, setKeys);
  }
  return sorted;
}

/** The surface in its stable form: keys sorted, each list sorted by its key. */
export function normalizeSurface(surface: ServerSurface): ServerSurface {
  const normalized: ServerSurface = {
    mcpSurface: SURFACE_FORMAT,
    ...(surface.protocolVersion === undefined ? {} : { protocolVersion: surface.protocolVersion }),
    ...(surface.serverInfo === undefined ? {} : { serverInfo: sortedJson(surface.serverInfo) as Json }),
    ...(surface.capabilities === undefined ? {} : { capabilities: sortedJson(surface.capabilities) as Json }),
    ...(surface.instructions === undefined ? {} : { instructions: surface.instructions }),
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  for (const { list, key } of SURFACE_LISTS) {
    normalized[list] = (surface[list] ?? []).map((item) => sortedJson(item) as Json).sort((a, b) => compareText(String(a[key]), String(b[key])));
  }
  return normalized;
}

/** The snapshot file's text: the normalized surface, two-space indented, ending with a line break. */
export function surfaceText(surface: ServerSurface): string {
  return `${JSON.stringify(normalizeSurface(surface), null, 2)}\n`;
}

/** Code-point order, the same on every machine (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
