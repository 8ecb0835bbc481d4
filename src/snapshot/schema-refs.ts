/**
 * `$ref` in a tool's schema, resolved inside the schema document itself: JSON pointers
 * (`#/$defs/Point`, `#/definitions/Point`), anchors (`#point`, `$dynamicAnchor`) and embedded
 * `$id`s. Nothing is fetched: a reference that does not resolve in the document stays a
 * reference, and two of them are compared by their text.
 */

type Json = Record<string, unknown>;

/** What a schema node is once its `$ref` is followed: the target with the node's own keywords over it, and the reference it came through. */
export interface Resolved {
  schema: unknown;
  /** The reference followed (for cycle detection), or undefined for a node with none. */
  ref: string | undefined;
}

/** How many references one node may chain through before it is left as it is (a → b → a). */
const MAX_CHAIN = 32;
/** How deep the index walk goes into a document. */
const MAX_INDEX_DEPTH = 64;

interface DocumentIndex {
  ids: Map<string, unknown>;
  anchors: Map<string, unknown>;
}

const indexes = new WeakMap<object, DocumentIndex>();

/** Follows `node`'s `$ref` (and `$dynamicRef`) within `document`; keywords beside the reference apply over its target. */
export function resolveNode(node: unknown, document: unknown): Resolved {
  let current = node;
  let ref: string | undefined;
  const siblings: Json[] = [];
  for (let hops = 0; hops < MAX_CHAIN; hops++) {
    if (!isObject(current)) break;
    const next = typeof current.$ref === "string" ? current.$ref : typeof current.$dynamicRef === "string" ? current.$dynamicRef : undefined;
    if (next === undefined) break;
    const target = resolveReference(next, document);
    if (target === undefined) break;
    const { $ref: _ref, $dynamicRef: _dynamic, ...own } = current;
    siblings.push(own);
    ref = next;
    current = target;
  }
  if (siblings.length === 0 || !isObject(current)) return { schema: current, ref };
  // The nearest node's own keywords win: they were written where the reference is used.
  let merged: Json = { ...current };
  for (let index = siblings.length - 1; index >= 0; index--) merged = { ...merged, ...siblings[index] };
  return { schema: merged, ref };
}

/** The subschema a reference names in `document`, or undefined when it names nothing there. */
export function resolveReference(ref: string, document: unknown): unknown {
  const hash = ref.indexOf("#");
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  let root: unknown = document;
  if (base !== "") {
    const rootId = isObject(document) && typeof document.$id === "string" ? document.$id : undefined;
    root = base === rootId ? document : indexOf(document).ids.get(base);
    if (root === undefined) return undefined;
  }
  if (fragment === "") return root;
  if (fragment.startsWith("/")) return walkPointer(root, fragment);
  return indexOf(document).anchors.get(decodeURIComponent(fragment));
}

function walkPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** The `$id`s and anchors of a document, found once per document. */
function indexOf(document: unknown): DocumentIndex {
  if (!isObject(document)) return { ids: new Map(), anchors: new Map() };
  let index = indexes.get(document);
  if (index !== undefined) return index;
  index = { ids: new Map(), anchors: new Map() };
  const visit = (node: unknown, depth: number) => {
    if (depth > MAX_INDEX_DEPTH || typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const json = node as Json;
    if (typeof json.$id === "string" && depth > 0) index!.ids.set(json.$id, json);
    if (typeof json.$anchor === "string") index!.anchors.set(json.$anchor, json);
    if (typeof json.$dynamicAnchor === "string" && !index!.anchors.has(json.$dynamicAnchor)) index!.anchors.set(json.$dynamicAnchor, json);
    // `enum`, `const`, `default` and `examples` hold values, not schemas: an `$id` inside one names nothing.
    for (const [key, value] of Object.entries(json)) if (!VALUE_KEYS.has(key)) visit(value, depth + 1);
  };
  visit(document, 0);
  indexes.set(document, index);
  return index;
}

const VALUE_KEYS = new Set(["enum", "const", "default", "examples"]);

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
