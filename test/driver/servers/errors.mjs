// Answers tools/call, resources/read and prompts/get with JSON-RPC errors.
import { error, serve } from "./zoo-server.mjs";
serve({
  "tools/call": (request) => error(request, -32602, `Unknown tool: ${request.params.name}`, { known: ["echo"] }),
  "resources/read": (request) => error(request, -32002, "Resource not found", { uri: request.params.uri }),
  "prompts/get": (request) => error(request, -32602, `Unknown prompt: ${request.params.name}`),
});
