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
  /** MCP (2026-07-28): HTTP headers missing, malformed or not matching the body (HTTP 400). */
  HeaderMismatch: -32020,
  /** MCP (2026-07-28): the request needs a client capability its `_meta` did not declare (HTTP 400). */
  MissingRequiredClientCapability: -32021,
  /** MCP (2026-07-28): the request's protocol version is not served here; `data.supported` lists those that are (HTTP 400). */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The name of a JSON-RPC or MCP error code (a key of `ErrorCode`, e.g. `"InvalidParams"`). */
export type ErrorCodeName = keyof typeof ErrorCode;

const namesByCode = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The name of a known error code (`-32601` → `"MethodNotFound"`), or undefined. */
export function errorCodeName(code: number): string | undefined {
  return namesByCode.get(code);
}
