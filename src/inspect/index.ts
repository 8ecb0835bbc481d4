/** The traffic recorder: wrap any transport, see every message with its method and latency. */
export { recordTraffic, RecordingTransport, type RecordedTraffic } from "./recording-transport.js";
export { TrafficRecorder, DEFAULT_MAX_RECORDS } from "./recorder.js";
export { InvalidMessageError, wireDirection } from "./strict.js";
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
