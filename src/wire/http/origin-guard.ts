/**
 * DNS-rebinding protection: a page on a foreign site must not reach a mock on loopback through
 * the browser. A request whose `Host` is not an allowed host, or whose `Origin` (when present)
 * is not an allowed origin, gets 403. On by default when the mock listens on loopback.
 */

const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface OriginGuardOptions {
  /** Extra allowed `Host` values (`host` or `host:port`); loopback names are always allowed. */
  allowedHosts?: readonly string[];
  /** Extra allowed `Origin` values (`http://app.test:3000`); loopback origins are always allowed. */
  allowedOrigins?: readonly string[];
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

  /** Why the request is refused, or undefined when it may pass. */
  check(host: string | undefined, origin: string | undefined): string | undefined {
    if (host !== undefined && host !== this.lastAllowedHost) {
      const lower = host.toLowerCase();
      if (!LOOPBACK_HOSTNAMES.has(hostnameOf(lower)) && !this.hosts.has(lower) && !this.hosts.has(hostnameOf(lower))) {
        return `Host ${JSON.stringify(host)} is not allowed (DNS rebinding protection)`;
      }
      this.lastAllowedHost = host;
    }
    if (origin !== undefined && origin !== "null") {
      const lower = origin.toLowerCase();
      if (this.origins.has(lower)) return undefined;
      let hostname: string;
      try {
        hostname = new URL(lower).hostname;
      } catch {
        return `Origin ${JSON.stringify(origin)} is not a valid origin`;
      }
      if (!LOOPBACK_HOSTNAMES.has(hostname)) return `Origin ${JSON.stringify(origin)} is not allowed (DNS rebinding protection)`;
    } else if (origin === "null") {
      return 'Origin "null" is not allowed (DNS rebinding protection)';
    }
    return undefined;
  }
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTNAMES.has(host) || host.startsWith("127.");
}
