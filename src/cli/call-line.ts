/** The one line `mcp-testkit mock` prints for each tool call as it ends. */
import type { ToolCall } from "../engine/call-log.js";
import { clip } from "../util/text.js";

const MAX_ARGUMENTS_CHARS = 160;

/**
 * `search_issues #1 {"query":"bug"} → protocol-error -32000 rate_limited (3 ms)`, or
 * `get_issue #2 {"id":1} → disconnected: the client closed the connection (stdin ended) (40 ms)`.
 */
export function describeCall(call: ToolCall): string {
  const duration = call.endedAt === undefined ? "" : ` (${call.endedAt - call.startedAt} ms)`;
  const detail = outcomeDetail(call);
  return `${call.tool} #${call.index} ${clipLine(JSON.stringify(call.arguments) ?? "{}")} → ${call.outcome}${detail}${duration}`;
}

/** What follows the outcome: the error, the tool error's text, or why the call ended unanswered. */
function outcomeDetail(call: ToolCall): string {
  switch (call.outcome) {
    case "protocol-error":
    case "unknown-tool": {
      const error = call.response?.error;
      return error ? ` ${error.code} ${clipLine(error.message)}` : "";
    }
    case "tool-error":
      return ` ${clipLine(JSON.stringify(firstText(call.response?.result) ?? ""))}`;
    case "cancelled":
    case "disconnected":
    case "raw":
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

/** Arguments and messages on a live line are cut to this many characters. */
export function clipLine(text: string): string {
  return clip(text, MAX_ARGUMENTS_CHARS);
}
