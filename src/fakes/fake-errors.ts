/**
 * The JSON-RPC errors of fake failures. A failure means the scenario is wrong, not that the
 * tool failed, so it is a protocol error the client raises, never a tool result the model could
 * read and recover from. Key test code on `error.data.mcpTestkit.code`.
 */
import { clipCounted, errorText, listFirst } from "../util/text.js";

/** Each fake failure code and its JSON-RPC code. MCP_FAKE_INTERNAL_ERROR (-32603) is not in the map. */
export const MCP_FAKE_ERROR_CODES = {
  MCP_FAKE_NOT_DECLARED: -32602,
  MCP_FAKE_MISMATCH: -32602,
  MCP_FAKE_EXHAUSTED: -31010,
  MCP_FAKE_EVICTED: -31011,
} as const;

export const MCP_FAKE_INTERNAL_ERROR = "MCP_FAKE_INTERNAL_ERROR";
const INTERNAL_ERROR_JSON_RPC_CODE = -32603;

export type McpFakeErrorCode = keyof typeof MCP_FAKE_ERROR_CODES | typeof MCP_FAKE_INTERNAL_ERROR;

/** The key under `error.data` that carries a fake failure's code and details (aimock puts them under `aimock`). */
export const DATA_KEY = "mcpTestkit";

/** Where every fake failure message starts. */
const PREFIX = "mcp-testkit MCP fake";

/** What a failure is about; its name goes in `data` under this key. */
export type FakeSubject = "tool" | "resource" | "prompt";

const VERB: Record<FakeSubject, string> = { tool: "called", resource: "read", prompt: "requested" };

export interface FailureContext {
  /** Default "tool". */
  subject?: FakeSubject;
  /** The tool's or prompt's name, the resource's URI. */
  name: string;
  testId: string | null;
  context: string | null;
  mount: string;
}

export interface DeclaredEntry {
  id: string;
  args?: Record<string, unknown>;
  argsMatch?: Record<string, unknown>;
  anyArgs?: true;
  consumed: boolean;
}

export interface FakeJsonRpcError {
  code: number;
  message: string;
  data: { [DATA_KEY]: { code: McpFakeErrorCode; testId: string | null; context: string | null; mount: string } & Record<string, unknown> };
}

/** JSON for messages, cut so a huge argument cannot make a huge message. */
const ECHO_LIMIT = 500;
function echo(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return clipCounted(text, ECHO_LIMIT);
}

/** `testId "x"`, `context "c"`, both, or that neither was sent. */
function whoText({ testId, context }: FailureContext): string {
  const parts = [testId !== null && `testId ${JSON.stringify(testId)}`, context !== null && `context ${JSON.stringify(context)}`].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no test id or context";
}

/** `tool "x"`, `resource "file:///a"`, `prompt "p"`. */
const what = (base: FailureContext): string => `${base.subject ?? "tool"} ${JSON.stringify(base.name)}`;
const verb = (base: FailureContext): string => VERB[base.subject ?? "tool"];

function build(code: McpFakeErrorCode, message: string, base: FailureContext, extra: Record<string, unknown>): FakeJsonRpcError {
  const jsonRpcCode = code === MCP_FAKE_INTERNAL_ERROR ? INTERNAL_ERROR_JSON_RPC_CODE : MCP_FAKE_ERROR_CODES[code];
  const { name, testId, context, mount } = base;
  return { code: jsonRpcCode, message, data: { [DATA_KEY]: { code, [base.subject ?? "tool"]: name, testId, context, mount, ...extra } } };
}

const DECLARED_IN_MESSAGE = 10;

function declaredText(declared: readonly DeclaredEntry[]): string {
  const format = (entry: DeclaredEntry) =>
    `${entry.id} ${entry.anyArgs ? "(any arguments)" : entry.argsMatch ? `(matching ${echo(entry.argsMatch)})` : echo(entry.args)}${entry.consumed ? " (used)" : ""}`;
  return listFirst(declared, DECLARED_IN_MESSAGE, ", ", { format, more: (count) => `and ${count} more` });
}

export function mismatchError(base: FailureContext, received: unknown, declared: DeclaredEntry[], firstDifference: string | null): FakeJsonRpcError {
  const message = `${PREFIX} mismatch: ${what(base)} was ${verb(base)} with arguments that match no declared fake (${whoText(base)}). Received ${echo(received)}. Declared: ${declaredText(declared)}.`;
  return build("MCP_FAKE_MISMATCH", message, base, { received, declared, firstDifference });
}

export function exhaustedError(base: FailureContext, received: unknown, matchingIds: string[]): FakeJsonRpcError {
  const n = matchingIds.length;
  const all = n === 1 ? "its 1 matching fake is" : `all ${n} matching fakes are`;
  // A resource read has no arguments to echo.
  const withArgs = base.subject === "resource" ? "" : ` with ${echo(received)}`;
  const message = `${PREFIX} exhausted: ${what(base)}${withArgs} was ${verb(base)} again, but ${all} already used (${whoText(base)}).`;
  return build("MCP_FAKE_EXHAUSTED", message, base, { ...(base.subject !== "resource" && { received }), matchingDeclared: n, matchingConsumed: n, matchingIds });
}

export function notDeclaredError(base: FailureContext, declaredTools: string[]): FakeJsonRpcError {
  const message = `Unknown tool: ${base.name} (${PREFIX} not declared: this scenario denies undeclared tools; ${whoText(base)}).`;
  return build("MCP_FAKE_NOT_DECLARED", message, base, { declaredTools });
}

export function evictedError(base: FailureContext, cap: number): FakeJsonRpcError {
  const message = `${PREFIX} evicted: ${what(base)} cannot be answered for testId ${JSON.stringify(base.testId)}: mount ${base.mount} keeps the state of at most ${cap} test ids and dropped this one, so its used entries are never served again. Reset this test id (POST /__mcp-testkit/reset with {"testId": ...}) or raise fakeTestIdsMax.`;
  return build("MCP_FAKE_EVICTED", message, base, { cap });
}

export function internalError(base: FailureContext, error: unknown): FakeJsonRpcError {
  const text = errorText(error);
  const message = `${PREFIX} internal error: ${what(base)} (${whoText(base)}): ${text}`;
  return build(MCP_FAKE_INTERNAL_ERROR, message, base, { error: text });
}
