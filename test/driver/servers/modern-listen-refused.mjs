// A hand-written 2026-07-28 server on stdio whose capabilities say its tools list changes, and
// whose list carries a long ttlMs, but which does not follow through on subscriptions/listen:
// `node modern-listen-refused.mjs refuse` answers it with -32601, `silent` never answers it.
// It counts the requests it got in a `ping`-free way: tools/call "requests" answers with them.
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "refuse";
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const meta = { "io.modelcontextprotocol/serverInfo": { name: "listen-refused", version: "1.0.0" } };
const seen = [];
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  seen.push(message.method);
  if (message.id === undefined) return;
  switch (message.method) {
    case "server/discover":
      return send({
        jsonrpc: "2.0",
        id: message.id,
        result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: { listChanged: true } }, ttlMs: 0, cacheScope: "private", _meta: meta },
      });
    case "tools/list":
      return send({
        jsonrpc: "2.0",
        id: message.id,
        result: { resultType: "complete", tools: [{ name: "requests", inputSchema: { type: "object" } }], ttlMs: 60_000, cacheScope: "private", _meta: meta },
      });
    case "tools/call":
      return send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", content: [{ type: "text", text: seen.join(",") }], _meta: meta } });
    case "subscriptions/listen":
      if (mode === "silent") return;
      return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    default:
      return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
