/**
 * The four MCP lists, tabled once: the method that pages through each, the result field that
 * holds its items, the capability that promises it, the notification that says it changed, and
 * what makes two items the same item. The driver's cache and `check` both read this table.
 */
export type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";

export interface ListKindSpec {
  kind: ListKind;
  method: string;
  /** The result's array field. */
  key: string;
  /** The server capability that promises the method. */
  capability: "tools" | "resources" | "prompts";
  /** The notification after which the list must be fetched again. */
  listChanged: string;
  /** The `subscriptions/listen` filter flag that opts in to `listChanged` (2026-07-28). */
  listenFlag: "toolsListChanged" | "resourcesListChanged" | "promptsListChanged";
  /** The item field that makes two items the same item. */
  identityKey: "name" | "uri" | "uriTemplate";
  /** "tool", "resource", ... */
  noun: string;
}

export const LIST_KINDS: readonly ListKindSpec[] = [
  { kind: "tools", method: "tools/list", key: "tools", capability: "tools", listChanged: "notifications/tools/list_changed", listenFlag: "toolsListChanged", identityKey: "name", noun: "tool" },
  {
    kind: "resources",
    method: "resources/list",
    key: "resources",
    capability: "resources",
    listChanged: "notifications/resources/list_changed",
    listenFlag: "resourcesListChanged",
    identityKey: "uri",
    noun: "resource",
  },
  {
    kind: "resourceTemplates",
    method: "resources/templates/list",
    key: "resourceTemplates",
    capability: "resources",
    // Templates are resources too: the spec has no notification of their own.
    listChanged: "notifications/resources/list_changed",
    listenFlag: "resourcesListChanged",
    identityKey: "uriTemplate",
    noun: "resource template",
  },
  {
    kind: "prompts",
    method: "prompts/list",
    key: "prompts",
    capability: "prompts",
    listChanged: "notifications/prompts/list_changed",
    listenFlag: "promptsListChanged",
    identityKey: "name",
    noun: "prompt",
  },
];

export function listKind(kind: ListKind): ListKindSpec {
  return LIST_KINDS.find((spec) => spec.kind === kind)!;
}
