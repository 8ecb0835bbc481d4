/**
 * Ids a JSON number cannot carry exactly. `JSON.parse` reads every number as a double, so an
 * integer id beyond 2^53 (`9007199254740993`) comes back rounded (`9007199254740992`): the
 * answer would carry an id the client never sent, and it could never match it. Such an id is
 * found by a look at the parsed value (cheap: one comparison per message); only then is the
 * text scanned for the id's own digits.
 */

/** The id's text as sent, when a message (or a batch member) of `value` has an integer id that its parse rounded. */
export function inexactIdIn(text: string, value: unknown): string | undefined {
  const messages = Array.isArray(value) ? value : [value];
  if (!messages.some(hasUnsafeId)) return undefined;
  for (const literal of idLiterals(text, Array.isArray(value) ? 2 : 1)) {
    const read = Number(literal);
    // Echoed, the id is written as JSON writes the double: the same text as sent (the double's
    // shortest form), or the same number exactly, reaches the client as its own id.
    if (Math.abs(read) > Number.MAX_SAFE_INTEGER && JSON.stringify(read) !== literal && !equalsExactly(literal, read)) return literal;
  }
  // The id's member was not found as plain `"id"` (an escaped key): nothing shows it was rounded.
  return undefined;
}

function hasUnsafeId(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const id = (message as { id?: unknown }).id;
  return typeof id === "number" && Math.abs(id) > Number.MAX_SAFE_INTEGER;
}

/** The text of each number that is the value of an `"id"` member at `depth` (1: the message, 2: a batch's members). The text is valid JSON. */
function idLiterals(text: string, depth: number): string[] {
  const found: string[] = [];
  let level = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5b /* [ */ || code === 0x7b /* { */) level++;
    else if (code === 0x5d /* ] */ || code === 0x7d /* } */) level--;
    else if (code === 0x22 /* " */) {
      const start = i + 1;
      // Bounded by the text: each pass moves past one character (two for an escape).
      for (i = start; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
      if (level !== depth || text.slice(start, i) !== "id") continue;
      const value = /^\s*:\s*(-?[\d.eE+-]+)/.exec(text.slice(i + 1, i + 1 + 400));
      if (value !== null) found.push(value[1]!);
    }
  }
  return found;
}

/** Whether the number written `literal` is exactly `value` (decimal arithmetic on the digits, not doubles). */
function equalsExactly(literal: string, value: number): boolean {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (parts === null || !Number.isInteger(value)) return false;
  const [, sign, whole, fraction = "", exponent = "0"] = parts;
  let digits = whole! + fraction;
  const shift = Number(exponent) - fraction.length;
  // A double's integer has at most 309 digits: a larger shift cannot be it.
  if (Math.abs(shift) > 400) return false;
  if (shift < 0) {
    const dropped = digits.slice(shift);
    if (!/^0*$/.test(dropped)) return false;
    digits = digits.slice(0, shift) || "0";
  } else digits += "0".repeat(shift);
  const exact = BigInt(digits) * (sign === "-" ? -1n : 1n);
  return exact === BigInt(value);
}
