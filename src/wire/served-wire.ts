/**
 * A wire a mock is served on besides memory: it starts with the engine and stops with the mock;
 * `url` is where clients reach it, if it has an address.
 */
export interface ServedWire {
  readonly url?: string;
  close(): Promise<void>;
}
