/**
 * Transports that carry each message as JSON text (stdio: one line per message) share that text
 * with the recorder. A record needs its own copy of a message, so that later mutation cannot
 * change it, and what crossed the wire is the text's value: the message itself when it is plain
 * JSON data (always, for one parsed from the text), which copies several times faster than a
 * general deep copy (`structuredClone`); otherwise the text, parsed. Outgoing messages are
 * serialized once, for the record and the wire alike.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/** What such a transport passes to `onmessage` with a message: the JSON text it was parsed from. */
export interface JsonTextExtra extends MessageExtraInfo {
  jsonText?: string;
  /**
   * True when `jsonText` is a string of its own, not a window into a larger chunk of output
   * (V8 keeps a substring's parent alive): a record may then keep the text itself, to parse later.
   */
  ownsText?: boolean;
}

/** A transport that can be handed an outgoing message already serialized. */
export interface JsonTextTransport extends Transport {
  /**
   * Sends `text`, the `JSON.stringify` of a message, as `send` would send that message. Any
   * answer comes from I/O, never before this returns (so the recorder may record the message
   * just after it leaves).
   */
  sendJsonText(text: string): Promise<void>;
}

/**
 * What `sendJsonText` returns when the text has been written at once (the usual case): nothing
 * about that send can fail later, so a caller that sees it need not wait for it or catch it,
 * which spares a promise and a callback on every message.
 */
export const SENT: Promise<void> = Promise.resolve();

export function isJsonTextTransport(transport: Transport): transport is JsonTextTransport {
  return typeof (transport as Partial<JsonTextTransport>).sendJsonText === "function";
}

/** The message as JSON text; undefined when it has none (a BigInt, a cycle), so the caller falls back to the object. */
export function toJsonText(message: unknown): string | undefined {
  try {
    return JSON.stringify(message);
  } catch {
    return undefined;
  }
}

/**
 * A deep copy of `value` if it is plain JSON data, exactly what `JSON.parse` of its text would
 * give: plain objects, arrays, strings, finite numbers, booleans and null. Undefined when it holds
 * anything JSON would turn into something else (undefined, a Date, `toJSON`, NaN, -0, a hole, a
 * class instance): the caller then parses the text. Several times faster than `structuredClone`
 * or `JSON.parse`, for the common case.
 */
export function copyPlainJson(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? value : undefined;
    case "object":
      if (value === null) return null;
      return Array.isArray(value) ? copyPlainArray(value) : copyPlainObject(value);
    default:
      return undefined;
  }
}

function copyPlainArray(array: readonly unknown[]): unknown[] | undefined {
  if ("toJSON" in array) return undefined;
  const copy = new Array<unknown>(array.length);
  for (let index = 0; index < array.length; index++) {
    const item = copyPlainJson(array[index]);
    if (item === undefined) return undefined;
    copy[index] = item;
  }
  return copy;
}

function copyPlainObject(object: object): Record<string, unknown> | undefined {
  const prototype = Object.getPrototypeOf(object);
  if ((prototype !== Object.prototype && prototype !== null) || "toJSON" in object) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const item = copyPlainJson((object as Record<string, unknown>)[key]);
    if (item === undefined) return undefined;
    // JSON.parse makes "__proto__" an own key; assigning it would set the copy's prototype instead.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}
