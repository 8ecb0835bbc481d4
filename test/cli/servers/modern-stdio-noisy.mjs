// A hand-written stdio server of 2026-07-28 only that breaks the stdio transport's rules: it
// prints a line that is no MCP message on stdout, and keeps running when its stdin closes.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
process.stdout.write("starting up...\n");
setInterval(() => undefined, 60_000); // keeps the process alive after stdin closes
const meta = { "io.modelcontextprotocol/serverInfo": { name: "noisy-modern", version: "1.0.0" } };
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const version = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (version !== "2026-07-28") {
    return send({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: String(version ?? message.params?.protocolVersion ?? "") } },
    });
  }
  if (message.method === "server/discover") {
    return send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "private", _meta: meta } });
  }
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
