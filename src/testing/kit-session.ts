/**
 * One kit session: a fresh mock server and an SDK `Client` connected to it in memory and
 * initialized. The per-test kit opens one before each test and closes it after; `createTestKit`
 * opens one for a single test.
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../mock/mock-mcp.js";

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
}

/** The seed's kit names its server this way; a mock's own default is mcp-testkit's name. */
export const KIT_SERVER_INFO = { name: "test-server", version: "1.0.0" };
export const KIT_CLIENT_INFO = { name: "mcp-testkit-client", version: "1.0.0" };

export type KitTransport = Transport & { readonly mockSessionId: string };

export interface KitSession {
  readonly server: MockMcpServer;
  readonly client: Client;
  readonly transport: KitTransport;
  close(): Promise<void>;
}

export async function openKitSession(options: McpTestKitOptions = {}): Promise<KitSession> {
  const { client: clientOptions = {}, ...mockOptions } = options;
  const { info = KIT_CLIENT_INFO, ...sdkOptions } = clientOptions;
  // The kit's client connects in memory, so the mock listens on nothing else unless asked to.
  const server = await mockMcp({ ...mockOptions, transport: mockOptions.transport ?? "memory", serverInfo: mockOptions.serverInfo ?? KIT_SERVER_INFO });
  const client = new Client(info, sdkOptions);
  let connection: KitTransport;
  try {
    connection = await server.connectInMemory();
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
