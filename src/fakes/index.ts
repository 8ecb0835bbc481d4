/**
 * Scenario fakes: the `mcpFakes` fixture format, its loading, the
 * per-request identity, argument matching, fake errors, the journal and the control API.
 *
 * Integration contract (for the engine's tools/call step source and the HTTP wire):
 *
 *  - The HTTP wire calls `readIdentity({ headers, query, session })` per request, with
 *    Node's `req.headersDistinct` (so a repeated header is caught) or a web `Headers`, the
 *    URL's `searchParams`, and the identity stored on the session. On `{ kind: "http-error" }`
 *    it answers `status` with `body` as JSON and stops. On `initialize` it stores
 *    `bindIdentity(session, result.sent)` on the session; later requests pass it as `session`.
 *  - A call's `step` is checked at load by the one description of a step (src/formats/step.ts),
 *    the same the engine checks its scripts with.
 *  - The tools/call step source calls `fakes.answer({ tool, arguments, identity, mount,
 *    sessionId, requestId })`, with the arguments as received (`{}` when absent), the resolved
 *    identity `{ testId, context, undeclared }` (each null when not supplied), the mount path
 *    of the MCP endpoint and the session id. It gets back one of:
 *      `{ kind: "answer", entryId, result }`   → reply with `result` (a CallToolResult);
 *      `{ kind: "step", entryId, step, journaled }` → run `step` (a mock step as JSON) and, when
 *                                               the call ends, `journal.complete(journaled, reply)`;
 *      `{ kind: "error", code, jsonRpcError }` → reply with the JSON-RPC error (HTTP 200); never
 *                                               fall through to the script;
 *      `{ kind: "pass" }`                       → ask the next source (the tool's script, then
 *                                               the unknown-tool policy).
 *    `answer()` never throws; it journals, logs (`MCP-FAKE: …`) and counts on its own.
 *  - tools/list merges `fakes.listTools({ mount, identity })` under the registered tools (a
 *    registered definition wins; fakes never remove a tool); resources/list and prompts/list
 *    merge `listResources` and `listPrompts` the same way.
 *  - resources/read and prompts/get ask `fakes.readResource({ uri, … })` and
 *    `fakes.getPrompt({ name, arguments, … })` before the catalog: `{ kind: "answer", answer }`
 *    is the entry's `{ result }` or `{ error }` (a JSON-RPC error), the other kinds as above.
 *  - The router sends paths where `isControlPath(pathname)` to `fakes.handleControl(request)`.
 *  - `fakes.reset()` on the mock's reset; the journal is `fakes.journal` (`record()` takes the
 *    engine's entries for calls no fake handled).
 *
 * Nothing here imports the engine, the wires or the mock.
 */
export { createFakes, Fakes, DEFAULT_FAKE_TEST_IDS_MAX, DEFAULT_JOURNAL_MAX } from "./fakes.js";
export type { FakeAnswer, FakePromptGet, FakeRequestAnswer, FakeRequestBase, FakeResourceRead, FakeToolCall, FakesLogger, FakesLogLevel, FakesOptions, ListQuery, LoadResult } from "./fakes.js";
export { readIdentity, bindIdentity } from "./identity.js";
export type { HeaderInput, IdentityErrorCode, IdentityInput, IdentityResult, ResolvedIdentity } from "./identity.js";
export { MCP_FAKE_ERROR_CODES, MCP_FAKE_INTERNAL_ERROR } from "./fake-errors.js";
export type { DeclaredEntry, FakeJsonRpcError, McpFakeErrorCode } from "./fake-errors.js";
export { FixtureLoadError, McpFakesAddError } from "./load-errors.js";
export type { FakeLoadProblem, FakeLoadRule, FakeLoadWarning } from "./load-errors.js";
export { CONTROL_PREFIX, CONTROL_PREFIX_ALIAS, controlMethodsAt, isControlPath } from "./control-api.js";
export { FakesJournal } from "./journal.js";
export type { JournalEntry, JournalQuery, McpFakeOutcome, NewJournalEntry } from "./journal.js";
export type { BlockSnapshot, EntrySnapshot, FakePromptDefinition, FakeResourceDefinition, FakesListing, FakeToolDefinition, InspectQuery } from "./inspect.js";
export { DEFAULT_MOUNT } from "./types.js";
export type {
  FakeCallResult,
  FakeIdentity,
  FakeRpcAnswer,
  FakeScope,
  McpFakeBlock,
  McpFakeCall,
  McpFakePrompt,
  McpFakeResource,
  McpFakeResult,
  McpFakeRpcError,
  McpFakeStep,
  McpFakeTool,
} from "./types.js";
export { FAKE_STEP_KEYS } from "./fake-steps.js";
