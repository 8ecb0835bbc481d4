// A hand-written 2026-07-28-only server on stdio whose server/discover answers after 1.5 s
// (slower than the test's requestTimeout): always, or with `once` only the first time, as a
// server slow to start does. initialize is refused at once with -32022 listing 2026-07-28 only.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const slowOnce = process.argv[2] === "once";
let discovers = 0;
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    return send({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: message.params?.protocolVersion ?? "" } },
    });
  }
  const meta = { "io.modelcontextprotocol/serverInfo": { name: "discover-slow", version: "1.0.0" } };
  if (message.method === "server/discover") {
    const delayMs = slowOnce && discovers++ > 0 ? 0 : 1500;
    setTimeout(
      () => send({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", _meta: meta } }),
      delayMs,
    );
    return;
  }
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
});
