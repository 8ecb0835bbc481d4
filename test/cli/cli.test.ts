/**
 * `mcp-testkit` as a user runs it (the built `dist/cli/main.js`): help, bad usage, bad
 * scenario files with their exact messages, and scenario files in each format served over stdio.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mockMcp, type MockMcpOptions } from "../../src/index.js";
import { COMMANDS } from "../../src/cli/commands.js";
import { help as mockHelp } from "../../src/cli/commands/mock.js";
import { collect, EXAMPLES, exited, REPO, runCli, scenarioFile, scratchFile, startCli, until, useCli } from "./support.js";

useCli();

type Json = Record<string, any>;

const COMMAND_LIST = Object.keys(COMMANDS).join(", ");
const usageError = (command: string, message: string) => `mcp-testkit ${command}: ${message}\nRun "mcp-testkit ${command} --help" for usage.\n`;

describe("mcp-testkit", () => {
  it("--help lists the commands with their summaries, on stdout", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.startsWith("mcp-testkit: test MCP agents, clients and servers.\n\nUsage: mcp-testkit <command> [options]\n")).toBe(true);
    // Names are padded to the longest, so summaries line up.
    const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
    for (const [name, load] of Object.entries(COMMANDS)) expect(result.stdout).toContain(`  ${name.padEnd(width)}  ${(await load()).summary}\n`);
  });

  it.each(Object.keys(COMMANDS))("%s --help prints the command's help", async (name) => {
    const command = await COMMANDS[name]!();
    for (const args of [
      [name, "--help"],
      [name, "-h"],
      ["help", name],
    ]) {
      const result = await runCli(args);
      expect(result).toMatchObject({ code: 0, stdout: `${command.help}\n`, stderr: "" });
    }
  });

  it("mock --help documents every flag", async () => {
    const result = await runCli(["mock", "--help"]);
    for (const flag of ["--port <number>", "--host <host>", "--path <path>", "--stdio", "--record <file>", "-h, --help"]) expect(result.stdout).toContain(flag);
    expect(result.stdout).toBe(`${mockHelp}\n`);
  });

  it("without a command prints the help on stderr and exits 2", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: mcp-testkit <command> [options]");
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    expect(await runCli(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("rejects an unknown command with exit code 2", async () => {
    const result = await runCli(["frobnicate", "x.json"]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `mcp-testkit: unknown command "frobnicate". Commands: ${COMMAND_LIST}.\nRun "mcp-testkit --help" for usage.\n`,
    });
  });

  it("a misspelled command gets a did-you-mean, as every other typo does", async () => {
    const result = await runCli(["mokc", "x.json"]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `mcp-testkit: unknown command "mokc"; did you mean "mock"? Commands: ${COMMAND_LIST}.\nRun "mcp-testkit --help" for usage.\n`,
    });
  });

  it("rejects an unknown option before the command with exit code 2", async () => {
    const result = await runCli(["--verbose", "mock"]);
    expect(result).toMatchObject({ code: 2, stderr: `mcp-testkit: unknown option --verbose. Commands: ${COMMAND_LIST}.\nRun "mcp-testkit --help" for usage.\n` });
  });
});

describe("--help fits a terminal of 100 columns", () => {
  it.each([[[] as string[]], ...Object.keys(COMMANDS).map((command) => [[command]])])("mcp-testkit %j --help: no line is longer than 100 columns", async (command) => {
    const result = await runCli([...command, "--help"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
  });
});

describe("a misspelt option gets the closest option's name, in every command", () => {
  it.each([
    ["mock", "--stdoi", "--stdio"],
    ["inspect", "--timout", "--timeout"],
    ["call", "--agrs", "--args"],
    ["check", "--junti", "--junit"],
    ["record", "--test-di", "--test-id"],
    ["validate", "--jsno", "--json"],
  ])("%s %s: did you mean %s?", async (command, typo, meant) => {
    const result = await runCli([command, typo, "x"]);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: usageError(command, `unknown option ${typo}; did you mean ${meant}?`) });
  });

  it("before a command too", async () => {
    const result = await runCli(["--verison"]);
    expect(result).toMatchObject({ code: 2, stderr: `mcp-testkit: unknown option --verison; did you mean --version? Commands: ${COMMAND_LIST}.\nRun "mcp-testkit --help" for usage.\n` });
  });
});

describe("mcp-testkit mock: bad usage exits 2 with one clear message", () => {
  const json = join(EXAMPLES, "issue-tracker.json");
  it.each([
    [["--prot", "3000", json], "unknown option --prot; did you mean --port?"],
    [["--prot=3000", json], "unknown option --prot; did you mean --port?"],
    [["--frobnicate", json], "unknown option --frobnicate"],
    [["-x", json], "unknown option -x"],
    [[json, "--port"], "option --port needs a value"],
    [["--record", "--stdio", json], "option --record needs a value"],
    [["--stdio=yes", json], "option --stdio does not take a value"],
    [[], "missing the scenario file to serve (or a fixtures directory or file for scenario fakes)"],
    [[json, json], `serves one scenario file at a time, got 2: ${json}, ${json} (fixture files are those with an "mcpFakes" key, or directories)`],
    [["--port", "http", json], '--port must be a port number from 0 to 65535, got "http"'],
    [["--port", "70000", json], '--port must be a port number from 0 to 65535, got "70000"'],
    // A negative number is the option's value (util.parseArgs alone calls it a missing one), so the range check says what is wrong.
    [["--port", "-1", json], '--port must be a port number from 0 to 65535, got "-1"'],
    [["--port=-1", json], '--port must be a port number from 0 to 65535, got "-1"'],
    [["--fake-test-ids-max", "-1", json], '--fake-test-ids-max must be a whole number, 0 or more, got "-1"'],
    [["--fake-test-ids-max=-1", json], '--fake-test-ids-max must be a whole number, 0 or more, got "-1"'],
    [["--stdio", "-1", json], "unknown option -1"],
    [["--path", "mcp", json], '--path must start with "/", such as /mcp, got "mcp"'],
    [["--host", "", json], "--host needs a host name or address, such as 127.0.0.1"],
    [["--stdio", "--port", "3000", json], "--port sets up HTTP serving and cannot be combined with --stdio"],
    [["--stdio", "--host", "0.0.0.0", "--path", "/x", json], "--host, --path set up HTTP serving and cannot be combined with --stdio"],
  ])("mock %j", async (args, message) => {
    const result = await runCli(["mock", ...args]);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: usageError("mock", message) });
  });
});

describe("mcp-testkit mock: a bad scenario exits 1 with a message that names the file", () => {
  async function failsWith(file: string, message: string, extra: string[] = []) {
    const result = await runCli(["mock", "--stdio", ...extra, file]);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `mcp-testkit mock: ${message}\n` });
  }

  it("a missing file", async () => {
    await failsWith("no/such/scenario.json", `Cannot load scenario file "no/such/scenario.json": there is no such file. Relative paths start from ${REPO.replace(/\/$/, "")}.`);
  });

  it("a directory with no fixture file in it", async () => {
    // A rejection whose own text has no full stop gets one before the advice; a scenario with fixtures names both.
    const both = scenarioFile("with-both.json", { tools: { a: { returns: "x" } } });
    const fixture = scenarioFile("both-answers.json", { mcpFakes: { scope: "shared", tools: [{ name: "a", calls: [{ args: {}, result: "x", error: "y" }] }] } });
    await failsWith(
      both,
      `Scenario "${both}" with fixtures "${fixture}" was rejected:\n  mcp-fakes/bad-entry: ${fixture}, block (${fixture}): tools[0].calls[0]: has both "result" and "error"; expected exactly one of them.\nFix the scenario file or the fixtures and run the command again.`,
      [fixture],
    );
    await failsWith(
      "examples/scenarios",
      'Fixtures "examples/scenarios" was rejected:\n  mcp-testkit/scenario: fixtures: the directory "examples/scenarios" holds no fixture file (a .json file with an "mcpFakes" key) at any depth; a scenario is a file, not a directory.\nFix the fixtures and run the command again.',
    );
  });

  it("a directory is not a scenario: it is served as a fixtures directory", async () => {
    const result = await runCli(["mock", "--stdio", "examples/fixtures"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toContain("mcp-testkit mock: serving fixtures examples/fixtures over stdio");
  });

  it("invalid JSON, with the line and column", async () => {
    const file = scratchFile("trailing-comma.json", `{\n  "tools": {\n    "a": { "returns": 1 },\n  }\n}\n`);
    await failsWith(
      file,
      `Scenario file "${file}" is not valid JSON: Expected double-quoted property name at line 4, column 3. ` +
        "A scenario is JSON (or a .js/.ts module whose default export is the options); comments and trailing commas are not JSON.\n" +
        "  4 |   }\n" +
        "    |   ^",
    );
  });

  // Node 20 gives no position for these ("Unexpected token ','"): the line and column are worked out.
  it.each([
    ["a missing value", `{\n  "tools": {\n    "a": { "returns": , }\n  }\n}\n`, "Unexpected token ','", 3, 23],
    ["a bare word", `{ "tools": {\n  "a": yes } }`, "Unexpected token 'y'", 2, 8],
    ["an unfinished file", `{ "tools": {`, "Expected property name or '}'", 1, 13],
  ])("invalid JSON with %s still names the line and column", async (_label, text, reason, line, column) => {
    const file = scratchFile(`bad-${line}-${column}.json`, text);
    const result = await runCli(["mock", "--stdio", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`is not valid JSON: ${reason} at line ${line}, column ${column}. `);
  });

  it("a misspelt top-level key, with the closest option", async () => {
    const file = scenarioFile("tool.json", { tool: { search: { returns: "x" } } });
    const result = await runCli(["mock", "--stdio", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `mcp-testkit mock: Scenario "${file}" was rejected:\n  mcp-testkit/scenario: mockMcp() options has unknown key "tool"; did you mean "tools"? mockMcp() takes "tools", `,
    );
  });

  it("JSON that is not an object", async () => {
    const file = scenarioFile("list.json", [{ returns: 1 }]);
    await failsWith(file, `Scenario file "${file}" must be an object of mockMcp() options such as { "tools": { "search": { "returns": "found" } } }, but it is an array.`);
  });

  it("options that mockMcp() rejects, with mockMcp's own explanation", async () => {
    for (const [name, scenario] of [
      ["typo.json", { tools: { search: [{ retuns: "x" }] } }],
      ["two-answers.json", { tools: { search: { returns: 1, throws: "x" } } }],
      ["bad-resource.json", { resources: { "notes://a": 5 } }],
    ] as const) {
      const rejection = await mockMcp({ ...(scenario as MockMcpOptions), transport: "memory" }).then(
        () => "accepted",
        (error: Error) => error.message.replace(/^\[mcp-testkit\] /, ""),
      );
      expect(rejection).not.toBe("accepted");
      const file = scenarioFile(name, scenario);
      await failsWith(file, `Scenario "${file}" was rejected:\n  mcp-testkit/scenario: ${rejection}\nFix the scenario file and run the command again.`);
    }
  });

  it("a module without a default export", async () => {
    const file = scratchFile("named.mjs", "export const tools = { a: { returns: 1 } };\n");
    await failsWith(file, `Scenario module "${file}" has no default export; end it with \`export default { tools: { ... } }\` (the mockMcp() options).`);
  });

  it("a module that throws while loading", async () => {
    const file = scratchFile("throws.mjs", 'throw new Error("boom at load");\n');
    await failsWith(file, `Scenario module "${file}" failed to load: boom at load`);
  });

  it("a module whose default export is a function", async () => {
    const file = scratchFile("function.mjs", "export default () => ({ tools: {} });\n");
    await failsWith(
      file,
      `The default export of scenario module "${file}" must be an object of mockMcp() options such as { "tools": { "search": { "returns": "found" } } }, but it is a function (export the options object itself).`,
    );
  });

  it("a TypeScript module with a syntax error", async () => {
    const file = scratchFile("broken.ts", "export default { tools: { a: { returns: 1 } };\n");
    const result = await runCli(["mock", "--stdio", file]);
    expect(result.code).toBe(1);
    expect(result.stderr.startsWith(`mcp-testkit mock: Scenario module "${file}" failed to load: `)).toBe(true);
  });

  it("a --record file in a folder that does not exist (checked before serving)", async () => {
    const target = join(scratchFile("missing-folder"), "record.json");
    await failsWith(join(EXAMPLES, "issue-tracker.json"), `Cannot write the call record to "${target}": the folder ${scratchFile("missing-folder")} does not exist.`, ["--record", target]);
  });
});

/** Runs `mock --stdio` on a scenario: sends the messages, waits for `replies` answers, closes stdin. */
async function exchange(scenario: string, messages: unknown[], replies: number) {
  const child = startCli(["mock", "--stdio", scenario]);
  const output = collect(child);
  child.stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
  await until(() => output.stdout.split("\n").length > replies, `${replies} answers; stderr: ${output.stderr}`);
  child.stdin.end();
  const result = await exited(child, output);
  expect(result.code).toBe(0);
  return {
    ...result,
    messages: result.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json),
  };
}

const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cli-test", version: "1" } } };
const call = (id: number, name: string, args: Json = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const answer = (messages: Json[], id: number) => messages.find((message) => message.id === id);

describe("mcp-testkit mock: scenario formats", () => {
  it("JSON (a scenario's own transport is overridden by the command line)", async () => {
    const file = scenarioFile("plain.json", { transport: "memory", tools: { hello: [{ returns: "hi" }, { toolError: "no more" }] } });
    const { messages, stderr } = await exchange(file, [INITIALIZE, call(1, "hello"), call(2, "hello")], 3);
    expect(answer(messages, 1)?.result).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(answer(messages, 2)?.result).toEqual({ content: [{ type: "text", text: "no more" }], isError: true });
    expect(stderr).toMatch(/^hello #1 \{\} → tool-error "no more" \(\d+ ms\)$/m);
  });

  it("a scenario's own fakes (a saved recording's) are named by its file, as fixture files are", async () => {
    const recording = scenarioFile("cli.json", {
      tools: { echo: { throws: "Not recorded" } },
      fixtures: [{ scope: "shared", tools: [{ name: "echo", calls: [{ args: { text: "hi" }, result: "hi" }] }] }],
    });
    const record = scratchFile("replayed-calls.json");
    const child = startCli(["mock", "--stdio", "--record", record, recording]);
    const output = collect(child);
    child.stdin.write([INITIALIZE, call(1, "echo", { text: "hi" })].map((message) => `${JSON.stringify(message)}\n`).join(""));
    await until(() => output.stdout.split("\n").length > 2, `2 answers; stderr: ${output.stderr}`);
    child.stdin.end();
    expect((await exited(child, output)).code).toBe(0);
    const { calls } = JSON.parse(readFileSync(record, "utf8")) as { calls: Array<{ fake?: string; outcome: string }> };
    expect(calls.map(({ fake, outcome }) => ({ fake, outcome }))).toEqual([{ fake: `${recording}:echo#0`, outcome: "result" }]);
  });

  it("a JS module whose steps are functions", async () => {
    const file = scratchFile("greeter.mjs", "export default { tools: { greet: (call) => ({ returns: `hello ${call.arguments.name} (call ${call.index})` }) } };\n");
    const { messages } = await exchange(file, [INITIALIZE, call(1, "greet", { name: "Ada" }), call(2, "greet", { name: "Alan" })], 3);
    expect(answer(messages, 1)?.result.content[0].text).toBe("hello Ada (call 0)");
    expect(answer(messages, 2)?.result.content[0].text).toBe("hello Alan (call 1)");
  });

  it("a CommonJS module (.cjs, module.exports)", async () => {
    const file = scratchFile("common.cjs", 'module.exports = { tools: { legacy: { returns: "from cjs" } } };\n');
    const { messages } = await exchange(file, [INITIALIZE, call(1, "legacy")], 2);
    expect(answer(messages, 1)?.result.content[0].text).toBe("from cjs");
  });

  it("the bundled TypeScript example: function steps and an outputSchema", async () => {
    const { messages, stderr } = await exchange(join(EXAMPLES, "weather.ts"), [INITIALIZE, call(1, "get_weather", { city: "Paris" }), call(2, "get_weather", { city: "Rome" })], 3);
    expect(answer(messages, 0)?.result.serverInfo).toEqual({ name: "weather-mock", version: "1.0.0" });
    expect(answer(messages, 1)?.result.structuredContent).toEqual({ city: "Paris", tempC: 21, conditions: "cloudy" });
    expect(answer(messages, 2)?.result).toMatchObject({ isError: true, content: [{ type: "text", text: "Unknown city: Rome. Known cities: Paris, Oslo, Lagos" }] });
    expect(stderr).toContain("tools: get_weather, get_forecast; 2 resources; 0 prompts.");
  });

  it("a TypeScript module outside any package (compiled as CommonJS), with types", async () => {
    const folder = scratchFile("loose-ts");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "scenario.ts");
    scratchFile(
      "loose-ts/scenario.ts",
      [
        "interface Args { a: number; b: number }",
        "const add = (args: Args): number => args.a + args.b;",
        "export default { tools: { add: (call: { arguments: Args }) => ({ returns: String(add(call.arguments)) }) } };",
        "",
      ].join("\n"),
    );
    const { messages } = await exchange(file, [INITIALIZE, call(1, "add", { a: 2, b: 3 })], 2);
    expect(answer(messages, 1)?.result.content[0].text).toBe("5");
  });

  it("the bundled issue-tracker example loads with every tool, resource and prompt", async () => {
    const { messages } = await exchange(
      join(EXAMPLES, "issue-tracker.json"),
      [
        INITIALIZE,
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "resources/list" },
        { jsonrpc: "2.0", id: 3, method: "resources/templates/list" },
        { jsonrpc: "2.0", id: 4, method: "prompts/list" },
      ],
      5,
    );
    expect(answer(messages, 1)?.result.tools.map((tool: Json) => tool.name)).toEqual(["search_issues", "get_issue", "add_comment"]);
    expect(answer(messages, 2)?.result.resources.map((resource: Json) => resource.uri)).toEqual(["tracker://labels"]);
    expect(answer(messages, 3)?.result.resourceTemplates.map((template: Json) => template.uriTemplate)).toEqual(["tracker://issues/{id}"]);
    expect(answer(messages, 4)?.result.prompts.map((prompt: Json) => prompt.name)).toEqual(["triage"]);
  });
});

describe("mcp-testkit mock --stdio: the lines for people, on stderr", () => {
  const scenario = join(EXAMPLES, "issue-tracker.json");
  /** The session lines' form over every wire: `session 1b2c3d4e… opened (stdio)`. */
  const sessionLine = (what: string) => new RegExp(`^session ([0-9a-f]{8})… ${what}$`);

  it("prints a line when its session opens and when it closes, as over HTTP", async () => {
    const { stderr } = await exchange(scenario, [INITIALIZE, call(1, "get_issue", { id: 1 })], 2);
    const lines = stderr.split("\n");
    expect(lines).toEqual([
      `mcp-testkit mock: serving ${scenario} over stdio`,
      "  tools: search_issues, get_issue, add_comment; 2 resources; 1 prompt. Close stdin or press Ctrl-C to stop.",
      expect.stringMatching(sessionLine("opened \\(stdio\\)")),
      expect.stringMatching(/^get_issue #0 \{"id":1\} → result \(\d+ ms\)$/),
      expect.stringMatching(sessionLine("closed: the client closed the connection \\(stdin ended\\)")),
      "mcp-testkit mock: stopped (stdin closed)",
      "",
    ]);
    // Both lines name the one session.
    expect(sessionLine("opened \\(stdio\\)").exec(lines[2]!)![1]).toBe(sessionLine("closed: .*").exec(lines[4]!)![1]);
  });

  it("a client that closes stdin without a word opened no session: no session lines, and the mock stops", async () => {
    const result = await runCli(["mock", "--stdio", scenario]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/serving/);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("session "))).toEqual([]);
  });
});
