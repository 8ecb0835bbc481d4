// A server built with the official SDK v2 (@modelcontextprotocol/server 2.4.0), serving both eras
// from one factory: `node sdk-v2-server.mjs stdio` serves stdio; the test imports `factory` and
// serves it over HTTP itself. Tools: add (numbers), confirm
// (asks for input: MRTR in 2026-07-28), and a resource notes://today.
import { pathToFileURL } from "node:url";
import { acceptedContent, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

export function factory() {
  const server = new McpServer({ name: "sdk-v2-fixture", version: "2.4.0" }, { capabilities: { tools: {}, resources: {} } });
  server.registerTool("add", { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool("confirm", { description: "Asks before it answers", inputSchema: z.object({ what: z.string() }) }, async ({ what }, ctx) => {
    const schema = z.object({ ok: z.boolean() });
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "ok", schema);
    if (answer === undefined) return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: `Really ${what}?`, requestedSchema: schema }) } });
    return { content: [{ type: "text", text: answer.ok ? `${what}: done` : `${what}: cancelled` }] };
  });
  server.registerResource("today", "notes://today", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Ship it." }] }));
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "stdio") serveStdio(factory);
