/**
 * RFC 9110 `token` (one or more `tchar`): the grammar of an HTTP method and of a header name.
 * Written once for the driver (`x-mcp-header` names), the simulator (request methods) and the
 * CLI (`--header` names), so all three accept the same characters.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `text` is an HTTP token: letters, digits and !#$%&'*+-.^_`|~, at least one. */
export function isHttpToken(text: string): boolean {
  return TOKEN.test(text);
}
