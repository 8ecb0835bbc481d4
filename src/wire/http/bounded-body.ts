/**
 * Reads a web request's body under a byte limit, counting what arrives rather than trusting
 * `Content-Length` (a `Request` built in code may declare less than it carries, or nothing), and
 * stops reading as soon as the limit is passed, so an oversized body is never held whole.
 */

/** What `readBounded` answers for a body past the limit. */
export const OVER_LIMIT = Symbol("over limit");

/** The body's bytes, or `OVER_LIMIT` once more than `limitBytes` arrived (the rest is not read). */
export async function readBounded(body: ReadableStream<Uint8Array> | null, limitBytes: number): Promise<Uint8Array | typeof OVER_LIMIT> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      return OVER_LIMIT;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
