/**
 * `mcp-testkit/simulate`: drive a synthetic HTTP request through a mock, or through any
 * web-standard fetch handler (an MCP server built with the official SDK), with no socket.
 */

/** `simulate(target)` and the simulator it returns; what it can drive. */
export { simulate, Simulator, type SimulateOptions, type SimulationTarget, type FetchHandler } from "./simulate.js";
/** One simulated request: its response head, stream items and completion. */
export { Simulation, type SimulationResponse, type SimulationStreamItem, type SimulationCompletion, type SimulationTerminationReason, type SimulationBodyType } from "./simulation.js";
/** A request as plain parts (`{ method, url, headers, body }`), so a test need not build a `Request`. */
export type { SimulationRequestInit } from "./request-input.js";
/** The capture limits and their defaults (128 items, 10 MiB). */
export { DEFAULT_STREAM_ITEM_QUEUE_CAPACITY, DEFAULT_MAXIMUM_CAPTURED_BYTES, type SimulationOptions } from "./options.js";
