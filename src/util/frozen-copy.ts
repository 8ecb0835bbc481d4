/**
 * A copy of JSON data, frozen all the way down: made once (at load), then handed out as it is,
 * call after call, where a copy per use would cost more than everything else the use does. A
 * value JSON cannot carry (a BigInt, a cycle) throws: callers check their input first, so the
 * user is told which entry it was.
 */
export function frozenJsonCopy<T>(value: T): T {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as T);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
