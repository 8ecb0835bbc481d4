/**
 * What `mcp-testkit view` reads besides a trace: a mock's journal (from its control API) and a
 * recording (as `mcp-testkit record` writes it), each as calls the timeline groups.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { Recording } from "../../src/record/recording.js";
import { readTimelineInput } from "../../src/view/read-input.js";
import { buildModel } from "../../src/view/ui/model.js";

describe("readTimelineInput", () => {
  it("reads a mock's journal, one call per request with its answer", async () => {
    await using server = await mockMcp({
      fixtures: [{ scope: { testId: "tickets > retry" }, tools: [{ name: "create_ticket", calls: [{ args: { title: "Refund" }, error: "upstream timeout" }] }] }],
    });
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { "x-test-id": "tickets > retry" } } }));
    await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    await client.close();
    const journal = await (await fetch(new URL("/__mcp-testkit/journal", server.url))).text();

    const data = readTimelineInput(journal, "journal.json");
    expect(data.kind).toBe("journal");
    const model = buildModel(data.entries);
    const call = model.groups.find((group) => group.method === "tools/call");
    expect(call).toMatchObject({ outcome: "error", head: { testId: "tickets > retry" } });
    expect(model.testIds).toEqual(["tickets > retry"]);
  });

  it("reads a recording, its answers in order", () => {
    const recording = new Recording({
      serverInfo: { name: "weather", version: "1" },
      protocolVersion: "2025-11-25",
      tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
      resources: [],
      templates: [],
      prompts: [],
    });
    recording.add({ kind: "tool", name: "get_weather", arguments: { city: "Paris" }, answer: { result: { content: [{ type: "text", text: "21°C" }] } }, durationMs: 4 });
    recording.add({ kind: "tool", name: "get_weather", arguments: { city: "Oslo" }, answer: { error: { code: -32000, message: "no such city" } }, durationMs: 2 });

    const data = readTimelineInput(JSON.stringify(recording.toScenario()), "weather.json");
    expect(data.kind).toBe("recording");
    expect(data.notes).toEqual(["A recording keeps the answers in order but no times: messages are shown 1 ms apart."]);
    const model = buildModel(data.entries);
    expect(model.groups.map((group) => [group.method, group.outcome])).toEqual([
      ["tools/call", "ok"],
      ["tools/call", "error"],
    ]);
  });
});
