// The `npm start` demo: a small scripted "agent" runs against an in-memory mock MCP server
// whose tools fail on chosen calls. It prints each call the mock served and its outcome, then
// checks the record the way a test would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mockMcp } from "mcp-testkit";

const server = await mockMcp({
  transport: "memory",
  serverInfo: { name: "issue-tracker-mock", version: "1.0.0" },
  tools: {
    search_issues: [
      { returns: [{ id: 1, title: "Crash on start" }] }, // 1st call succeeds
      { throws: { code: -32000, message: "rate_limited" } }, // 2nd call: a JSON-RPC error
      { delayMs: 50, returns: [{ id: 2, title: "Slow search" }] }, // 3rd: slow but fine
    ],
    get_issue: [
      { toolError: "issue 1 is locked" }, // a tool error the model should see
      { hang: true }, // then it never answers
    ],
  },
});

const client = new Client({ name: "demo-agent", version: "1.0.0" });
await client.connect(await server.connectInMemory());

/** The "agent": searches, retries once on an error, then fetches an issue with a timeout. */
async function runAgent() {
  for (const query of ["crash", "slow"]) {
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        await client.callTool({ name: "search_issues", arguments: { query } });
        break;
      } catch (error) {
        console.log(`  agent: search "${query}" failed (${error.message}), attempt ${attempt}`);
      }
    }
  }
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const result = await client.callTool({ name: "get_issue", arguments: { id: 1 } }, undefined, { timeout: 200 });
      if (result.isError) console.log(`  agent: get_issue reported "${result.content[0].text}"`);
    } catch (error) {
      console.log(`  agent: get_issue gave up (${error.message})`);
    }
  }
}

console.log(`mcp-testkit demo: an agent against a mock MCP server in memory (${server.calls.length} calls so far)\n`);
await runAgent();
// Let the cancellation the client sent on timeout reach the mock.
await new Promise((resolve) => setTimeout(resolve, 20));

console.log("\nCalls the mock served:");
for (const call of server.calls) {
  const duration = call.endedAt === undefined ? "" : ` in ${call.endedAt - call.startedAt} ms`;
  console.log(`  ${call.tool} #${call.index} ${JSON.stringify(call.arguments)} → ${call.outcome}${call.reason ? ` (${call.reason})` : ""}${duration}`);
}

server.assertCalled("search_issues", { times: 3 });
server.assertCalled("search_issues", { with: { query: /slow/ } });
server.assertCalledInOrder("search_issues", "get_issue");
console.log("\nAssertions passed: search_issues called 3 times, once with /slow/, before get_issue.");

await client.close();
await server.close();
