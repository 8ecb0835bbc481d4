/**
 * Reading a JSON-RPC message from text, the one way every wire does: JSON.parse, and a bound on
 * how deeply it nests. `JSON.parse` takes nesting that `JSON.stringify` (and every recursive walk
 * over the value: matching, the journal, a recording) cannot take back: 10 KB of `[[[[…]]]]`
 * would break the journal and the record file for good. No MCP message nests that deep. And an
 * id the parse rounded (an integer beyond 2^53) is refused: its answer could never be matched.
 */
import { ErrorCode } from "./errors.js";
import { inexactIdIn } from "./exact-ids.js";
import type { JsonRpcErrorObject } from "./jsonrpc.js";

/** The deepest nesting of arrays and objects a message may have. */
export const MAX_MESSAGE_DEPTH = 512;

/** Why a text is not a message, as data: `detail` is the JSON parser's own words. */
export type UnreadableText = { readonly reason: "notJson"; readonly detail: string } | { readonly reason: "tooDeep" } | { readonly reason: "inexactId"; readonly id: string };

type TextRead = { value: unknown } | { error: JsonRpcErrorObject; unreadable: UnreadableText };

/**
 * The message `text` holds, or why it cannot be read with the JSON-RPC error that refuses it
 * (-32700 not JSON, -32600 too deep or an id the parse would round).
 */
export function parseMessageText(text: string): TextRead {
  const read = parseJsonText(text);
  if (!("value" in read)) return read;
  const id = inexactIdIn(text, read.value);
  if (id === undefined) return read;
  const rounded = JSON.stringify(Number(id));
  return {
    error: {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: the id ${id} is an integer beyond 2^53 that cannot be echoed exactly (read as a JSON number it becomes ${rounded}, which the client never sent); use a smaller number or a string id`,
    },
    unreadable: { reason: "inexactId", id },
  };
}

/** The JSON value `text` holds, bounded in depth as a message is, with no check of what it holds. */
export function parseJsonText(text: string): TextRead {
  // Nesting deeper than the bound needs twice as many brackets: a shorter text cannot, so it is not scanned.
  if (text.length > 2 * MAX_MESSAGE_DEPTH && nestsDeeperThan(text, MAX_MESSAGE_DEPTH)) {
    return {
      error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the message nests arrays and objects more than ${MAX_MESSAGE_DEPTH} levels deep; no MCP message does, so it is refused` },
      unreadable: { reason: "tooDeep" },
    };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const detail = (error as Error).message;
    return { error: { code: ErrorCode.ParseError, message: `Parse error: ${detail}` }, unreadable: { reason: "notJson", detail } };
  }
}

/** Whether `text` opens more than `limit` arrays or objects inside each other (brackets in strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c /* \ */) i++;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) depth--;
  }
  return false;
}
