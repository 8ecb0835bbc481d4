/**
 * What a client and the mock agreed on at `initialize`: the protocol version, who the client is,
 * what it can do, its log level and its resource subscriptions. It belongs to a legacy-era
 * session; a request reads the version it speaks from its `RequestContext`, never from here.
 */
import type { LoggingLevel } from "../protocol/methods.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";

export class NegotiatedState {
  /** The version `initialize` agreed (the latest known until then). */
  protocolVersion: string = LATEST_PROTOCOL_VERSION;
  /** Set once the client sent `initialize`. */
  initializeReceived = false;
  /** Set once the client sent `notifications/initialized`. */
  initialized = false;
  clientInfo?: Record<string, unknown>;
  clientCapabilities: Record<string, unknown> = {};
  logLevel?: LoggingLevel;
  readonly subscriptions = new Set<string>();
}
