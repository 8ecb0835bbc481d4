/**
 * Mocks and SDK clients a test file opens, closed after each test (clients first, so a client's
 * close reaches a mock that is still there); a client that fails to close is not the test's point.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach } from "vitest";
import type { MockMcpServer } from "../../src/index.js";

export function closedAfterEach(): { servers: Set<MockMcpServer>; clients: Set<Client> } {
  const servers = new Set<MockMcpServer>();
  const clients = new Set<Client>();
  afterEach(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const server of servers) await server.close();
    clients.clear();
    servers.clear();
  });
  return { servers, clients };
}
