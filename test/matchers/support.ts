/**
 * Shared parts for the matcher tests: mocks and clients closed after each test, a driver-shaped
 * adapter over the official SDK client (the marker plus `getTools()` and friends, as a driver from
 * another copy of mcp-testkit would look), and a helper that catches an assertion's failure.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { MockMcpServer } from "../../src/index.js";
import { connect } from "../mock/support.js";

// The same cleanup and in-memory mocks as the mock tests.
export { mock, useCleanup } from "../mock/support.js";

export interface SdkDriver {
  readonly [key: symbol]: unknown;
  getTools(): Promise<Record<string, unknown>[]>;
  getResources(): Promise<Record<string, unknown>[]>;
  getResourceTemplates(): Promise<Record<string, unknown>[]>;
  getPrompts(): Promise<Record<string, unknown>[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<Record<string | symbol, unknown>>;
  readResource(uri: string): Promise<Record<string | symbol, unknown>>;
  client: Client;
}

/**
 * A stand-in for a driver: the SDK client connected to `server` in memory, behind the marker
 * symbols. Its results are marked as a driver's are, and `callTool` results know their tool.
 */
export async function sdkDriver(server: MockMcpServer): Promise<SdkDriver> {
  const client = await connect(server);
  return {
    [Symbol.for("mcp-testkit.driver")]: true,
    client,
    getTools: async () => (await client.listTools()).tools,
    getResources: async () => (await client.listResources()).resources,
    getResourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
    getPrompts: async () => (await client.listPrompts()).prompts,
    callTool: async (name, args = {}) => ({
      [Symbol.for("mcp-testkit.toolCallResult")]: true,
      toolName: name,
      ...(await client.callTool({ name, arguments: args })),
    }),
    readResource: async (uri) => ({ [Symbol.for("mcp-testkit.readResourceResult")]: true, ...(await client.readResource({ uri })) }),
  };
}

export interface Failure {
  message: string;
  actual?: unknown;
  expected?: unknown;
  /** Whether the error carried `actual` / `expected` properties at all. */
  hasDiff: boolean;
  name: string;
}

/** The error an assertion fails with; fails the test if the assertion passes. */
export async function failure(assertion: () => unknown): Promise<Failure> {
  try {
    await assertion();
  } catch (error) {
    const e = error as Error & { actual?: unknown; expected?: unknown };
    return { message: e.message, actual: e.actual, expected: e.expected, hasDiff: "actual" in e && "expected" in e && (e.actual !== undefined || e.expected !== undefined), name: e.name };
  }
  throw new Error("expected the assertion to fail, but it passed");
}
