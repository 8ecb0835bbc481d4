/**
 * The SDK v2 tasks server (test/driver/servers/sdk-v2-tasks-server.mjs) over HTTP on 127.0.0.1:
 * `useSdkV2TasksHttp()` registers the clean-up (every server and handler closed after each test)
 * and returns the function that starts one, with its task store to look into.
 */
import { afterEach } from "vitest";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveWebHandler } from "./web-handler-server.js";
// @ts-expect-error a plain .mjs fixture, no types
import { tasksFactory } from "../driver/servers/sdk-v2-tasks-server.mjs";

export interface SdkV2TasksHttp {
  readonly url: string;
  /** The server's tasks, by id (the fixture's own store). */
  readonly store: Map<string, Record<string, unknown>>;
}

export function useSdkV2TasksHttp(): (options?: { pollIntervalMs?: number }) => Promise<SdkV2TasksHttp> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async (options = {}) => {
    const store = new Map<string, Record<string, unknown>>();
    const handler = createMcpHandler(tasksFactory(store, options));
    const server = await serveWebHandler(handler.fetch);
    cleanups.push(async () => {
      await server.close();
      await handler.close();
    });
    return { url: server.url, store };
  };
}
