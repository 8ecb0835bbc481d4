/** The one line `mcp-testkit mock` prints for each tool call as it ends. */
import type { ToolCall } from "../engine/call-log.js";

const MAX_ARGUMENTS_CHARS = 160;

/**
 * `search_issues #1 {"query":"bug"} → protocol-error -32000 rate_limited (3 ms)`, or
 * `get_issue #2 {"id":1} → disconnected: the client closed the connection (stdin ended) (40 ms)`.
 */
export function describeCall(call: ToolCall): string {
  const duration = call.endedAt === undefined ? "" : ` (${call.endedAt - call.startedAt} ms)`;
  const detail = outcomeDetail(call);
  return `${call.tool} #${call.index} ${clip(JSON.stringify(call.arguments) ?? "{}")} → ${call.outcome}${detail}${duration}`;
}

/** What follows the outcome: the error, the tool error's text, or why the call ended unanswered. */
function outcomeDetail(call: ToolCall): string {
  switch (call.outcome) {
    case "protocol-error":
    case "unknown-tool": {
      const error = call.response?.error;
      return error ? ` ${error.code} ${clip(error.message)}` : "";
    }
    case "tool-error":
      return ` ${clip(JSON.stringify(firstText(call.response?.result) ?? ""))}`;
    case "cancelled":
    case "disconnected":
      return call.reason ? `: ${call.reason}` : "";
    default:
      return "";
  }
}

function firstText(result: unknown): string | undefined {
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((item): item is { text: string } => typeof (item as { text?: unknown })?.text === "string");
  return block?.text;
}

function clip(text: string): string {
  return text.length <= MAX_ARGUMENTS_CHARS ? text : `${text.slice(0, MAX_ARGUMENTS_CHARS - 1)}…`;
}
