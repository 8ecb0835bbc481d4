/**
 * The era flags of `mcp-testkit inspect` and `call` (the built CLI): `--version-negotiation
 * legacy|auto|pin` and `--protocol-version`, read into the driver's own `versionNegotiation`.
 * Against our dual-era mock (over HTTP and over stdio), a server built with the official SDK v2
 * (over stdio, and over HTTP both dual-era and modern-only) and a legacy-only server
 * (server-everything); each run says which era it spoke; bad combinations exit 2. Without a flag
 * the CLI negotiates as the driver does by default (auto).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useSdkV2Http, type SdkV2HandlerOptions } from "../support/sdk-v2-http.js";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { CLI, REPO, runCli, scenarioFile, scratchFile, useCli } from "./support.js";

useCli();

type Json = Record<string, any>;

const MODERN_LINE = "mcp-testkit call: protocol 2026-07-28 (modern era: server/discover, no session)\n";
const legacyLine = (version = "2025-11-25") => `mcp-testkit call: protocol ${version} (legacy era: initialize)\n`;
const everything = `"${join(REPO, "node_modules", ".bin", "mcp-server-everything")}" stdio`;
const sdkV2Stdio = `"${process.execPath}" "${fileURLToPath(new URL("../driver/servers/sdk-v2-server.mjs", import.meta.url))}" stdio`;
const usage = (command: string, message: string) => `mcp-testkit ${command}: ${message}\nRun "mcp-testkit ${command} --help" for usage.\n`;

const echo = { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, responses: (call: { arguments: Json }) => ({ returns: String(call.arguments.text) }) };

describe("call and inspect against our mock over Streamable HTTP (both eras)", () => {
  let server: MockMcpServer;
  beforeAll(async () => {
    server = await mockMcp({ tools: { echo } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("--version-negotiation auto speaks 2026-07-28 and says so; the mock records the call in that era", async () => {
    const result = await runCli(["call", server.url!, "echo", '{"text":"hi"}', "--version-negotiation", "auto"]);
    expect(result).toMatchObject({ code: 0, stdout: "hi\n", stderr: MODERN_LINE });
    expect(server.calls.at(-1)).toMatchObject({ tool: "echo", arguments: { text: "hi" }, protocolVersion: "2026-07-28" });
  });

  it("pin, and --protocol-version 2026-07-28 alone, speak it too; --json keeps stdout the result", async () => {
    expect(await runCli(["call", server.url!, "echo", "--args", '{"text":"pinned"}', "--version-negotiation", "pin"])).toMatchObject({ code: 0, stdout: "pinned\n", stderr: MODERN_LINE });
    const json = await runCli(["call", server.url!, "echo", '{"text":"j"}', "--protocol-version", "2026-07-28", "--json"]);
    expect(json).toMatchObject({ code: 0, stderr: MODERN_LINE });
    expect(JSON.parse(json.stdout)).toMatchObject({ content: [{ type: "text", text: "j" }], resultType: "complete" });
    expect(server.calls.slice(-2).map((call) => call.protocolVersion)).toEqual(["2026-07-28", "2026-07-28"]);
  });

  it("legacy and a legacy --protocol-version speak initialize; no flag at all speaks 2026-07-28, as the library's default does, with no line on stderr", async () => {
    expect(await runCli(["call", server.url!, "echo", '{"text":"a"}', "--version-negotiation", "legacy"])).toMatchObject({ code: 0, stdout: "a\n", stderr: legacyLine() });
    expect(await runCli(["call", server.url!, "echo", '{"text":"b"}', "--protocol-version", "2025-06-18"])).toMatchObject({ code: 0, stdout: "b\n", stderr: legacyLine("2025-06-18") });
    expect(await runCli(["call", server.url!, "echo", '{"text":"c"}'])).toMatchObject({ code: 0, stdout: "c\n", stderr: "" });
    expect(server.calls.slice(-3).map((call) => call.protocolVersion)).toEqual(["2025-11-25", "2025-06-18", "2026-07-28"]);
  });

  it("inspect shows the era in its Protocol line and in --json", async () => {
    const modern = await runCli(["inspect", server.url!, "--version-negotiation", "auto"]);
    expect(modern).toMatchObject({ code: 0, stderr: "" });
    expect(modern.stdout.split("\n").slice(0, 2)).toEqual(["Server:       mcp-testkit 0.1.0", "Protocol:     2026-07-28 (modern era: server/discover, no session)"]);
    expect(modern.stdout).toContain("Tools (1)\n  echo — Mock tool: echo\n    input:\n      text: string\n");
    const report = JSON.parse((await runCli(["inspect", server.url!, "--json", "--version-negotiation", "pin"])).stdout) as Json;
    expect(report).toMatchObject({ protocolVersion: "2026-07-28", era: "modern", tools: [{ name: "echo" }] });
    expect(report).not.toHaveProperty("fallbackReason");
    const legacy = JSON.parse((await runCli(["inspect", server.url!, "--json", "--version-negotiation", "legacy"])).stdout) as Json;
    expect(legacy).toMatchObject({ protocolVersion: "2025-11-25", era: "legacy" });
    expect(legacy).not.toHaveProperty("fallbackReason");
    // No flag: the driver's default, auto, which finds 2026-07-28 on our mock.
    const unflagged = await runCli(["inspect", server.url!]);
    expect(unflagged).toMatchObject({ code: 0, stderr: "" });
    expect(unflagged.stdout.split("\n")[1]).toBe("Protocol:     2026-07-28 (modern era: server/discover, no session)");
  });
});

describe("call against our mock over stdio (mcp-testkit mock --stdio)", () => {
  const mockCommand = () => `"${process.execPath}" "${CLI}" mock --stdio "${scenarioFile("echo.json", { tools: { echo: { returns: "from stdio" } } })}"`;

  it("auto speaks 2026-07-28, legacy speaks initialize, each on its own stdio server", async () => {
    expect(await runCli(["call", mockCommand(), "echo", "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "from stdio\n", stderr: MODERN_LINE });
    expect(await runCli(["call", mockCommand(), "echo", "--version-negotiation", "legacy"])).toMatchObject({ code: 0, stdout: "from stdio\n", stderr: legacyLine() });
  });
});

describe("our mock serving only 2026-07-28: the default reaches it; legacy asked for is refused, and the CLI points at the flag", () => {
  const HINT = "It speaks only 2026-07-28, per request with no initialize: use --version-negotiation auto (the default) or pin.";
  const modernOnly = { protocolVersions: ["2026-07-28"], tools: { echo: { returns: "modern only" } } };

  it("over stdio: no flag works; legacy gets the -32022 that names what it speaks, then the hint; no stack trace", async () => {
    const command = `"${process.execPath}" "${CLI}" mock --stdio "${scenarioFile("modern-only.json", modernOnly)}"`;
    expect(await runCli(["call", command, "echo"])).toMatchObject({ code: 0, stdout: "modern only\n", stderr: "" });
    const refused = await runCli(["call", command, "echo", "--version-negotiation", "legacy"]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toMatch(/^mcp-testkit call: The server answered initialize with JSON-RPC error -32022 .*this server speaks 2026-07-28 per request/);
    expect(refused.stderr.split("\n")[0]!.endsWith(HINT)).toBe(true);
    expect(refused.stderr).not.toMatch(/    at |unexpected error|versionNegotiation/);
    expect(await runCli(["call", command, "echo", "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "modern only\n", stderr: MODERN_LINE });
  });

  it("a server that refuses initialize gets its error in plain words, no hint and no stack trace, with legacy asked and by default", async () => {
    // A raw stdio server: every request is answered with -32603, as a broken server would.
    const script = scratchFile(
      "refuses.mjs",
      `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "database is down" } }) + "\\n");
});`,
    );
    const refused = await runCli(["call", `"${process.execPath}" "${script}"`, "echo", "--version-negotiation", "legacy"]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toMatch(/^mcp-testkit call: The server answered initialize with JSON-RPC error -32603 \(InternalError\): "database is down"/);
    expect(refused.stderr).not.toMatch(/    at |unexpected error|--version-negotiation/);
    // The default asks server/discover first: refused with -32603 (no modern answer), it falls back to initialize, refused too.
    const unflagged = await runCli(["call", `"${process.execPath}" "${script}"`, "echo"]);
    expect(unflagged).toMatchObject({ code: 1, stdout: "" });
    expect(unflagged.stderr).toMatch(/^mcp-testkit call: The server answered initialize with JSON-RPC error -32603 \(InternalError\): "database is down"/);
    expect(unflagged.stderr).not.toMatch(/    at |unexpected error|--version-negotiation/);
  });

  it("over HTTP: no flag works; legacy gets the 400 -32022, then the hint", async () => {
    const server = await mockMcp(modernOnly);
    try {
      expect(await runCli(["call", server.url!, "echo"])).toMatchObject({ code: 0, stdout: "modern only\n", stderr: "" });
      expect(await runCli(["call", server.url!, "echo", "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "modern only\n", stderr: MODERN_LINE });
      // Legacy asked for: the refusal in the CLI's words (no "cannot reach": the server answered), with the flag to use.
      const legacy = await runCli(["call", server.url!, "echo", "--version-negotiation", "legacy"]);
      expect(legacy).toMatchObject({ code: 1, stdout: "" });
      expect(legacy.stderr).toMatch(
        /^mcp-testkit call: The server refused initialize \(id 1\) with HTTP 400: .*-32022.* It speaks only 2026-07-28, per request with no initialize: use --version-negotiation auto \(the default\) or pin\.\n/,
      );
      expect(legacy.stderr).not.toMatch(/cannot reach|versionNegotiation|    at /);
    } finally {
      await server.close();
    }
  });
});

describe("against a server built with the official SDK v2", () => {
  const startSdkV2 = useSdkV2Http();
  const serveSdkV2 = async (options?: SdkV2HandlerOptions) => (await startSdkV2(options)).url;

  it("over stdio: auto and pin speak 2026-07-28, legacy 2025-11-25; inspect --json says which", async () => {
    expect(await runCli(["call", sdkV2Stdio, "add", '{"a":2,"b":3}', "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "5\n", stderr: MODERN_LINE });
    expect(await runCli(["call", sdkV2Stdio, "add", '{"a":2,"b":3}', "--version-negotiation", "pin"])).toMatchObject({ code: 0, stdout: "5\n", stderr: MODERN_LINE });
    expect(await runCli(["call", sdkV2Stdio, "add", '{"a":2,"b":3}', "--version-negotiation", "legacy"])).toMatchObject({ code: 0, stdout: "5\n", stderr: legacyLine() });
    const report = JSON.parse((await runCli(["inspect", sdkV2Stdio, "--json", "--version-negotiation", "auto"])).stdout) as Json;
    expect(report).toMatchObject({ protocolVersion: "2026-07-28", era: "modern", serverInfo: { name: "sdk-v2-fixture" }, resources: [{ uri: "notes://today" }] });
    expect((report.tools as Json[]).map((tool) => tool.name).sort()).toEqual(["add", "confirm"]);
  });

  it("over HTTP: auto speaks 2026-07-28 and reads a resource; legacy speaks initialize", async () => {
    const url = await serveSdkV2();
    expect(await runCli(["call", url, "add", '{"a":20,"b":22}', "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "42\n", stderr: MODERN_LINE });
    expect(await runCli(["call", url, "--read", "notes://today", "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "Ship it.\n", stderr: MODERN_LINE });
    expect(await runCli(["call", url, "add", '{"a":1,"b":1}', "--version-negotiation", "legacy"])).toMatchObject({ code: 0, stdout: "2\n", stderr: legacyLine() });
  });

  it("a modern-only endpoint: auto and no flag work; legacy asked for fails, showing the -32022 and pointing at the flag", async () => {
    const url = await serveSdkV2({ legacy: "reject" });
    expect(await runCli(["call", url, "add", '{"a":1,"b":2}', "--version-negotiation", "auto"])).toMatchObject({ code: 0, stdout: "3\n", stderr: MODERN_LINE });
    expect(await runCli(["call", url, "add", '{"a":1,"b":2}'])).toMatchObject({ code: 0, stdout: "3\n", stderr: "" });
    const refused = await runCli(["call", url, "add", '{"a":1,"b":2}', "--version-negotiation", "legacy"]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toMatch(
      /^mcp-testkit call: The server refused initialize \(id 1\) with HTTP 400: .*"code":-32022.*\. It speaks only 2026-07-28, per request with no initialize: use --version-negotiation auto \(the default\) or pin\.\n$/s,
    );
    expect(refused.stderr).not.toMatch(/versionNegotiation|    at /);
  });
});

describe("a 2026-07-28 server that refuses the probe", () => {
  it("pin fails in the CLI's words: the server's error, what was asked, the flag to check, and that the CLI declares no capabilities (no library option names)", async () => {
    // A raw endpoint: server/discover answered with -32021 (a client capability it requires), as a picky server would.
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        const error = { code: -32021, message: "this server needs the roots capability", data: { required: ["roots"] } };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id ?? null, error }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const refused = await runCli(["call", url, "echo", '{"text":"hi"}', "--version-negotiation", "pin"]);
      expect(refused).toMatchObject({ code: 1, stdout: "" });
      expect(refused.stderr).toMatch(
        /^mcp-testkit call: The server speaks the modern era \(2026-07-28\) but refused this client's server\/discover with -32021 "this server needs the roots capability" \(data: \{"required":\["roots"\]\}\); it asked for 2026-07-28\. Check --protocol-version \(the version asked for\)\. The CLI declares no client capabilities \(roots, sampling, elicitation\): a server that requires one is reached from a test, with mcpShell or mcpConnect declaring it\.\n/,
      );
      expect(refused.stderr).not.toMatch(/versionNegotiation|protocolVersion|onSampling|\[mcp-testkit\]|    at /);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("call on a 2026-07-28 tool that asks the client for input", () => {
  it("says the CLI declares no client capabilities and to test such a tool from code (not to pass a driver option)", async () => {
    await using mock = await mockMcp({
      tools: { confirm: async (call) => ({ returns: String((await call.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } })).action) }) },
    });
    const refused = await runCli(["call", mock.url, "confirm", "--version-negotiation", "auto"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /-32021 .*\. The CLI declares no client capabilities \(roots, sampling, elicitation\), so it cannot answer what the server asks; test such a tool from code, with mcpShell or mcpConnect and onElicitation, onSampling or roots/,
    );
    expect(refused.stderr).not.toMatch(/pass onElicitation/);
  });
});

describe("against a legacy-only server (server-everything over stdio)", () => {
  it("auto falls back to initialize and says why; pin fails in the CLI's words", async () => {
    const auto = await runCli(["call", everything, "echo", '{"message":"hi"}', "--version-negotiation", "auto"]);
    expect(auto).toMatchObject({ code: 0, stdout: "Echo: hi\n" });
    expect(auto.stderr).toBe(
      'mcp-testkit call: protocol 2025-11-25 (legacy era: initialize, since server/discover failed: The server answered server/discover with JSON-RPC error -32601 (MethodNotFound): "Method not found")\n',
    );
    const pin = await runCli(["call", everything, "echo", '{"message":"hi"}', "--version-negotiation", "pin"]);
    expect(pin).toMatchObject({ code: 1, stdout: "" });
    expect(pin.stderr).toMatch(
      /^mcp-testkit call: The server does not speak MCP 2026-07-28 \(--version-negotiation pin\): server\/discover failed: .*-32601.*\. A legacy server needs --version-negotiation auto \(the default: probe, then initialize\) or legacy\.\n  command: /,
    );
    expect(pin.stderr).not.toMatch(/versionNegotiation|\[mcp-testkit\]|    at /);
    const report = JSON.parse((await runCli(["inspect", everything, "--json", "--version-negotiation", "auto"])).stdout) as Json;
    expect(report).toMatchObject({ protocolVersion: "2025-11-25", era: "legacy", fallbackReason: expect.stringMatching(/-32601/) });
    // Three starts of server-everything through npx: room for a loaded machine.
  }, 60_000);

  it("with no flag the fallback is the normal way to meet a legacy server: the protocol is shown plainly; auto asked for says why", async () => {
    const unflagged = await runCli(["inspect", everything]);
    expect(unflagged).toMatchObject({ code: 0, stderr: "" });
    expect(unflagged.stdout.split("\n")[1]).toBe("Protocol:     2025-11-25 (legacy era: initialize)");
    const asked = await runCli(["inspect", everything, "--version-negotiation", "auto"]);
    expect(asked.stdout.split("\n")[1]).toBe(
      'Protocol:     2025-11-25 (legacy era: initialize, since server/discover failed: The server answered server/discover with JSON-RPC error -32601 (MethodNotFound): "Method not found")',
    );
  });
});

describe("era flags: bad usage exits 2", () => {
  it.each([
    [["--version-negotiation", "sometimes"], '--version-negotiation must be legacy, auto or pin, got "sometimes"'],
    [["--protocol-version", "2024-01-01"], '--protocol-version "2024-01-01" is not a revision mcp-testkit knows (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)'],
    [
      ["--version-negotiation", "legacy", "--protocol-version", "2026-07-28"],
      "--protocol-version 2026-07-28 has no initialize handshake, so --version-negotiation legacy cannot ask for it: use auto or pin",
    ],
    [
      ["--version-negotiation", "pin", "--protocol-version", "2025-06-18"],
      "--version-negotiation pin speaks a revision per request (2026-07-28); 2025-06-18 is spoken through initialize: use --version-negotiation legacy (or auto)",
    ],
    [["--version-negotiation"], "option --version-negotiation needs a value"],
  ])("%j", async (flags, message) => {
    expect(await runCli(["call", everything, "echo", ...flags])).toMatchObject({ code: 2, stdout: "", stderr: usage("call", message) });
    expect(await runCli(["inspect", everything, ...flags])).toMatchObject({ code: 2, stdout: "", stderr: usage("inspect", message) });
  });

  it("the arguments once: after the tool name or in --args", async () => {
    expect(await runCli(["call", everything, "echo", '{"message":"a"}', "--args", '{"message":"b"}'])).toMatchObject({
      code: 2,
      stderr: usage("call", "give the arguments once: after the tool name or in --args, not both"),
    });
    expect(await runCli(["call", everything, "echo", "{oops"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`the arguments after the tool name must be a JSON object such as '{"message":"hi"}': `),
    });
  });

  it("--help of both commands lists the flags", async () => {
    for (const command of ["call", "inspect"]) {
      const help = await runCli([command, "--help"]);
      expect(help.stdout).toContain("--version-negotiation <mode>");
      expect(help.stdout).toContain("--protocol-version <v>");
    }
  });
});
