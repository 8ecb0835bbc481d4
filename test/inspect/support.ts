/** Real parts for the recorder tests: an SDK McpServer and Client over the SDK's in-memory pair. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { isRequest, type JsonRpcMessage } from "../../src/protocol/jsonrpc.js";
import type { TrafficRecord } from "../../src/inspect/index.js";

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An SDK server with `echo` and `sleep` (answers after `ms`, so responses can overtake each other). */
export function fixtureServer(): McpServer {
  const server = new McpServer({ name: "inspect-fixture", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  server.registerTool("sleep", { inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await delay(ms);
    return { content: [{ type: "text", text: `slept ${ms}` }] };
  });
  return server;
}

export function newClient(): Client {
  return new Client({ name: "inspect-test-client", version: "1.0.0" });
}

/**
 * Connects a fresh client and fixture server in memory; `wrap` may replace either end's transport
 * (with a recording one). Returns a `close` that closes both.
 */
export async function connectInMemory(wrap: { client?: (transport: Transport) => Transport; server?: (transport: Transport) => Transport } = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = fixtureServer();
  const client = newClient();
  await server.connect(wrap.server ? wrap.server(serverSide) : serverSide);
  await client.connect(wrap.client ? wrap.client(clientSide) : clientSide);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A compact view of records for whole-sequence assertions. */
export function outline(records: readonly TrafficRecord[]) {
  return records.map((r) => ({ direction: r.direction, method: r.method, id: r.id, response: isResponseRecord(r) }));
}

export function isResponseRecord(record: TrafficRecord): boolean {
  return record.direction !== "error" && !("method" in (record.content as object));
}

/** The request record with the same id travelling the other way, for a response record. */
export function requestOf(records: readonly TrafficRecord[], response: TrafficRecord): TrafficRecord {
  const found = records.find((r) => r.direction !== "error" && r.direction !== response.direction && isRequest(r.content) && r.id === response.id);
  if (!found) throw new Error(`no request with id ${String(response.id)} opposite ${response.direction}`);
  return found;
}

export function params(record: TrafficRecord): Record<string, unknown> {
  const content = record.content as JsonRpcMessage;
  if (!isRequest(content)) throw new Error("not a request record");
  return content.params ?? {};
}
