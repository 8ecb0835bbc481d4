/** The value at a path of keys (`valueAt(x, ["a", "b"])` is `x.a.b`), or undefined where a step is not an object. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== "object" || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}
