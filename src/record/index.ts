/** Record a real server's answers through a mock the agent uses, and write them as fixtures or a scenario that replays them offline. */
export { recordMcp, type McpRecording, type RecordMcpOptions, type RecordMode, type RecordingFormat, type RecordingMockOptions } from "./record-mcp.js";
export type { FixtureOptions, RecordedAnswer, RecordedAsk, RecordedError, RecordedExchange } from "./recording.js";
export { verifyRecording, type VerifiableRecording, type VerifiedCall, type VerifyOptions, type VerifyReport } from "./verify.js";
export { DEFAULT_IGNORE as VERIFY_DEFAULT_IGNORE, type AnswerDifference } from "./answer-diff.js";
