/**
 * Scenario fakes beyond the document, served to real SDK clients over Streamable HTTP:
 * `argsMatch` patterns.
 */
import { describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { sdkClient, track, useCleanup } from "../wire/support/http.js";

useCleanup();
const lines: string[] = [];
const logger = (_level: string, line: string) => void lines.push(line);

async function serveFakes(options: Parameters<typeof mockMcp>[0] = {}): Promise<MockMcpServer & { url: string }> {
  return track(await mockMcp({ fakesOptions: { logger }, ...options })) as MockMcpServer & { url: string };
}

const withTestId = (testId: string) => ({ transportOptions: { requestInit: { headers: { "X-Test-Id": encodeURIComponent(testId) } } } });

describe("argsMatch over HTTP", () => {
  it("answers calls that match the pattern and refuses others naming the first difference", async () => {
    const server = await serveFakes({
      fixtures: {
        scope: { testId: "search › refunds" },
        tools: [{ name: "search", calls: [{ id: "refunds", argsMatch: { query: { $regex: "^refund", $flags: "i" }, limit: { $schema: { type: "integer", maximum: 10 } } }, result: "3 tickets" }] }],
      },
    });
    const { client } = await sdkClient(server.url, withTestId("search › refunds"));
    const error = await client.callTool({ name: "search", arguments: { query: "billing", limit: 5 } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -32602, data: { mcpTestkit: { code: "MCP_FAKE_MISMATCH", firstDifference: '$.query: expected a string matching /^refund/i, received "billing"' } } });
    const answered = await client.callTool({ name: "search", arguments: { query: "Refunds last week", limit: 5, sort: "new" } });
    expect(answered.content).toEqual([{ type: "text", text: "3 tickets" }]);
    expect(server.calls.map((call) => call.fake)).toEqual(["MCP_FAKE_MISMATCH", "code#1:refunds"]);
  });
});
