/** JSON-RPC 2.0 standard error codes and the codes MCP adds on top of them. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: the server has no resource at that URI (legacy era; -32602 from 2026-07-28). */
  ResourceNotFound: -32002,
  /** MCP (2025-11-25): a URL-mode elicitation must complete first. */
  UrlElicitationRequired: -32042,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

const namesByCode = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The name of a known error code (`-32601` → `"MethodNotFound"`), or undefined. */
export function errorCodeName(code: number): string | undefined {
  return namesByCode.get(code);
}
