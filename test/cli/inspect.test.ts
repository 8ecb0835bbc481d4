/**
 * `mcp-testkit inspect` as a user runs it (the built CLI): server-everything over stdio, our
 * mock over Streamable HTTP (with headers), the human and --json forms, and the errors: bad
 * usage (exit 2), a server that fails to start, an address nobody listens on, a silent server.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { REPO, runCli, useCli } from "./support.js";
import { freePort } from "../support/ports.js";

useCli();

type Json = Record<string, any>;

const everything = `"${join(REPO, "node_modules", ".bin", "mcp-server-everything")}" stdio`;
const usage = (message: string) => `mcp-testkit inspect: ${message}\nRun "mcp-testkit inspect --help" for usage.\n`;

describe("mcp-testkit inspect over stdio", () => {
  it("--json lists server-everything's info, capabilities, tools with schemas, resources, templates and prompts", async () => {
    const result = await runCli(["inspect", everything, "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as Json;
    expect(Object.keys(report)).toEqual([
      "target",
      "transport",
      "protocolVersion",
      "era",
      "fallbackReason",
      "serverInfo",
      "capabilities",
      "instructions",
      "tools",
      "resources",
      "resourceTemplates",
      "prompts",
      "problems",
    ]);
    expect(report).toMatchObject({
      target: everything,
      transport: "stdio",
      protocolVersion: "2025-11-25",
      era: "legacy",
      // The default (auto) asked server/discover first; a legacy server refuses it, as it should.
      fallbackReason: expect.stringMatching(/^server\/discover failed: .*-32601/),
      serverInfo: { name: "mcp-servers/everything" },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {} },
      problems: [],
    });
    const tools = report.tools as Json[];
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation"]));
    expect(tools.find((tool) => tool.name === "echo")).toMatchObject({
      description: "Echoes back the input string",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    });
    expect(tools.find((tool) => tool.name === "get-structured-content")!.outputSchema).toMatchObject({ type: "object", properties: { temperature: { type: "number" } } });
    expect((report.resources as Json[]).map((resource) => resource.uri)).toContain("demo://resource/static/document/architecture.md");
    expect((report.resourceTemplates as Json[]).map((template) => template.uriTemplate)).toContain("demo://resource/dynamic/blob/{resourceId}");
    expect((report.prompts as Json[]).map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
  });

  it("prints a readable summary by default; a legacy server met by the default era is shown plainly, with no fallback reason", async () => {
    const result = await runCli(["inspect", everything]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      'Server:       mcp-servers/everything 2.0.0 ("Everything Reference Server")',
      "Protocol:     2025-11-25 (legacy era: initialize)",
      `Transport:    stdio, ${everything}`,
      "Capabilities: tools (listChanged), prompts (listChanged), resources (subscribe, listChanged), logging, tasks, completions",
    ]);
    expect(lines).toContain("Tools (13)");
    expect(lines).toContain('  echo ("Echo Tool") — Echoes back the input string');
    expect(lines).toContain("      message: string — Message to echo");
    expect(lines).toContain('      messageType: "error" | "success" | "debug" — Type of message to demonstrate different annotation patterns');
    expect(lines).toContain("      count?: number (1..10) = 3 — Number of resource links to return (1-10)");
    expect(lines).toContain("    output:");
    expect(lines).toContain("Resources (7)");
    expect(lines).toContain("  demo://resource/static/document/architecture.md  architecture.md (text/markdown) — Static document file exposed from /docs: architecture.md");
    expect(lines).toContain("Resource templates (2)");
    expect(lines).toContain("Prompts (4)");
    expect(lines).toContain("    city: string — Name of the city");
  });

  it("still shows a server whose definitions break the schema, and lists the problems", async () => {
    const server = `"${process.execPath}" "${join(REPO, "test", "cli", "servers", "broken.mjs")}" --bad-tools`;
    const json = await runCli(["inspect", server, "--json"]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Json;
    expect((report.tools as Json[]).map((tool) => tool.name)).toEqual(["fine", "string-schema", undefined]);
    expect(report.problems).toEqual([
      { method: "tools/list", path: "$.result.tools[1].inputSchema.type", message: 'expected "object"; got "string"', rule: "result.shape" },
      { method: "tools/list", path: "$.result.tools[2].name", message: 'required field "name" is missing; expected a string', rule: "result.shape" },
    ]);
    const human = await runCli(["inspect", server]);
    expect(human.stdout).toContain("Problems:     2 schema problems in what the server sent (see --json, or run mcp-testkit check)\n");
  });

  it("a server that fails to start: exit 1 with the command, exit code and stderr", async () => {
    const command = `"${process.execPath}" -e "console.error('config.json not found'); process.exit(3)"`;
    const result = await runCli(["inspect", command]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`mcp-testkit inspect: cannot start the server "${command}": The server process exited before answering server/discover: it failed to start (or exited at once).`);
    expect(result.stderr).toContain(`  command: ${command} (pid `);
    expect(result.stderr).toContain("  process: exit code 3\n");
    expect(result.stderr).toContain("  stderr (1 line):\n    | config.json not found\n");
  });

  it("a command that does not exist: exit 1, and the shell's complaint is shown", async () => {
    const result = await runCli(["inspect", "mcp-testkit-no-such-command --stdio"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('mcp-testkit inspect: cannot start the server "mcp-testkit-no-such-command --stdio"');
    expect(result.stderr).toContain("  process: exit code 127\n");
    expect(result.stderr).toMatch(/\| .*mcp-testkit-no-such-command.*not found/);
  });

  it("a server that never answers: exit 1 after --timeout", async () => {
    const command = `"${process.execPath}" -e "setInterval(() => {}, 1000)"`;
    // runCli's own bound (10 s) guards a hang; the message says which timeout fired.
    const result = await runCli(["inspect", command, "--timeout", "300"]);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(`mcp-testkit inspect: the server "${command}" did not answer initialize within 300 ms (raise --timeout if it is just slow)`);
  });

  it("an option missing its value, or given one it does not take, is named as it was written (the short form too)", async () => {
    expect(await runCli(["inspect", everything, "-H"])).toMatchObject({ code: 2, stderr: usage("option -H needs a value") });
    expect(await runCli(["inspect", everything, "--header", "--json"])).toMatchObject({ code: 2, stderr: usage("option --header needs a value") });
    expect(await runCli(["inspect", everything, "--json=yes"])).toMatchObject({ code: 2, stderr: usage("option --json does not take a value") });
  });

  it("bad usage exits 2 with a message", async () => {
    expect(await runCli(["inspect"])).toMatchObject({ code: 2, stdout: "", stderr: usage('missing the target: a command that starts a stdio server (e.g. "node server.js") or an http(s) URL') });
    expect(await runCli(["inspect", "node", "server.js"])).toMatchObject({
      code: 2,
      stderr: usage('takes one target, got 2: "node" "server.js"; quote a command with arguments, e.g. mcp-testkit inspect "node server.js --port 1"'),
    });
    expect(await runCli(["inspect", everything, "--frobnicate"])).toMatchObject({ code: 2, stderr: usage("unknown option --frobnicate") });
    expect(await runCli(["inspect", everything, "--timeout", "0"])).toMatchObject({ code: 2, stderr: usage('--timeout must be a number of milliseconds from 1 to 3600000, got "0"') });
    // A negative number is the option's value, not a missing one: the range check answers, in both spellings.
    for (const args of [["--timeout", "-5"], ["--timeout=-5"]]) {
      expect(await runCli(["inspect", "http://127.0.0.1:1/mcp", ...args])).toMatchObject({
        code: 2,
        stdout: "",
        stderr: usage('--timeout must be a number of milliseconds from 1 to 3600000, got "-5"'),
      });
    }
    expect(await runCli(["inspect", everything, "--header", "X-Key: 1"])).toMatchObject({ code: 2, stderr: usage("--header is for URL targets; a stdio server gets no HTTP headers") });
    expect(await runCli(["inspect", "http://127.0.0.1:1/mcp", "--header", "no colon"])).toMatchObject({ code: 2, stderr: usage('--header must look like "Name: value", got "no colon"') });
    expect(await runCli(["inspect", "http://127.0.0.1:1/mcp", "--header", "X-Test-Id: tickets › retry"])).toMatchObject({
      code: 2,
      stderr: usage(
        '--header "X-Test-Id" has a character an HTTP header cannot carry (U+203A); percent-encode the value (X-Test-Id: tickets%20%E2%80%BA%20retry): the mock\'s X-Test-Id and context headers are percent-decoded',
      ),
    });
    expect(await runCli(["inspect", "http://"])).toMatchObject({ code: 2, stderr: usage('"http://" is not a valid URL') });
  });
});

describe("mcp-testkit inspect over Streamable HTTP", () => {
  let mock: MockMcpServer;
  let front: Server;
  const seen: IncomingHttpHeaders[] = [];

  afterAll(async () => {
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await mock?.close();
  });

  it("--json shows the mock's catalog; --header goes with every request", async () => {
    // The mock behind a small server of ours, to see the headers that arrive.
    mock = await mockMcp({
      transport: "memory",
      tools: { search: { description: "Search issues", inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] }, responses: { returns: "ok" } } },
      resources: { "file:///readme.md": { name: "readme", mimeType: "text/markdown", text: "# hi" }, "file:///logs/{day}.txt": { name: "logs", read: () => "log" } },
      capabilities: { tools: {}, resources: {} },
    });
    front = createHttpServer((req, res) => {
      seen.push(req.headers);
      mock.handler(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(front.address() as { port: number }).port}/mcp`;

    const result = await runCli(["inspect", url, "--json", "-H", "Authorization: Bearer t0ken", "--header", "X-Team: qa"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Json;
    expect(report).toMatchObject({
      target: url,
      transport: "http",
      // The default era is the library's (auto): our mock speaks 2026-07-28.
      protocolVersion: "2026-07-28",
      era: "modern",
      serverInfo: { name: "mcp-testkit" },
      capabilities: { tools: {}, resources: {} },
      tools: [{ name: "search", description: "Search issues", inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }],
      resources: [{ uri: "file:///readme.md", name: "readme", mimeType: "text/markdown" }],
      resourceTemplates: [{ uriTemplate: "file:///logs/{day}.txt", name: "logs" }],
      prompts: null,
      problems: [],
    });
    // 2026-07-28: one request per method, no session to open or end.
    expect(seen.map((headers) => headers["mcp-method"])).toEqual(["server/discover", "tools/list", "resources/list", "resources/templates/list"]);
    for (const headers of seen) expect(headers).toMatchObject({ authorization: "Bearer t0ken", "x-team": "qa" });
    for (const headers of seen) expect(headers).not.toHaveProperty("mcp-session-id");
  });

  it("prints lists the server does not advertise as such", async () => {
    const server = await mockMcp({ tools: { ping_me: { returns: "pong" } }, capabilities: { tools: {} } });
    try {
      const result = await runCli(["inspect", server.url!]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Transport:    Streamable HTTP, ${server.url}\nCapabilities: tools\n`);
      expect(result.stdout).toContain("\nTools (1)\n  ping_me — Mock tool: ping_me\n    input:\n      (no declared parameters)\n");
      expect(result.stdout).toContain("\nResources: not advertised\n\nResource templates: not advertised\n\nPrompts: not advertised\n");
    } finally {
      await server.close();
    }
  });

  it("an address nobody listens on: exit 1, cannot reach, with the network cause", async () => {
    const port = await freePort();
    const result = await runCli(["inspect", `http://127.0.0.1:${port}/mcp`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    // What happened first, in plain words (not the handshake's method), then the detail.
    expect(result.stderr).toMatch(
      new RegExp(
        `^mcp-testkit inspect: Nothing answered at http://127\\.0\\.0\\.1:${port}/mcp \\(connection refused\\), so server\\/discover \\(id 1\\) was not sent\\. Is the server running, on this port\\? Detail: fetch failed \\(.*ECONNREFUSED`,
      ),
    );
  });
});

describe("mcp-testkit inspect against a server that does not exit when its stdin closes", () => {
  it("works, then notes the slow exit without the library's advice about close()'s timeout (the CLI has no such option)", async () => {
    const server = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "ignores-stdin-close.mjs")}"`;
    const result = await runCli(["inspect", server], { timeoutMs: 20_000 });
    expect(result.stdout).toContain("Server:       zoo 1.0.0");
    expect(result.stderr).toMatch(
      /note: The server was still running 2000 ms after its stdin was closed, so mcp-testkit killed its whole process tree\. A stdio server should exit when its stdin closes \(MCP lifecycle, shutdown\)\./,
    );
    expect(result.stderr).not.toContain("close()");
  });
});
