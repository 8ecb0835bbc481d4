export { StreamableHttpEndpoint, DEFAULT_MAX_BODY_BYTES, type StreamableHttpOptions } from "./streamable-http.js";
export { NodeExchange } from "./node-exchange.js";
export { FetchExchange } from "./fetch-exchange.js";
export { listen, type ListenOptions, type Listening } from "./listen.js";
export type { HttpExchange, StreamSink } from "./exchange.js";
