// A hand-written 2026-07-28 server on stdio that refuses the first server/discover with -32022
// (data.supported lists the version asked for), then answers: the client must retry, not fall back.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
let refused = false;
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const version = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (version === undefined) return send({ jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: null } } });
  if (message.method === "server/discover" && !refused) {
    refused = true;
    return send({ jsonrpc: "2.0", id: message.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: version } } });
  }
  const meta = { "io.modelcontextprotocol/serverInfo": { name: "refuses-once", version: "1.0.0" } };
  if (message.method === "server/discover") {
    return send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", _meta: meta } });
  }
  if (message.method === "tools/call") return send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", content: [{ type: "text", text: "ok" }], _meta: meta } });
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
