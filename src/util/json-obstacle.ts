/**
 * Why a value given in code cannot be sent as JSON, found by walking it: a BigInt, or a cycle, and
 * where. JSON.stringify says only that it failed, in words that differ between engines.
 */

/** Deeper than this the walk stops (JSON.stringify would fail on the stack anyway, and say so). */
const MAX_DEPTH = 1000;

/** What stops `value` from being JSON, with its path (`.a[0].b`), or undefined if nothing the walk can see does. */
export function jsonObstacle(value: unknown): string | undefined {
  const ancestors: object[] = [];
  const walk = (item: unknown, path: string): string | undefined => {
    if (typeof item === "bigint") return `a BigInt at ${path || "the top"}`;
    if (typeof item !== "object" || item === null) return undefined;
    if (ancestors.includes(item)) return `a cycle: ${path} refers back to an object that contains it`;
    if (ancestors.length >= MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels at ${path}`;
    // A value with toJSON (a Date) is sent as what that returns, which is not walked.
    if (typeof (item as { toJSON?: unknown }).toJSON === "function") return undefined;
    ancestors.push(item);
    try {
      if (Array.isArray(item)) {
        for (let index = 0; index < item.length; index++) {
          const found = walk(item[index], `${path}[${index}]`);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      for (const [key, child] of Object.entries(item)) {
        const found = walk(child, `${path}.${key}`);
        if (found !== undefined) return found;
      }
      return undefined;
    } finally {
      ancestors.pop();
    }
  };
  return walk(value, "");
}
