// A hand-written 2026-07-28 server on stdio that breaks the revision: during tools/call it sends
// the client an elicitation/create request (2026-07-28 has no server-to-client requests), then
// answers the call with how the client answered, as JSON text.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const meta = { "io.modelcontextprotocol/serverInfo": { name: "modern-asks-client", version: "1.0.0" } };
let call;
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined && message.id === "ask-1") {
    const answer = "error" in message ? { error: message.error } : { result: message.result };
    return send({ jsonrpc: "2.0", id: call.id, result: { resultType: "complete", content: [{ type: "text", text: JSON.stringify(answer) }], _meta: meta } });
  }
  if (message.id === undefined) return;
  if (message.method === "server/discover") {
    return send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", _meta: meta } });
  }
  if (message.method === "tools/call") {
    call = message;
    return send({ jsonrpc: "2.0", id: "ask-1", method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } });
  }
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
