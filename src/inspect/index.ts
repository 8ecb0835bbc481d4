/** The traffic recorder: wrap any transport, see every message with its method and latency. */
export { recordTraffic, RecordingTransport, type RecordedTraffic } from "./recording-transport.js";
/** The recorder itself (to record a transport you drive yourself), and how many records it keeps by default. */
export { TrafficRecorder, DEFAULT_MAX_RECORDS } from "./recorder.js";
/** What `send` throws under `strict: "throw"`. */
export { InvalidMessageError } from "./strict.js";
/** The records and problems a recorder keeps, and its options. */
export type {
  ErrorRecord,
  MessageProblem,
  MessageRecord,
  TrafficDirection,
  TrafficProblem,
  TrafficRecord,
  TrafficRecorderOptions,
  TrafficSide,
  WireDirection,
} from "./types.js";
