#!/usr/bin/env node
/**
 * An issue tracker's MCP server, built with the official SDK (v1, stdio), in three releases:
 * `node issue-server.mjs 1.0.0`, `1.1.0` (compatible changes only) and `2.0.0` (one of each kind
 * of breaking change). The snapshot tests diff them.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const release = process.argv[2] ?? "1.0.0";
if (!["1.0.0", "1.1.0", "2.0.0"].includes(release)) {
  console.error(`unknown release ${release}: 1.0.0, 1.1.0 or 2.0.0`);
  process.exit(2);
}
const v1 = release === "1.0.0";
const compatible = release === "1.1.0";
const breaking = release === "2.0.0";

const server = new McpServer({ name: "issue-tracker", version: release }, { capabilities: breaking ? {} : { logging: {} }, instructions: "Search issues before creating one." });
const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });

// search_issues: its input and output schemas are where the direction rules show.
const searchInput = {
  query: z.string().describe(compatible ? "Words to look for in titles and bodies" : "Words to look for"),
  // 2.0.0: limit becomes required, and its maximum tightens from 100 to 50.
  limit: breaking
    ? z.number().int().min(1).max(50)
    : z
        .number()
        .int()
        .min(1)
        .max(compatible ? 200 : 100)
        .optional(),
  // 2.0.0: the state enum narrows ("all" goes); 1.1.0 widens it ("draft").
  state: z.enum(breaking ? ["open", "closed"] : compatible ? ["open", "closed", "all", "draft"] : ["open", "closed", "all"]).optional(),
  // 2.0.0: minScore's type narrows from number to integer.
  minScore: breaking ? z.number().int().optional() : z.number().optional(),
  ...(compatible ? { labels: z.array(z.string()).optional() } : {}),
  // 2.0.0: a new required property.
  ...(breaking ? { project: z.string() } : {}),
};
const issue = z.object({
  // 2.0.0: the id's type widens (a number or a string) and the state enum widens.
  id: breaking ? z.union([z.number(), z.string()]) : z.number(),
  // 2.0.0: title becomes optional.
  title: breaking ? z.string().optional() : z.string(),
  state: z.enum(breaking ? ["open", "closed", "archived"] : ["open", "closed"]),
});
const searchOutput = {
  issues: z.array(issue),
  // 2.0.0: total is removed.
  ...(breaking ? {} : { total: z.number().int() }),
  ...(compatible ? { nextCursor: z.string().optional() } : {}),
};
server.registerTool(
  "search_issues",
  { title: "Search issues", description: "Searches the tracker's issues", inputSchema: searchInput, outputSchema: searchOutput, annotations: { readOnlyHint: true } },
  async ({ query }) => text({ issues: [{ id: 1, title: query, state: "open" }], total: 1 }),
);

// create_issue: refuses unknown properties; 2.0.0 removes `body`, so a caller that sends it is refused.
server.registerTool(
  "create_issue",
  { description: "Creates an issue", inputSchema: z.object({ title: z.string(), ...(breaking ? {} : { body: z.string().optional() }) }).strict() },
  async ({ title }) => text({ id: 2, title }),
);

// delete_issue: removed in 2.0.0.
if (!breaking)
  server.registerTool("delete_issue", { description: "Deletes an issue", inputSchema: { id: z.number().int() }, annotations: { destructiveHint: true } }, async () => text({ deleted: true }));
if (compatible) server.registerTool("close_issue", { description: "Closes an issue", inputSchema: { id: z.number().int() } }, async () => text({ closed: true }));

// Resources: issues://recent is removed in 2.0.0; 1.1.0 adds issues://stats.
if (!breaking) server.registerResource("recent", "issues://recent", { mimeType: "application/json", description: "The latest issues" }, async (uri) => ({ contents: [{ uri: uri.href, text: "[]" }] }));
if (compatible) server.registerResource("stats", "issues://stats", { mimeType: "application/json" }, async (uri) => ({ contents: [{ uri: uri.href, text: "{}" }] }));
server.registerResource("issue", new ResourceTemplate("issues://{id}", { list: undefined }), { mimeType: "application/json" }, async (uri) => ({ contents: [{ uri: uri.href, text: "{}" }] }));

// Prompts: triage gains an optional argument in 1.1.0 and a required one in 2.0.0; summarize is removed in 2.0.0.
server.registerPrompt(
  "triage",
  { description: "Triage an issue", argsSchema: { issue: z.string(), tone: z.string().optional(), ...(compatible ? { lang: z.string().optional() } : {}), ...(breaking ? { team: z.string() } : {}) } },
  async ({ issue: id }) => ({ messages: [{ role: "user", content: { type: "text", text: `Triage ${id}` } }] }),
);
if (!breaking) server.registerPrompt("summarize", { description: "Summarize the week" }, async () => ({ messages: [{ role: "user", content: { type: "text", text: "Summarize" } }] }));

void v1;
await server.connect(new StdioServerTransport());
