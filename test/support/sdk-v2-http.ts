/**
 * The SDK v2 test server (test/driver/servers/sdk-v2-server.mjs) over HTTP: `createMcpHandler`
 * on its factory, served on 127.0.0.1. `useSdkV2Http()` registers the clean-up (every server
 * and handler closed after each test) and returns the function that starts one.
 */
import { afterEach } from "vitest";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveWebHandler } from "./web-handler-server.js";
// @ts-expect-error a plain .mjs fixture, no types
import { factory } from "../driver/servers/sdk-v2-server.mjs";

export type SdkV2HandlerOptions = Parameters<typeof createMcpHandler>[1];
export interface SdkV2Http {
  readonly url: string;
  /** The SDK's handler, for its `notify` side. */
  readonly handler: ReturnType<typeof createMcpHandler>;
}

export function useSdkV2Http(): (options?: SdkV2HandlerOptions) => Promise<SdkV2Http> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async (options = {}) => {
    const handler = createMcpHandler(factory, options);
    const server = await serveWebHandler(handler.fetch);
    cleanups.push(async () => {
      await server.close();
      await handler.close();
    });
    return { url: server.url, handler };
  };
}
