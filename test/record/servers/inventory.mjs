#!/usr/bin/env node
// A small inventory server built with the official SDK, over stdio. `--drift` starts its next
// release: `lookup` words its answer differently and drops a field, `remove` is gone, and
// `list` returns its items in another order.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { randomUUID } from "node:crypto";
import { z } from "zod";

const drift = process.argv.includes("--drift");
const server = new McpServer({ name: "inventory", version: drift ? "2.0.0" : "1.0.0" });
const stock = { apple: 3, pear: 5, plum: 0 };

server.registerTool("lookup", { description: "How many of an item are in stock", inputSchema: { item: z.string() } }, async ({ item }) => {
  const count = stock[item];
  if (count === undefined) return { content: [{ type: "text", text: `No such item: ${item}` }], isError: true };
  const structured = drift ? { item, count, id: randomUUID(), checkedAt: new Date().toISOString() } : { item, count, unit: "pieces", id: randomUUID(), checkedAt: new Date().toISOString() };
  return { content: [{ type: "text", text: drift ? `${item}: ${count}` : `${count} ${item}(s) in stock` }], structuredContent: structured };
});

server.registerTool("list", { description: "Every item" }, async () => {
  const items = Object.keys(stock);
  return { content: [{ type: "text", text: "items" }], structuredContent: { items: drift ? items.reverse() : items } };
});

if (!drift) {
  server.registerTool("remove", { description: "Removes an item", inputSchema: { item: z.string() } }, async ({ item }) => ({ content: [{ type: "text", text: `removed ${item}` }] }));
}

server.registerResource("readme", "inventory://readme", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "Inventory server" }] }));
server.registerPrompt("restock", { description: "Ask to restock", argsSchema: { item: z.string() } }, ({ item }) => ({
  messages: [{ role: "user", content: { type: "text", text: `Please restock ${item}` } }],
}));

await server.connect(new StdioServerTransport());
