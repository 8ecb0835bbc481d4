// A hand-written stdio server whose server/discover is refused with a -32022 that breaks the
// schema: `node discover-refused-badly.mjs null` sends data.requested null (it must be a
// string), `node discover-refused-badly.mjs nolist` sends no data.supported at all.
import { createInterface } from "node:readline";

const fault = process.argv[2];
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "server/discover") {
    const data = fault === "nolist" ? { requested: "2026-07-28" } : { supported: ["2026-07-28"], requested: null };
    return send({ jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "Unsupported protocol version", data } });
  }
  if (message.method === "initialize") {
    return send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "discover-refused-badly", version: "1.0.0" } } });
  }
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
