/**
 * The one error type mcp-testkit throws for misuse (bad options, use after close), with one
 * message prefix, so a user can tell our complaints from their own code's exceptions.
 */
export const MESSAGE_PREFIX = "[mcp-testkit]";

export class McpTestkitError extends Error {
  override name = "McpTestkitError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(`${MESSAGE_PREFIX} ${message}`, options);
  }
}

/** A message without our prefix, for a command line that says who is speaking itself. */
export function withoutPrefix(message: string): string {
  return message.startsWith(`${MESSAGE_PREFIX} `) ? message.slice(MESSAGE_PREFIX.length + 1) : message;
}
