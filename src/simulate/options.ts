/** The simulator's capture limits: how many SSE items may wait unread, how many bytes are kept. */
import { McpTestkitError } from "../errors.js";
import { timerMsProblem } from "../util/timer-ms.js";

/** SSE items that may wait unread before capture stops (`capture_item_limit`). */
export const DEFAULT_STREAM_ITEM_QUEUE_CAPACITY = 128;
/** Response and frame bytes captured in all, before capture stops (`capture_byte_limit`): 10 MiB. */
export const DEFAULT_MAXIMUM_CAPTURED_BYTES = 10 * 1024 * 1024;

export interface SimulationOptions {
  /** SSE items that may wait unread (default 128); reading one frees its slot. */
  streamItemQueueCapacity?: number;
  /** Bytes of response body and SSE frames captured in all (default 10 MiB); never refunded by reading. */
  maximumCapturedBytes?: number;
}

export function checkedOptions(options: SimulationOptions = {}): Required<SimulationOptions> {
  const capacity = options.streamItemQueueCapacity ?? DEFAULT_STREAM_ITEM_QUEUE_CAPACITY;
  const bytes = options.maximumCapturedBytes ?? DEFAULT_MAXIMUM_CAPTURED_BYTES;
  if (!Number.isInteger(capacity) || capacity < 1) throw new McpTestkitError(`"streamItemQueueCapacity" must be a whole number of items, 1 or more, got ${String(capacity)}.`);
  if (!Number.isInteger(bytes) || bytes < 0) throw new McpTestkitError(`"maximumCapturedBytes" must be a whole number of bytes, 0 or more, got ${String(bytes)}.`);
  return { streamItemQueueCapacity: capacity, maximumCapturedBytes: bytes };
}

/** A wait's timeout, checked: a number of ms a timer can hold. */
export function checkedWait(ms: number, what: string): number {
  const problem = timerMsProblem("ms", ms);
  if (problem !== undefined) throw new McpTestkitError(`${what}(ms): ${problem}.`);
  return ms;
}
