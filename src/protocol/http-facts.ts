/**
 * The HTTP facts a message listener sees for a message that travelled over HTTP: the request
 * that carried it (or whose answer carried it), the response status where it is known, and the
 * headers with every credential replaced by "[redacted]", so a tap can be logged, written to a
 * file or shown in a timeline without leaking a token.
 */

export interface HttpFacts {
  /** The HTTP method of the request that carried the message, or whose response did. */
  readonly method?: string;
  /** The request's path (no query). */
  readonly path?: string;
  /** The response's status, where the message came in or went out on a response. */
  readonly status?: number;
  /**
   * Headers, names in lower case, credentials redacted: the request's for a message a client
   * sent, the response's for a message that came back on a response (as the driver sees it).
   */
  readonly headers: Readonly<Record<string, string>>;
}

export const REDACTED = "[redacted]";

/** Headers that carry credentials by their name alone. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);
/** Any other header whose name says it carries one (`x-auth-token`, `x-client-secret`, `api-key`). */
const CREDENTIAL_WORDS = /token|secret|key/i;

/** Whether a header's value is a credential, judged by its name. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) || CREDENTIAL_WORDS.test(name);
}

type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A plain copy of `headers` (lower-case names, repeated values joined with ", ") with every credential replaced by "[redacted]". */
export function redactedHeaders(headers: HeaderSource): Record<string, string> {
  const copy: Record<string, string> = {};
  const add = (name: string, value: string | readonly string[] | undefined) => {
    if (value === undefined) return;
    const key = name.toLowerCase();
    copy[key] = isCredentialHeader(key) ? REDACTED : typeof value === "string" ? value : value.join(", ");
  };
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value));
  else for (const [name, value] of Object.entries(headers)) add(name, value);
  return copy;
}
