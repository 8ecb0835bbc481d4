/**
 * Cursor pagination for every list method. Cursors are opaque to clients (base64url of an
 * offset with a marker), so a client that builds its own cursor gets -32602, as the spec asks.
 */
import { ErrorCode } from "../protocol/errors.js";
import { RpcError } from "./outcome.js";

const PREFIX = "mcp-testkit:";

function encodeCursor(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`).toString("base64url");
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== "string") throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor: expected a string, got ${JSON.stringify(cursor)}`);
  const text = Buffer.from(cursor, "base64url").toString();
  const offset = Number(text.slice(PREFIX.length));
  if (!text.startsWith(PREFIX) || !Number.isInteger(offset) || offset < 0) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server gave out`);
  }
  return offset;
}

export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < items.length ? { page, nextCursor: encodeCursor(next) } : { page };
}
