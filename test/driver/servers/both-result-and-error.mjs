// Answers tools/call with both a result and an error.
import { send, serve } from "./zoo-server.mjs";
serve({
  "tools/call": (request) => send({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "ok" }] }, error: { code: -32603, message: "also failed" } }),
});
