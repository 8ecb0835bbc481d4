// Answers tools/list as a JSON-RPC batch: a log notification and the response together
// (batches exist only in protocol version 2025-03-26).
import { serve } from "./zoo-server.mjs";
serve({
  "tools/list": (request) =>
    process.stdout.write(
      `${JSON.stringify([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "listing tools" } },
        { jsonrpc: "2.0", id: request.id, result: { tools: [{ name: "batched", inputSchema: { type: "object" } }] } },
      ])}\n`,
    ),
});
