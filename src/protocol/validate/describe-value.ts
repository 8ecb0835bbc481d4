/** Short, readable descriptions of values for the "got …" part of problem messages. */

const maxStringLength = 40;

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const quoted = JSON.stringify(value);
    // Long strings (base64 payloads, documents) would drown the message.
    return quoted.length <= maxStringLength ? quoted : `${quoted.slice(0, maxStringLength - 2)}…" (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Literal options, JSON-quoted: `"2.0"` for one, `one of "text", "image"` for several. */
export function describeOptions(options: readonly unknown[]): string {
  const shown = options.map((option) => JSON.stringify(option));
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(", ")}`;
}
