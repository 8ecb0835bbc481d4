/**
 * The CLI with scenario fakes: `mcp-testkit mock --fixtures <dir>` serves fixture files to a real
 * SDK client (per test id, sent as a header), and `mcp-testkit validate` checks fixture files
 * without serving them, listing every problem with its rule.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runCli, scenarioFile, startCli, useCli, waitForLine } from "./support.js";

useCli();
const FIXTURES = fileURLToPath(new URL("../fakes/fixtures", import.meta.url));

describe("mcp-testkit mock --fixtures", () => {
  it("serves fixture files with no scenario, answering per test id, and says what it loaded", async () => {
    const child = startCli(["mock", "--fixtures", FIXTURES]);
    // Both waits listen from the start: the two lines may come in one chunk of output.
    const servedLine = waitForLine(child, "stdout", /^mcp-testkit mock: serving (.+) at (http:\/\/\S+)$/);
    const catalogLine = waitForLine(child, "stdout", /^ {2}.*fake block.*$/);
    const [, served, url] = await servedLine;
    expect(served).toBe(`fixtures ${FIXTURES}`);
    const catalog = await catalogLine;
    expect(catalog[0]).toContain("3 fake blocks on /mcp, /mcp/flights, /mcp/hotels");
    const client = new Client({ name: "cli-fakes", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers: { "X-Test-Id": encodeURIComponent("tickets › retry on timeout") } } }));
    try {
      const printed = waitForLine(child, "stdout", /^create_ticket #0 .*$/);
      const first = await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
      expect(first.isError).toBe(true);
      expect((await printed)[0]).toContain("→ tool-error");
    } finally {
      await client.close();
    }
  });

  it("takes a fixtures directory as a positional argument too, beside a scenario file", async () => {
    const scenario = scenarioFile("scenario.json", { tools: { ping_tool: { returns: "pong" } } });
    const child = startCli(["mock", scenario, FIXTURES, "--fake-test-ids-max", "10"]);
    const [, served] = await waitForLine(child, "stdout", /^mcp-testkit mock: serving (.+) at (http:\/\/\S+)$/);
    expect(served).toBe(`${scenario} + fixtures ${FIXTURES}`);
  });

  it("serves a scenario's own blocks of fakes beside --fixtures, not instead of them", async () => {
    const scenario = scenarioFile("recorded-scenario.json", {
      tools: { echo: { responses: { throws: "not recorded" } } },
      fixtures: [{ scope: "shared", tools: [{ name: "echo", calls: [{ args: { message: "hi" }, result: "Echo: hi" }] }] }],
    });
    const child = startCli(["mock", scenario, "--fixtures", FIXTURES]);
    const [, url] = await waitForLine(child, "stdout", /^mcp-testkit mock: serving .+ at (http:\/\/\S+)$/);
    const client = new Client({ name: "cli-fakes", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
    try {
      expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
      // The command prints a fake's failure for the person watching it (the library is quiet unless asked).
      const failureLine = waitForLine(child, "stderr", /^MCP-FAKE: mcp-testkit MCP fake .*$/);
      await expect(client.callTool({ name: "echo", arguments: { message: "bye" } })).rejects.toThrow('tool "echo" was called with arguments that match no declared fake');
      expect((await failureLine)[0]).toMatch(
        /^MCP-FAKE: mcp-testkit MCP fake mismatch: tool "echo" was called with arguments that match no declared fake \(no test id or context\)\. Received \{"message":"bye"\}\. Declared: \S+:echo#0 \{"message":"hi"\} \(used\)\.$/,
      );
    } finally {
      await client.close();
    }
  });

  it("refuses a --fake-test-ids-max that is not a whole number", async () => {
    const result = await runCli(["mock", FIXTURES, "--fake-test-ids-max", "many"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--fake-test-ids-max must be a whole number, 0 or more, got "many"');
  });

  it("refuses a bad fixture file at start, naming the rule, and exits non-zero", async () => {
    const bad = scenarioFile("bad-fixture.json", { mcpFakes: { scope: "shared", undeclaredTool: "deny", tools: [] } });
    const result = await runCli(["mock", "--fixtures", bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown key "undeclaredTool"; did you mean "undeclaredTools"?');
  });

  it("prints each problem as validate does: its rule first, ending with a full stop", async () => {
    const bad = scenarioFile("no-scope.json", { mcpFakes: [{ tools: [{ name: "a", returns: "x" }] }] });
    const served = await runCli(["mock", bad]);
    const validated = await runCli(["validate", bad]);
    expect(served.code).toBe(1);
    const lines = [
      `  mcp-fakes/bad-scope: ${bad}, block 0 (${bad}[0]): scope: is missing; every block needs a scope, or a fake written for one test would answer every test (expected "shared" or an object with "testId" and/or "context" (non-empty strings)).`,
      `  mcp-fakes/bad-block: ${bad}, block 0 (${bad}[0]): tools[0].calls: expected an array of calls.`,
      `  mcp-fakes/unknown-key: ${bad}, block 0 (${bad}[0]): tools[0]: unknown key "returns". A tool has: name, description, inputSchema, calls.`,
    ];
    expect(served.stderr).toBe(`mcp-testkit mock: Fixtures "${bad}" was rejected (3 problems):\n${lines.join("\n")}\nFix the fixtures and run the command again.\n`);
    expect(validated.stdout).toBe(`FAIL  ${bad}: 3 problems\n${lines.join("\n")}\n`);
  });

  it("a scenario with four typos reports all four in one run, in mock and in validate", async () => {
    const scenario = scenarioFile("four-typos.json", {
      severInfo: { name: "s", version: "1" },
      tools: { search: { retuns: "found" }, fetch: { descripton: "Fetch", responses: { returns: "page" } } },
      resources: { "notes://today": { txt: "Ship it" } },
    });
    const served = await runCli(["mock", scenario]);
    const validated = await runCli(["validate", scenario]);
    expect(served.code).toBe(1);
    expect(validated.code).toBe(1);
    const found = (text: string) => text.split("\n").filter((line) => line.startsWith("  mcp-testkit/scenario: "));
    for (const lines of [found(served.stderr), found(validated.stdout)]) {
      expect(lines).toEqual([
        expect.stringContaining('unknown key "severInfo"; did you mean "serverInfo"?'),
        expect.stringContaining('Tool "search" has unknown key "retuns"; did you mean "returns"?'),
        expect.stringContaining('Tool "fetch" has unknown key "descripton"; did you mean "description"?'),
        expect.stringContaining('Resource "notes://today" has unknown key "txt"; did you mean "text"?'),
      ]);
    }
    expect(served.stderr).toMatch(/^mcp-testkit mock: Scenario ".*four-typos\.json" was rejected \(4 problems\):\n/);
    expect(validated.stdout).toMatch(/^FAIL {2}.*four-typos\.json: 4 problems\n/);
  });
});

describe("mcp-testkit validate", () => {
  it("says ok for every loadable path, with its block count", async () => {
    const result = await runCli(["validate", FIXTURES]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`ok    ${FIXTURES} (3 blocks)\n`);
  });

  it("lists every problem of a bad file with its rule, and exits 1; --json gives the same as data", async () => {
    const bad = scenarioFile("two-problems.json", {
      mcpFakes: [
        { scope: "shared", undeclaredTools: "deny", tools: [] },
        { scope: { testId: "t" }, tools: [{ name: "a", calls: [{ args: {}, anyArgs: true, result: "x" }] }] },
      ],
    });
    const text = await runCli(["validate", bad, "./no-such-dir"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAIL {2}.*two-problems\.json: 2 problems\n {2}mcp-fakes\/shared-deny: /m);
    expect(text.stdout).toContain("mcp-fakes/bad-entry");
    expect(text.stdout).toContain("FAIL  ./no-such-dir: 1 problem\n  mcp-fakes/bad-file: ./no-such-dir is neither a file nor a directory");
    const json = await runCli(["validate", "--json", bad]);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.paths[0].errors.map((error: { rule: string }) => error.rule).sort()).toEqual(["mcp-fakes/bad-entry", "mcp-fakes/shared-deny"]);
  });

  it("checks a step answer's values with the mock's own step checker", async () => {
    const bad = scenarioFile("bad-step.json", { mcpFakes: { scope: "shared", tools: [{ name: "a", calls: [{ id: "stuck", anyArgs: true, step: { hang: "yes" } }] }] } });
    const result = await runCli(["validate", bad]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/mcp-fakes\/bad-step: .*bad-step\.json.*tools\[0\]\.calls\[0\]\.step: the step: "hang" must be true or false/);
  });

  it("checks a scenario file whole: its inline blocks of fakes named by the file, then the options as the mock takes them", async () => {
    const block = { scope: { testId: "t" }, tools: [{ name: "a", calls: [{ args: {}, result: "x" }] }] };
    const good = scenarioFile("recorded.json", { serverInfo: { name: "s", version: "1" }, tools: { a: { responses: { throws: "not recorded" } } }, fixtures: [block] });
    const sharedDeny = scenarioFile("shared-deny.json", { tools: { a: {} }, fixtures: [{ ...block, scope: "shared", undeclaredTools: "deny" }] });
    const badStep = scenarioFile("bad-tool.json", { tools: { a: { responses: { bogus: 1 } } } });
    const result = await runCli(["validate", good, sharedDeny, badStep]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`ok    ${good} (scenario, 1 block of fakes)\n`);
    // The problem names the scenario file, not "code".
    expect(result.stdout).toContain(`FAIL  ${sharedDeny}: 1 problem\n  mcp-fakes/shared-deny: ${sharedDeny}, block 0 (${sharedDeny}[0]): undeclaredTools: cannot be "deny" in a "shared" block`);
    expect(result.stdout).toContain(`FAIL  ${badStep}: 1 problem\n  mcp-testkit/scenario: Tool "a"'s step has unknown key "bogus".`);
  });

  it("refuses a delay or a timeout longer than a timer holds (it would fire at once), in a fixture file and in a scenario file", async () => {
    const fixture = scenarioFile("long-delay-fixture.json", { mcpFakes: { scope: "shared", tools: [{ name: "a", calls: [{ anyArgs: true, step: { delayMs: 3e9, returns: "late" } }] }] } });
    const delayed = scenarioFile("long-delay-scenario.json", { tools: { a: { delayMs: 3e9, returns: "late" } } });
    const waiting = scenarioFile("long-input-timeout.json", { inputTimeoutMs: 2 ** 31, tools: { a: { returns: "x" } } });
    const longest = scenarioFile("longest-delay.json", { inputTimeoutMs: 2 ** 31 - 1, tools: { a: { delayMs: 2 ** 31 - 1, returns: "late" } } });
    const result = await runCli(["validate", fixture, delayed, waiting, longest]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL {2}.*long-delay-fixture\.json: 1 problem\n {2}mcp-fakes\/bad-step: .*step: the step: "delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000/,
    );
    expect(result.stdout).toMatch(
      /FAIL {2}.*long-delay-scenario\.json: 1 problem\n {2}mcp-testkit\/scenario: Tool "a"'s step: "delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000/,
    );
    expect(result.stdout).toMatch(
      /FAIL {2}.*long-input-timeout\.json: 1 problem\n {2}mcp-testkit\/scenario: "inputTimeoutMs" must be a whole number of ms from 1 to 2147483647, got number 2147483648/,
    );
    expect(result.stdout).toContain(`ok    ${longest} (scenario, 0 blocks of fakes)`);
  });

  it("without a path is a usage error", async () => {
    const result = await runCli(["validate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("missing the fixtures directory or file to check");
  });
});

describe("examples/fixtures", () => {
  const EXAMPLE_FIXTURES = fileURLToPath(new URL("../../examples/fixtures", import.meta.url));

  it("all load (mcp-testkit validate)", async () => {
    const result = await runCli(["validate", EXAMPLE_FIXTURES]);
    expect(result.stdout).toBe(`ok    ${EXAMPLE_FIXTURES} (6 blocks)\n`);
    expect(result.code).toBe(0);
  });

  it("are named in the start line, and counted by the health route, as tools/list lists them for a client with no test id", async () => {
    const scenario = fileURLToPath(new URL("../../examples/scenarios/issue-tracker.json", import.meta.url));
    const child = startCli(["mock", scenario, EXAMPLE_FIXTURES]);
    const servedLine = waitForLine(child, "stdout", /^mcp-testkit mock: serving (.+) at (http:\/\/\S+)$/);
    const catalogLine = waitForLine(child, "stdout", /^ {2}tools: (.*?); .*$/);
    const [, , url] = await servedLine;
    const [, printed] = await catalogLine;
    const client = new Client({ name: "examples", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain("get_weather");
      expect(printed!.split(", ").sort()).toEqual(listed.sort());
      const health = (await (await fetch(new URL("/__mcp-testkit/health", url))).json()) as { tools: number };
      expect(health.tools).toBe(listed.length);
    } finally {
      await client.close();
    }
  });

  it("answer as their README says, served beside the issue-tracker scenario as npm start does", async () => {
    const scenario = fileURLToPath(new URL("../../examples/scenarios/issue-tracker.json", import.meta.url));
    const child = startCli(["mock", scenario, EXAMPLE_FIXTURES]);
    const [, , url] = await waitForLine(child, "stdout", /^mcp-testkit mock: serving (.+) at (http:\/\/\S+)$/);
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: "examples", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers } }));
      return client;
    };
    const retry = await connect({ "X-Test-Id": "tickets%20%3E%20retry%20on%20timeout" });
    const plain = await connect({});
    const readOnly = await connect({ "X-Test-Context": "read-only" });
    const flaky = await connect({ "X-Test-Id": "tickets%20%3E%20flaky%20upstream" });
    try {
      await expect(flaky.callTool({ name: "create_ticket", arguments: { title: "Refund" } })).rejects.toMatchObject({ code: -32000, data: { retryAfterMs: 300 } });
      expect((await flaky.callTool({ name: "create_ticket", arguments: { title: "Refund" } })).content).toEqual([{ type: "text", text: '{"ticket":"T-1043","status":"open"}' }]);
      await expect(flaky.callTool({ name: "create_ticket", arguments: { title: "Refund" } }, undefined, { timeout: 200 })).rejects.toMatchObject({ code: -32001 });
      expect((await retry.callTool({ name: "create_ticket", arguments: { title: "Refund" } })).isError).toBe(true);
      expect((await retry.callTool({ name: "create_ticket", arguments: { title: "Refund" } })).structuredContent).toEqual({ ticket: "T-1042", status: "open" });
      expect((await plain.callTool({ name: "get_weather", arguments: { city: "Oslo" } })).content).toEqual([{ type: "text", text: "Snow, -3 °C" }]);
      expect((await plain.callTool({ name: "get_weather", arguments: { city: "Rome" } })).content).toEqual([{ type: "text", text: "Sunny, 21 °C" }]);
      await expect(readOnly.callTool({ name: "search_issues", arguments: { query: "crash" } })).rejects.toThrow(/search_issues/);
      expect((await readOnly.callTool({ name: "search_docs", arguments: {} })).content).toEqual([{ type: "text", text: "3 documents found" }]);
    } finally {
      for (const client of [retry, plain, readOnly, flaky]) await client.close();
    }
  });
});
