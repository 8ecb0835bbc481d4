/**
 * RFC 3986 `scheme ":"` at the start: what makes a URI absolute. MCP allows any scheme ("file:",
 * "https:", custom ones). One pattern for the validator's URI fields and the mock's own checks
 * of the resources it is given.
 */
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether `text` starts with a URI scheme and its colon. */
export function hasUriScheme(text: string): boolean {
  return URI_SCHEME.test(text);
}
