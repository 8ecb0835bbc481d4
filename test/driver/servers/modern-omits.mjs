// A hand-written 2026-07-28 server on stdio that leaves one field out of one method's result:
// `node modern-omits.mjs <method> <field>` (e.g. `server/discover ttlMs`, `tools/call resultType`).
// Every other result is complete. It never answers `initialize` (it speaks only 2026-07-28), so a
// client that takes it for a legacy server waits in vain.
import { createInterface } from "node:readline";

const [omitMethod, omitField] = process.argv.slice(2);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const meta = { "io.modelcontextprotocol/serverInfo": { name: "modern-omits", version: "1.0.0" } };
const results = {
  "server/discover": { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", _meta: meta },
  "tools/list": { resultType: "complete", tools: [{ name: "echo", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "private", _meta: meta },
  "tools/call": { resultType: "complete", content: [{ type: "text", text: "ok" }], _meta: meta },
};
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === "initialize") return;
  const result = results[message.method];
  if (result === undefined) return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  const { [omitField]: _left, ...kept } = result;
  send({ jsonrpc: "2.0", id: message.id, result: message.method === omitMethod ? kept : result });
});
