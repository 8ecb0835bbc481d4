/**
 * One kit instance: a fresh mock server and an SDK `Client` connected to it in memory and
 * initialized. The per-test kit opens one before each test and closes it after; `createTestKit`
 * opens one for a single test.
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../mock/mock-mcp.js";
import { currentTestName } from "./test-name.js";
import { MOCK_OPTION_KINDS } from "../mock/option-checks.js";
import { checkKeys } from "../engine/spec-checks.js";
import { typeLabel } from "../util/text.js";
import { traceDirOf } from "./failure-traces.js";

/** The kit's SDK client: its `clientInfo` and the SDK's own `Client` options (capabilities, ...). */
export interface KitClientOptions extends ClientOptions {
  /** Sent as `clientInfo` on `initialize` (default `{ name: "mcp-testkit-client", version: "1.0.0" }`). */
  info?: Implementation;
}

/** `mockMcp()`'s options (with `transport: "memory"` as the default here) plus the kit's client. */
export interface McpTestKitOptions extends MockMcpOptions {
  /**
   * The kit's client. Capabilities go here, e.g. `{ capabilities: { sampling: {} } }` so a tool
   * step can call `call.sample(...)` and the test answers with `kit.client.setRequestHandler(...)`.
   */
  client?: KitClientOptions;
  /**
   * The test id the kit's client sends, as an HTTP client sends `X-Test-Id`, so scenario fakes
   * scoped to it answer: a string, or `true` for the current test's full name (Vitest
   * `describe > test`, Jest `describe test`), read when the kit opens an instance.
   */
  testId?: true | string;
  /**
   * The folder where the trace of each failing test is written (`<test name>.trace.jsonl`) and
   * named in its failure message; default `MCP_TESTKIT_TRACE_DIR`. When a folder is set, the
   * kit's mock keeps a trace (`trace: true`) unless `trace` says otherwise. Vitest and Jest say
   * which tests failed; under node:test only `keepTraces: "all"` writes.
   */
  traceDir?: string;
  /** `"failed"` (default): traces of failing tests only; `"all"`: of every test. */
  keepTraces?: "failed" | "all";
}

/** The kit's server is "test-server", as tnsai's test kit names it, so tests written for that kit read the same name; a mock's own default is mcp-testkit's name. */
export const KIT_SERVER_INFO = { name: "test-server", version: "1.0.0" };
export const KIT_CLIENT_INFO = { name: "mcp-testkit-client", version: "1.0.0" };

export type KitTransport = Transport & { readonly mockSessionId: string };

export interface KitInstance {
  readonly server: MockMcpServer;
  readonly client: Client;
  readonly transport: KitTransport;
  close(): Promise<void>;
}

function kitTestId(option: unknown): string | undefined {
  if (option === undefined) return undefined;
  if (option === true) return currentTestName();
  if (typeof option === "string" && option !== "") return option;
  throw new McpTestkitError(`The kit's "testId" must be true (the current test's full name) or a non-empty string, got ${JSON.stringify(option) ?? typeof option}.`);
}

/** The kit's own options; the rest go to `mockMcp()`. */
const KIT_KEYS = ["client", "testId", "traceDir", "keepTraces"] as const;

/**
 * Throws for a key neither the kit nor `mockMcp()` reads (`testID`), naming the closest one, so
 * a typo in plain JavaScript fails where it was written (`api`: "mcpTestKit()", "createTestKit()").
 */
export function checkKitOptions(options: unknown, api: string): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new McpTestkitError(`${api} takes an options object such as { tools: { search: { returns: "found" } }, testId: true }, got ${typeLabel(options)}.`);
  }
  const known = [...KIT_KEYS, ...Object.keys(MOCK_OPTION_KINDS)];
  checkKeys(
    options,
    known,
    `${api} options`,
    `${api} takes "client", "testId", "traceDir" and "keepTraces", and mockMcp()'s options: ${Object.keys(MOCK_OPTION_KINDS)
      .map((key) => `"${key}"`)
      .join(", ")}`,
  );
  const { traceDir, keepTraces } = options as McpTestKitOptions;
  if (traceDir !== undefined && (typeof traceDir !== "string" || traceDir === "")) throw new McpTestkitError(`${api}: "traceDir" must be a folder name, got ${typeLabel(traceDir)}.`);
  if (keepTraces !== undefined && keepTraces !== "failed" && keepTraces !== "all") {
    throw new McpTestkitError(`${api}: "keepTraces" must be "failed" (the default: traces of failing tests) or "all", got ${typeLabel(keepTraces)}.`);
  }
}

export async function openKitInstance(options: McpTestKitOptions = {}): Promise<KitInstance> {
  const { client: clientOptions = {}, testId: testIdOption, traceDir, keepTraces: _keep, ...mockOptions } = options;
  // A folder for failing tests' traces needs a trace to write.
  if (mockOptions.trace === undefined && traceDirOf(traceDir) !== undefined) mockOptions.trace = true;
  // Read before the server starts, so a bad option starts nothing.
  const testId = kitTestId(testIdOption);
  const { info = KIT_CLIENT_INFO, ...sdkOptions } = clientOptions;
  // The kit's client connects in memory, so the mock listens on nothing else unless asked to.
  const server = await mockMcp({ ...mockOptions, transport: mockOptions.transport ?? "memory", serverInfo: mockOptions.serverInfo ?? KIT_SERVER_INFO });
  const client = new Client(info, sdkOptions);
  let connection: KitTransport;
  try {
    connection = await server.connectInMemory(testId === undefined ? undefined : { testId });
    await client.connect(connection);
  } catch (error) {
    await client.close().catch(() => undefined);
    await server.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    server,
    client,
    transport: connection,
    close: () =>
      (closed ??= (async () => {
        // The server closes even if the client's close throws.
        try {
          await client.close();
        } finally {
          await server.close();
        }
      })()),
  };
}
