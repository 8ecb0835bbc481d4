/**
 * Lookups keyed by a name a client sent. `record[name]` would also find what every object
 * inherits (`constructor`, `toString`, `__proto__`...), so a client naming those reached
 * `Object.prototype` and got -32603 or a malformed result; only own entries count here.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}
