/**
 * DNS-rebinding protection: a page on a foreign site must not reach a mock on loopback through
 * the browser. A request whose `Host` (or the authority of an absolute-form target, which
 * replaces it) is not an allowed host, or whose `Origin` (when present) is not an allowed
 * origin, gets 403. The router runs it in front of every route on the mock's port. On by
 * default when the mock listens on loopback.
 */

const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface OriginGuardOptions {
  /**
   * Check `Host` and `Origin` on every route of the mock's port (403 for a foreign one): the MCP
   * endpoint(s), the control API, metrics and mounted handlers (a mount may opt out with
   * `allowForeignHosts`). Default: on, unless `host` is an address that is not loopback.
   */
  dnsRebindingProtection?: boolean;
  /** Extra allowed `Host` values (`host` or `host:port`); loopback names are always allowed. */
  allowedHosts?: readonly string[];
  /** Extra allowed `Origin` values (`http://app.test:3000`); loopback origins are always allowed. */
  allowedOrigins?: readonly string[];
}

/** Why a request was refused, as data: which header, its value, and what was wrong with it. */
export interface GuardRefusal {
  readonly header: "Host" | "Origin";
  readonly value: string;
  /** `foreign`: not allowed; `invalid`: not an origin at all; `opaque`: `Origin: null`, which no list can allow. */
  readonly reason: "foreign" | "invalid" | "opaque";
}

/** `host[:port]`: a name or an IPv4 address, or an IPv6 literal in brackets; no user info, path or query. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~]+)(?::(\d{1,5}))?$/;

/**
 * Whether `authority` (a `Host` header, or an absolute-form target's authority) is well formed.
 * One that is not is a bad request whatever the guard says (RFC 9110 §7.2): it would otherwise
 * reach a route as a URL nobody can build, or as a host the guard reads differently than a URL does.
 */
export function isWellFormedAuthority(authority: string): boolean {
  const match = AUTHORITY.exec(authority);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  const colon = hostHeader.lastIndexOf(":");
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

export class OriginGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;
  /** The last `Host` that passed: a client sends the same one on every request, so it is checked once. */
  private lastAllowedHost?: string;

  constructor(options: OriginGuardOptions = {}) {
    this.hosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
    this.origins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));
  }

  /** Why the request is refused, or undefined when it may pass. `host`: the request's authority. */
  check(host: string | undefined, origin: string | undefined): GuardRefusal | undefined {
    if (host !== undefined && host !== this.lastAllowedHost) {
      const lower = host.toLowerCase();
      if (!LOOPBACK_HOSTNAMES.has(hostnameOf(lower)) && !this.hosts.has(lower) && !this.hosts.has(hostnameOf(lower))) {
        return { header: "Host", value: host, reason: "foreign" };
      }
      this.lastAllowedHost = host;
    }
    if (origin === undefined) return undefined;
    if (origin === "null") return { header: "Origin", value: origin, reason: "opaque" };
    const lower = origin.toLowerCase();
    if (this.origins.has(lower)) return undefined;
    let hostname: string;
    try {
      hostname = new URL(lower).hostname;
    } catch {
      return { header: "Origin", value: origin, reason: "invalid" };
    }
    return LOOPBACK_HOSTNAMES.has(hostname) ? undefined : { header: "Origin", value: origin, reason: "foreign" };
  }
}

/** The guard a mock's options ask for, or undefined when it is off. `host`: the address the mock listens on. */
export function originGuardFor(options: OriginGuardOptions & { host?: string }): OriginGuard | undefined {
  const on = options.dnsRebindingProtection ?? (options.host === undefined || isLoopbackHost(options.host));
  return on ? new OriginGuard(options) : undefined;
}

/**
 * What a refusal says to the one who sent the request: what was refused and how to allow it.
 * `fromTarget`: the host came from an absolute-form request target, not from the `Host` header.
 */
export function refusalMessage(refusal: GuardRefusal, fromTarget = false): string {
  const quoted = JSON.stringify(refusal.value);
  if (refusal.reason === "opaque") return `Forbidden: Origin "null" is not allowed (DNS rebinding protection); a page with an opaque origin (a sandbox, a file) cannot be allowed`;
  if (refusal.reason === "invalid") return `Forbidden: Origin ${quoted} is not a valid origin (DNS rebinding protection); an Origin is scheme://host[:port]`;
  if (refusal.header === "Origin") {
    return `Forbidden: Origin ${quoted} is not allowed (DNS rebinding protection); loopback origins are, and those in allowedOrigins: add it there to serve it`;
  }
  const what = fromTarget ? `the request target's authority ${quoted} (it stands for Host)` : `Host ${quoted}`;
  return `Forbidden: ${what} is not allowed (DNS rebinding protection); loopback names (localhost, 127.0.0.1, [::1]) are, and those in allowedHosts: add ${JSON.stringify(hostnameOf(refusal.value.toLowerCase()))} there to serve it`;
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTNAMES.has(host) || host.startsWith("127.");
}
