// A hand-written stdio server whose server/discover is always refused with -32022, listing the
// versions given as arguments (`node discover-always-refused.mjs 2025-11-25 2026-07-28`); it
// serves initialize (2025-11-25) and tools/call the legacy way, for a client that falls back.
import { createInterface } from "node:readline";

const supported = process.argv.slice(2);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "server/discover") {
    const requested = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"] ?? null;
    return send({ jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested } } });
  }
  if (message.method === "initialize") {
    return send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "discover-always-refused", version: "1.0.0" } } });
  }
  if (message.method === "tools/call") return send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "ok" }] } });
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
