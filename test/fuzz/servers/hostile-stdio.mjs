// A stdio "MCP server" that misbehaves as HOSTILE_SCRIPT says: one action per request it
// receives (then it answers properly). Actions: ok, garbage, wrongId, notify, silent, bothResultAndError,
// closeStdout, exit, partial. A hard cap on its own life keeps a forgotten child from lingering.
import { createInterface } from "node:readline";

const actions = JSON.parse(process.env.HOSTILE_SCRIPT ?? "[]");
setTimeout(() => process.exit(3), 20_000).unref();
const write = (value) => process.stdout.write(typeof value === "string" ? value : JSON.stringify(value) + "\n");

function proper(request) {
  if (request.method === "initialize") {
    return { jsonrpc: "2.0", id: request.id, result: { protocolVersion: request.params?.protocolVersion ?? "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "0" } } };
  }
  if (request.method === "tools/call") return { jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "ok" }] } };
  return { jsonrpc: "2.0", id: request.id, result: {} };
}

createInterface({ input: process.stdin }).on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.id === undefined) return; // notifications need nothing
  const action = actions.shift() ?? { do: "ok" };
  switch (action.do) {
    case "garbage":
      write(action.text + "\n");
      return write(proper(request));
    case "wrongId":
      return write({ ...proper(request), id: typeof request.id === "number" ? request.id + 1000 : `${request.id}x` });
    case "notify":
      write({ jsonrpc: "2.0", method: action.method, params: action.params });
      return write(proper(request));
    case "bothResultAndError":
      return write({ ...proper(request), error: { code: 1, message: "both" } });
    case "silent":
      return;
    case "partial":
      return write(JSON.stringify(proper(request)).slice(0, 10));
    case "closeStdout":
      return process.stdout.end();
    case "exit":
      return process.exit(action.code);
    default:
      return write(proper(request));
  }
});
