#!/usr/bin/env node
/**
 * A minimal MCP server over stdio for the driver benchmark (bench/driver.js): newline-delimited
 * JSON-RPC on stdin/stdout, one tool (`echo`, answers "ok"), no SDK, no dependencies, and it
 * exits as soon as stdin closes. It does as little as a server can, so the benchmark measures
 * the clients (spawn, initialize, tools/list, calls, close), not the server.
 *
 * `initialize` answers the protocol version asked for when it is one of VERSIONS (else the
 * newest), and puts the names of the environment variables it was started with in
 * `instructions`, so the benchmark can check that every client gave it the same environment.
 */
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const TOOL = { name: "echo", description: "Answers ok.", inputSchema: { type: "object", properties: {} } };
const OK = { content: [{ type: "text", text: "ok" }] };

function answer(message) {
  const { id, method } = message;
  if (id === undefined || id === null || typeof method !== "string") return null; // notifications, stray answers
  switch (method) {
    case "initialize": {
      const asked = message.params?.protocolVersion;
      return {
        jsonrpc: "2.0",
        id,
        result: {
          protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: {} },
          serverInfo: { name: "minimal-stdio", version: "1.0.0" },
          instructions: `env: ${Object.keys(process.env).sort().join(",")}`,
        },
      };
    }
    case "tools/list":
      return { jsonrpc: "2.0", id, result: { tools: [TOOL] } };
    case "tools/call":
      if (message.params?.name === TOOL.name) return { jsonrpc: "2.0", id, result: OK };
      return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `unknown tool ${message.params?.name}` }], isError: true } };
    case "ping":
      return { jsonrpc: "2.0", id, result: {} };
    default:
      return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop() ?? "";
  let out = "";
  for (const line of lines) {
    if (line.trim() === "") continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      out += `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })}\n`;
      continue;
    }
    const reply = answer(message);
    if (reply) out += `${JSON.stringify(reply)}\n`;
  }
  // One write per chunk read: answers to a burst of requests leave together.
  if (out) process.stdout.write(out);
});
// stdout is a pipe, written synchronously on Linux: nothing is lost by exiting at once.
process.stdin.on("end", () => process.exit(0));
