/**
 * The zoo's common part: a hand-written stdio MCP server (no SDK), so each broken server can
 * write exactly the bytes it wants. `serve(overrides)` answers initialize, ping and a default
 * `tools/list` / `tools/call` (an echo tool); each zoo script overrides what it breaks.
 */
import { createInterface } from "node:readline";

export const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
export const result = (request, value) => send({ jsonrpc: "2.0", id: request.id, result: value });
export const error = (request, code, message, data) => send({ jsonrpc: "2.0", id: request.id, error: { code, message, ...(data === undefined ? {} : { data }) } });

const echoTool = { name: "echo", description: "Echoes its text", inputSchema: { type: "object", properties: { text: { type: "string" } } } };

const defaults = {
  initialize: (request) =>
    result(request, {
      protocolVersion: request.params?.protocolVersion ?? "2025-11-25",
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      serverInfo: { name: "zoo", version: "1.0.0" },
    }),
  ping: (request) => result(request, {}),
  "tools/list": (request) => result(request, { tools: [echoTool] }),
  "tools/call": (request) => result(request, { content: [{ type: "text", text: String(request.params?.arguments?.text ?? "") }] }),
};

/** Reads messages from stdin; `overrides[method](message)` handles a method, `onResponse` the client's answers. */
export function serve(overrides = {}, { onResponse } = {}) {
  const handlers = { ...defaults, ...overrides };
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line);
    if (message.method === undefined) return onResponse?.(message);
    const handler = handlers[message.method];
    if (handler) return handler(message);
    if (message.id !== undefined) error(message, -32601, `Method not found: ${message.method}`);
  });
  return lines;
}
