// A tiny stdio MCP server for `mcp-testkit check`, well behaved by default, broken on demand:
//   --log-stdout          writes log lines to stdout (at start and for each request)
//   --ignore-stdin-close  keeps running when its stdin closes
//   --answer-unknown      answers every method it does not know with an empty result
//   --bad-tools           lists tool definitions that break the schema
//   --echo-version        answers initialize with whatever version was asked for
// Default: tools (one tool, "echo"), -32601 for unknown methods, -32602 for unknown tools and
// invalid cursors, -32700 for lines that are not JSON, exits 0 when stdin closes.
import { createInterface } from "node:readline";

const flags = new Set(process.argv.slice(2));
const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const log = (line) => {
  if (flags.has("--log-stdout")) process.stdout.write(`[broken-server] ${line}\n`);
};

const TOOLS = flags.has("--bad-tools")
  ? [
      { name: "fine", inputSchema: { type: "object" } },
      { name: "string-schema", inputSchema: { type: "string" } },
      { description: "a tool without a name", inputSchema: { type: "object" } },
    ]
  : [{ name: "echo", description: "Echoes its message", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } }];

function handle(request) {
  const params = request.params ?? {};
  switch (request.method) {
    case "initialize":
      return {
        result: {
          protocolVersion: flags.has("--echo-version") || VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : VERSIONS.at(-1),
          capabilities: { tools: {} },
          serverInfo: { name: "broken-server", version: "1.0.0" },
        },
      };
    case "ping":
      return { result: {} };
    case "tools/list":
      if (params.cursor !== undefined) return { error: { code: -32602, message: "Invalid cursor" } };
      return { result: { tools: TOOLS } };
    case "tools/call":
      if (params.name === "echo") return { result: { content: [{ type: "text", text: String(params.arguments?.message ?? "") }] } };
      return { error: { code: -32602, message: `Unknown tool: ${params.name}` } };
    default:
      if (flags.has("--answer-unknown")) return { result: {} };
      return { error: { code: -32601, message: `Method not found: ${request.method}` } };
  }
}

log("starting up");
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  if (typeof message.method !== "string" || message.id === undefined) return; // notifications and responses
  log(`handling ${message.method}`);
  send({ id: message.id, ...handle(message) });
});
lines.on("close", () => {
  if (flags.has("--ignore-stdin-close")) setInterval(() => undefined, 1000);
  else process.exit(0);
});
