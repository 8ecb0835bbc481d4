/**
 * `mcp-testkit mock aimock.json`: an aimock config file runs unchanged. Its "mcp" part and the
 * mcpFakes in its "llm.fixtures" are served to an SDK client; the parts for aimock's other mocks
 * are left out with one line; a misspelt key is refused with the closest one; `validate` checks it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { collect, runCli, scenarioFile, startCli, until, useCli } from "./support.js";

useCli();

const clients = new Set<Client>();
afterEach(async () => {
  for (const client of clients) await client.close();
  clients.clear();
});

describe("mcp-testkit mock <aimock config>", () => {
  it("serves the config's mcp part and its llm.fixtures fakes, leaving out the rest with one line", async () => {
    const fakes = scenarioFile("llm-fixtures.json", {
      fixtures: [{ match: { userMessage: "weather" }, response: { content: "It rains." } }],
      mcpFakes: { scope: "shared", tools: [{ name: "get_weather", calls: [{ anyArgs: true, result: "rain" }] }] },
    });
    const config = scenarioFile("aimock.json", {
      llm: { fixtures: fakes, chunkSize: 5 },
      mcp: {
        path: "/mcp",
        tools: [{ name: "search", description: "Search", result: "Found it" }],
        resources: [{ uri: "file:///data.json", name: "Data", text: '{"key": "value"}' }],
        prompts: [{ name: "greet", result: { messages: [{ role: "user", content: { type: "text", text: "Hello" } }] } }],
      },
    });
    const child = startCli(["mock", config]);
    const output = collect(child);
    await until(() => /^ {2}tools: /m.test(output.stdout), "the banner");
    const url = /^mcp-testkit mock: serving .+ at (http:\/\/\S+)$/m.exec(output.stdout)![1]!;
    expect(new URL(url).pathname).toBe("/mcp");
    const ignoredLines = output.stdout.split("\n").filter((line) => line.includes("ignoring"));
    expect(ignoredLines).toEqual([`mcp-testkit mock: ignoring the aimock config's parts for its other mocks: llm.chunkSize; mcp-testkit serves its "mcp" part and the mcpFakes in "llm.fixtures".`]);

    const client = new Client({ name: "aimock-cli", version: "1.0.0" });
    clients.add(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["get_weather", "search"]);
    expect(await client.callTool({ name: "search", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "Found it" }] });
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } })).toMatchObject({ content: [{ type: "text", text: "rain" }] });
    expect((await client.readResource({ uri: "file:///data.json" })).contents[0]).toMatchObject({ text: '{"key": "value"}' });
    expect((await client.getPrompt({ name: "greet" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello" } }]);
  });

  it("refuses a misspelt key with the closest one, in mock and in validate", async () => {
    const config = scenarioFile("typo.json", { mcp: { tools: [{ name: "search", reslt: "x" }] } });
    const served = await runCli(["mock", config]);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`Scenario "${config}" was rejected:\n  mcp-testkit/scenario: mcp.tools[0] has unknown key "reslt"; did you mean "result"?`);
    const validated = await runCli(["validate", config]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain(`FAIL  ${config}: 1 problem\n  mcp-testkit/scenario: mcp.tools[0] has unknown key "reslt"; did you mean "result"?`);
  });

  it("validate says ok for a config that loads", async () => {
    const config = scenarioFile("ok.json", { mcp: { tools: [{ name: "search", result: "x" }] } });
    expect(await runCli(["validate", config])).toMatchObject({ code: 0, stdout: `ok    ${config} (scenario, 0 blocks of fakes)\n` });
  });
});
