/**
 * `mcp-testkit check` as a user runs it (the built CLI): the reference server-everything over
 * stdio and Streamable HTTP, our mock over HTTP, and deliberately broken stdio servers, each
 * with the exact check names, statuses and exit codes; the human and --json forms; errors.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { readFileSync } from "node:fs";
import { MODERN_COMMON, MODERN_HTTP, REPO, runCli, scratchFile, startCli, until, useCli } from "./support.js";
import { freePort } from "../support/ports.js";

useCli();

type Json = Record<string, any>;

const everythingBin = join(REPO, "node_modules", ".bin", "mcp-server-everything");
const everything = `"${everythingBin}" stdio`;
const broken = (...flags: string[]) => [`"${process.execPath}"`, `"${join(REPO, "test", "cli", "servers", "broken.mjs")}"`, ...flags].join(" ");

const COMMON = [
  "initialize",
  "version-latest",
  "version-unknown",
  "capabilities",
  "tools-valid",
  "resources-valid",
  "resource-templates-valid",
  "prompts-valid",
  "pagination",
  "invalid-cursor",
  "ping",
  "unknown-method",
  "malformed-json",
  "unknown-tool",
  "messages-valid",
];
const STDIO = [...COMMON, "stdin-close", "stdout-clean"];
const HTTP = [...COMMON, "http-session-id", "http-missing-session", "http-delete-session", "http-origin", "http-accept", "http-protocol-version"];
/** Our dual-era mock over HTTP: both eras' checks. */
const DUAL_HTTP = [...HTTP, ...MODERN_HTTP];
/** The authorization audit: in a report only for a server that asks for a token (test/cli/check-auth.test.ts), but always a check of a URL. */
const AUTH_AUDIT = ["auth-challenge", "auth-invalid-token", "auth-metadata", "auth-insufficient-scope", "auth-audience"];
/** The tasks checks, planned for every server and reported for one that advertises tasks (server-everything does, in 2025-11-25). */
const TASKS_LEGACY = ["tasks-unknown-id", "tasks-wire-fields", "tasks-terminal-stays", "tasks-cancel-ended"];
const TASKS_MODERN = ["modern-tasks-unknown-id", "modern-tasks-wire-fields", "modern-tasks-terminal-stays", "modern-tasks-cancel-ended", "modern-tasks-removed-methods"];
/** Without --task-tool, the checks that run a task skip. */
const NO_TASK_TOOL = { "tasks-wire-fields": "SKIP", "tasks-terminal-stays": "SKIP", "tasks-cancel-ended": "SKIP" };
/** Our mock serves tasks in both eras (over HTTP, Mcp-Name too): every tasks check, those that run a task skipped without --task-tool. */
const MOCK_TASKS = [...TASKS_LEGACY, ...TASKS_MODERN, "modern-tasks-http-name"];
const MOCK_NO_TASK_TOOL = { ...NO_TASK_TOOL, "modern-tasks-wire-fields": "SKIP", "modern-tasks-terminal-stays": "SKIP", "modern-tasks-cancel-ended": "SKIP" };

/** Every check PASS, but for the given ones. */
function statuses(ids: string[], except: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, except[id] ?? "PASS"]));
}

const statusesOf = (report: Json) => Object.fromEntries((report.checks as Json[]).map((check) => [check.id, check.status]));
const detailOf = (report: Json, id: string) => (report.checks as Json[]).find((check) => check.id === id)!.detail as string;

async function checkJsonWith(args: string[], timeoutMs = 15_000): Promise<{ code: number | null; report: Json; stderr: string }> {
  const result = await runCli(["check", ...args, "--json"], { timeoutMs });
  return { code: result.code, report: JSON.parse(result.stdout) as Json, stderr: result.stderr };
}

async function checkJson(target: string, timeoutMs = 15_000): Promise<{ code: number | null; report: Json; stderr: string }> {
  const result = await runCli(["check", target, "--json"], { timeoutMs });
  let report: Json;
  try {
    report = JSON.parse(result.stdout) as Json;
  } catch {
    throw new Error(`check --json did not print JSON (exit ${result.code}); stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return { code: result.code, report, stderr: result.stderr };
}

/** The tool-less healthy broken server: tools only, so the other lists are skipped. */
const HEALTHY = { "resources-valid": "SKIP", "resource-templates-valid": "SKIP", "prompts-valid": "SKIP" };

describe("mcp-testkit check whose reader stops early (check … | head)", () => {
  it("runs on quietly when stdout closes: no EPIPE stack trace, the exit code its own, the server closed", async () => {
    const child = startCli(["check", everything]);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    // The reader takes the first chunk and goes away, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event|node:events/);
    expect(code).toBe(0);
  });
});

describe("mcp-testkit check over stdio", () => {
  it("server-everything: every check passes but two SHOULDs it misses; --json gives the structured report", async () => {
    const { code, report, stderr } = await checkJson(everything);
    expect(statusesOf(report)).toEqual(statuses([...STDIO, ...TASKS_LEGACY], { "invalid-cursor": "WARN", "malformed-json": "WARN", ...NO_TASK_TOOL }));
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(report).toMatchObject({
      target: everything,
      transport: "stdio",
      protocolVersion: "2025-11-25",
      serverInfo: { name: "mcp-servers/everything" },
      summary: { total: 21, pass: 16, warn: 2, fail: 0, skip: 3 },
      ok: true,
    });
    expect((report.checks as Json[]).map((check) => check.id)).toEqual([...STDIO, ...TASKS_LEGACY]);
    // The tasks checks come after both eras' (the 2026-07-28 ones are not in this report).
    expect((report.checks as Json[]).map((check) => check.number)).toEqual([...STDIO.map((_, index) => index + 1), ...TASKS_LEGACY.map((_, index) => STDIO.length + MODERN_COMMON.length + index + 1)]);
    for (const check of report.checks as Json[]) {
      expect(Object.keys(check).sort()).toEqual(["detail", "id", "number", "spec", "status", "title"]);
      expect(check.spec).toMatch(/^https:\/\/(modelcontextprotocol\.io\/specification\/2025-11-25\/|www\.jsonrpc\.org\/specification#error_object$)/);
      expect(check.detail).not.toBe("");
    }
    expect(report.checks[1].spec).toBe("https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation");
    expect(detailOf(report, "version-unknown")).toBe("asked for 1999-01-01, got 2025-11-25");
    expect(detailOf(report, "tools-valid")).toMatch(/^\d+ tools, all valid for 2025-11-25$/);
    expect(detailOf(report, "unknown-tool")).toContain("isError: true");
    expect(detailOf(report, "invalid-cursor")).toContain("was answered with a page");
  });

  it("a well-behaved server passes every check that applies, in the human format", async () => {
    const result = await runCli(["check", broken()], { timeoutMs: 15_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `mcp-testkit check: ${broken()}`,
      "broken-server 1.0.0, protocol 2025-11-25, over stdio",
      'eras: legacy 2025-11-25, modern not spoken (server/discover got -32601 "Method not found: server/discover")',
      "",
    ]);
    expect(lines).toContain("  1. PASS  Initialize handshake: serverInfo broken-server 1.0.0; a valid InitializeResult for 2025-11-25");
    expect(lines).toContain("           https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization");
    expect(lines).toContain(' 12. PASS  Unknown method gets -32601: mcp-testkit/no-such-method got -32601 "Method not found: mcp-testkit/no-such-method"');
    expect(lines).toContain("           https://www.jsonrpc.org/specification#error_object");
    expect(lines).toContain(" 13. PASS  Malformed JSON gets -32700: a line that is not JSON got -32700 (id null); the server kept working");
    expect(lines).toContain('  6. SKIP  Resource definitions valid: not advertised (resources/list got error -32601 "Method not found: resources/list")');
    expect(lines.filter((line) => /^ {1,2}\d+\. (PASS|WARN|FAIL|SKIP)  /.test(line)).map((line) => line.trim().split("  ")[0])).toEqual(
      STDIO.map((_, index) => `${index + 1}. ${Object.values(statuses(STDIO, HEALTHY))[index]}`),
    );
    expect(lines.at(-2)).toBe("17 checks: 14 passed, 0 warnings, 0 failed, 3 skipped");
  });

  it("counts one check as one check in the summary", async () => {
    const result = await runCli(["check", broken(), "--only", "ping"], { timeoutMs: 15_000 });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").at(-2)).toBe("1 check: 1 passed, 0 warnings, 0 failed, 0 skipped");
  });

  it("a server that logs to stdout fails stdout-clean and exits 1", async () => {
    const { code, report } = await checkJson(broken("--log-stdout"));
    expect(statusesOf(report)).toEqual(statuses(STDIO, { ...HEALTHY, "stdout-clean": "FAIL" }));
    // The server logs once at start, and check starts several copies of it: the count says so.
    expect(detailOf(report, "stdout-clean")).toMatch(
      /^\d+ lines on stdout that are not MCP messages \(from \d+ copies of the server: check starts one per probe\), first: "\[broken-server\] starting up" \(the server\); log to stderr instead$/,
    );
    expect(report.ok).toBe(false);
    expect(code).toBe(1);
  });

  it("a server that ignores stdin close fails stdin-close (and is ended) and exits 1", async () => {
    const { code, report } = await checkJson(broken("--ignore-stdin-close"));
    expect(statusesOf(report)).toEqual(statuses(STDIO, { ...HEALTHY, "stdin-close": "FAIL" }));
    expect(detailOf(report, "stdin-close")).toBe("still running 3000 ms after its stdin was closed; mcp-testkit ended its process tree");
    expect(code).toBe(1);
  });

  it("a server that answers unknown methods with a result fails unknown-method, and its capabilities are not honest", async () => {
    const { code, report } = await checkJson(broken("--answer-unknown"));
    expect(statusesOf(report)).toEqual(
      statuses(STDIO, {
        capabilities: "WARN",
        // Answered although not advertised, with results that lack their lists.
        "resources-valid": "FAIL",
        "resource-templates-valid": "FAIL",
        "prompts-valid": "FAIL",
        "unknown-method": "FAIL",
        "messages-valid": "FAIL",
      }),
    );
    expect(detailOf(report, "unknown-method")).toBe("mcp-testkit/no-such-method was answered with a result ({}); expected error -32601 Method not found");
    expect(detailOf(report, "capabilities")).toContain("prompts is not advertised but prompts/list answers");
    expect(detailOf(report, "messages-valid")).toContain("completion/complete $.result.completion");
    expect(code).toBe(1);
  });

  it("a server with invalid tool definitions fails tools-valid, naming the tool and the path", async () => {
    const { code, report } = await checkJson(broken("--bad-tools"));
    expect(statusesOf(report)).toEqual(statuses(STDIO, { ...HEALTHY, "tools-valid": "FAIL" }));
    expect(detailOf(report, "tools-valid")).toBe('2 problems for 2025-11-25: tool "string-schema" (#2): inputSchema.type: expected "object"; got "string" (and 1 more)');
    expect(code).toBe(1);
  });

  it("a server that echoes any protocol version fails version-unknown", async () => {
    const { code, report } = await checkJson(broken("--echo-version"));
    expect(statusesOf(report)).toEqual(statuses(STDIO, { ...HEALTHY, "version-unknown": "FAIL" }));
    expect(detailOf(report, "version-unknown")).toBe("asked for 1999-01-01 and the server echoed it: it MUST answer with a version it supports");
    expect(code).toBe(1);
  });

  it("a server that fails to start: exit 1 with the process context; --json's report holds the failed connect check", async () => {
    const command = `"${process.execPath}" -e "console.error('missing API_KEY'); process.exit(4)"`;
    const result = await runCli(["check", command, "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, checks: [{ id: "connect", status: "FAIL", detail: expect.stringContaining("cannot start the server") }] });
    expect(result.stderr).toContain(`mcp-testkit check: cannot start the server "${command}"`);
    expect(result.stderr).toContain("  process: exit code 4\n");
    expect(result.stderr).toContain("    | missing API_KEY\n");
  });

  it("bad usage exits 2", async () => {
    expect(await runCli(["check"])).toMatchObject({ code: 2, stdout: "" });
    expect((await runCli(["check"])).stderr).toContain("mcp-testkit check: missing the target");
    expect(await runCli(["check", "node", "server.js"])).toMatchObject({ code: 2, stdout: "" });
    expect((await runCli(["check", everything, "--timeout", "soon"])).stderr).toBe(
      'mcp-testkit check: --timeout must be a number of milliseconds from 1 to 3600000, got "soon"\nRun "mcp-testkit check --help" for usage.\n',
    );
    expect((await runCli(["check", everything, "--header", "X-Key: 1"])).stderr).toContain("--header is for URL targets");
  });
});

describe("mcp-testkit check over Streamable HTTP", () => {
  const mocks: MockMcpServer[] = [];
  const startMock = async (options: MockMcpOptions = {}) => {
    const server = await mockMcp({
      // search mirrors its region into Mcp-Param-Region (x-mcp-header), for the 2026-07-28 probe of that header.
      tools: {
        echo: { returns: "hi" },
        add: { returns: "3" },
        search: {
          inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
          annotations: { readOnlyHint: true },
          responses: [{ toolError: "rate limited" }],
        },
      },
      resources: { "file:///notes.txt": "notes", "file:///logs/{day}.txt": { read: (_uri, { day }) => `log of ${day}` } },
      prompts: { greet: "Say hello" },
      pageSize: 2,
      ...options,
    });
    mocks.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(mocks.map((server) => server.close()));
  });

  it("our mock passes every check, with paginated lists", async () => {
    const server = await startMock();
    const { code, report, stderr } = await checkJson(server.url!);
    expect(statusesOf(report)).toEqual(statuses([...DUAL_HTTP, ...MOCK_TASKS], MOCK_NO_TASK_TOOL));
    expect(report).toMatchObject({
      transport: "http",
      target: server.url,
      protocolVersion: "2025-11-25",
      eras: { legacy: { spoken: true, protocolVersion: "2025-11-25" }, modern: { spoken: true, protocolVersion: "2026-07-28" } },
      summary: { total: 44, pass: 38, skip: 6 },
      ok: true,
    });
    expect(detailOf(report, "modern-unsupported-version")).toMatch(/^server\/discover in 1999-01-01 got 400 -32022, data.supported \["2026-07-28"/);
    expect(detailOf(report, "modern-http-method-header")).toContain("server/discover without Mcp-Method got 400 (-32020");
    expect(detailOf(report, "modern-http-name-mismatch")).toMatch(
      /^tools\/call with Mcp-Name: mcp-testkit-other-tool \(params\.name is mcp-testkit-no-such-tool\) got 400 \(-32020 "Header mismatch: Mcp-Name header value/,
    );
    expect(detailOf(report, "modern-http-version-mismatch")).toMatch(
      /^server\/discover with MCP-Protocol-Version: 2025-11-25 \(its _meta says 2026-07-28\) got 400 \(-32020 "Header mismatch: MCP-Protocol-Version header value/,
    );
    expect(detailOf(report, "modern-http-param-header")).toMatch(
      /^tools\/call search with Mcp-Param-Region: mcp-testkit-header-value \(arguments\.region is "mcp-testkit-body-value"\) got 400 \(-32020 "Header mismatch: Mcp-Param-Region header value/,
    );
    expect(report.checks.find((check: Json) => check.id === "modern-discover").spec).toBe("https://modelcontextprotocol.io/specification/2026-07-28/server/discover");
    expect(detailOf(report, "pagination")).toBe("tools/list 2 pages (3), resources/list 1 page (1), resources/templates/list 1 page (1), prompts/list 1 page (1); no duplicates");
    expect(detailOf(report, "http-delete-session")).toMatch(/^DELETE got 200; then a ping with that session id got 404/);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    // Every session the check opened (its own and the probes') was ended again (DELETE).
    expect(server.expireSession()).toBe(0);
  });

  it("a tool that mirrors a parameter but is not marked read-only is not probed with a made-up argument: SKIP, saying why", async () => {
    const server = await startMock({
      tools: { write_file: { inputSchema: { type: "object", properties: { path: { type: "string", "x-mcp-header": "Path" } } }, responses: [{ returns: "written" }] } },
    });
    const { report } = await checkJson(server.url!);
    expect(statusesOf(report)["modern-http-param-header"]).toBe("SKIP");
    expect(detailOf(report, "modern-http-param-header")).toBe(
      "write_file mirrors a parameter into an Mcp-Param-* header, but none is marked readOnlyHint: true; the probe would run the tool with a made-up argument on a server that does not check the header, so check probes read-only tools only",
    );
    expect(server.calls.filter((call) => call.tool === "write_file")).toEqual([]);
  });

  it("a mock without DNS-rebinding protection FAILs the foreign Origin check (a MUST)", async () => {
    const server = await startMock({ dnsRebindingProtection: false });
    const { code, report } = await checkJson(server.url!);
    expect(statusesOf(report)).toEqual(statuses([...DUAL_HTTP, ...MOCK_TASKS], { "http-origin": "FAIL", ...MOCK_NO_TASK_TOOL }));
    expect(detailOf(report, "http-origin")).toBe(
      "initialize from Origin http://mcp-testkit-foreign-origin.invalid got 200; servers MUST validate Origin and answer 403 to a foreign one (DNS rebinding)",
    );
    expect(code).toBe(1);
  });

  it("--only and --skip choose checks by number or id; the numbers stay those of the full list", async () => {
    const server = await startMock({});
    const only = await checkJsonWith([server.url!, "--only", "1,ping", "--only", String(HTTP.indexOf("http-origin") + 1)]);
    expect((only.report.checks as Json[]).map((check) => [check.number, check.id])).toEqual([
      [1, "initialize"],
      [HTTP.indexOf("ping") + 1, "ping"],
      [HTTP.indexOf("http-origin") + 1, "http-origin"],
    ]);
    expect(only.report.summary).toEqual({ total: 3, pass: 3, warn: 0, fail: 0, skip: 0 });
    const skipped = await checkJsonWith([server.url!, "--skip", "http-origin,2"]);
    expect(Object.keys(statusesOf(skipped.report))).toEqual([...DUAL_HTTP, ...MOCK_TASKS].filter((id) => id !== "http-origin" && id !== "version-latest"));
    expect(skipped.code).toBe(0);
  });

  it("--only with an unknown id or number is a usage error naming the closest id", async () => {
    const typo = await runCli(["check", "http://127.0.0.1:9/mcp", "--only", "unknown-methd"]);
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    expect(typo.stderr).toMatch(/^mcp-testkit check: --only unknown-methd: no check has that id; did you mean "unknown-method"\? \(for a Streamable HTTP server: initialize, version-latest, /);
    const number = await runCli(["check", broken(), "--skip", "99"]);
    expect(number).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`mcp-testkit check: --skip 99: there are checks 1 to ${STDIO.length + MODERN_COMMON.length + TASKS_LEGACY.length + TASKS_MODERN.length} for a stdio server`),
    });
    const none = await runCli(["check", broken(), "--only", "ping", "--skip", "ping"]);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining("mcp-testkit check: --only and --skip leave no check to run") });
  });

  it("--only with a check of the other transport says which servers it is for, and lists this transport's checks; --skip takes it as nothing to skip", async () => {
    const url = await runCli(["check", "http://127.0.0.1:9/mcp", "--only", "stdin-close"]);
    expect(url).toMatchObject({ code: 2, stdout: "" });
    expect(url.stderr).toBe(
      "mcp-testkit check: --only stdin-close: that check applies only to stdio servers (a command), and this target is a Streamable HTTP server (a URL); leave it out " +
        `(for a Streamable HTTP server: ${[...DUAL_HTTP, ...TASKS_LEGACY, ...TASKS_MODERN, "modern-tasks-http-name", ...AUTH_AUDIT].join(", ")})\nRun "mcp-testkit check --help" for usage.\n`,
    );
    const command = await runCli(["check", broken(), "--only", "ping,http-origin"]);
    expect(command).toMatchObject({ code: 2, stdout: "" });
    expect(command.stderr).toBe(
      "mcp-testkit check: --only http-origin: that check applies only to Streamable HTTP servers (a URL), and this target is a stdio server (a command); leave it out " +
        `(for a stdio server: ${[...STDIO, ...MODERN_COMMON, ...TASKS_LEGACY, ...TASKS_MODERN].join(", ")})\nRun "mcp-testkit check --help" for usage.\n`,
    );
    // One skip list for a URL and a command: the other transport's check is simply not run.
    const server = await startMock({});
    const skipped = await checkJsonWith([server.url!, "--skip", "stdin-close,http-origin"]);
    expect(Object.keys(statusesOf(skipped.report))).toEqual([...DUAL_HTTP, ...MOCK_TASKS].filter((id) => id !== "http-origin"));
    expect(skipped.code).toBe(0);
  });

  it("--junit writes a JUnit XML report: FAIL as <failure>, SKIP as <skipped>, WARN passing with system-out", async () => {
    const server = await startMock({ dnsRebindingProtection: false });
    const file = scratchFile("check-results.xml");
    const result = await runCli(["check", server.url!, "--junit", file], { timeoutMs: 15_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL  A foreign Origin gets 403");
    const xml = readFileSync(file, "utf8");
    const total = DUAL_HTTP.length + MOCK_TASKS.length;
    const skippedCount = Object.keys(MOCK_NO_TASK_TOOL).length;
    expect(xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-testkit check" tests="${total}" failures="1" errors="0" skipped="${skippedCount}" time="`)).toBe(true);
    expect(xml).toContain(`<property name="target" value="${server.url}"/>`);
    expect(xml).toContain('<testcase classname="mcp-testkit.check.http" name="1. initialize: ');
    expect(xml).toMatch(
      /<testcase classname="mcp-testkit\.check\.http" name="\d+\. http-origin: A foreign Origin gets 403">\n {6}<failure message="initialize from Origin http:\/\/mcp-testkit-foreign-origin\.invalid got 200; servers MUST validate Origin/,
    );
    expect(xml.match(/<testcase /g)).toHaveLength(total);
    expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  it("--junit marks skipped and warned checks, next to --json", async () => {
    const file = scratchFile("broken.xml");
    const result = await runCli(["check", broken(), "--json", "--junit", file]);
    const report = JSON.parse(result.stdout) as Json;
    const xml = readFileSync(file, "utf8");
    const warned = (report.checks as Json[]).filter((check) => check.status === "WARN");
    const skippedChecks = (report.checks as Json[]).filter((check) => check.status === "SKIP");
    expect(warned.length + skippedChecks.length).toBeGreaterThan(0);
    for (const check of warned) expect(xml).toContain(`name="${check.number}. ${check.id}: ${check.title}">\n      <system-out>WARN: `);
    for (const check of skippedChecks) expect(xml).toContain(`name="${check.number}. ${check.id}: ${check.title}">\n      <skipped message="`);
    expect(xml).toContain(`skipped="${skippedChecks.length}"`);
  });

  it("--junit still writes a report when the server cannot be reached: one failed connect case", async () => {
    const port = await freePort();
    const file = scratchFile("unreachable.xml");
    const result = await runCli(["check", `http://127.0.0.1:${port}/mcp`, "--junit", file]);
    expect(result.code).toBe(1);
    const xml = readFileSync(file, "utf8");
    expect(xml).toContain('<testsuites name="mcp-testkit check" tests="1" failures="1" errors="0" skipped="0"');
    expect(xml).toMatch(
      /<testcase classname="mcp-testkit\.check" name="0\. connect: the server can be started or reached">\n {6}<failure message="Nothing answered at http:\/\/127\.0\.0\.1:\d+\/mcp \(connection refused\).*ECONNREFUSED/,
    );
  });

  it("an address nobody listens on: exit 1, cannot reach", async () => {
    const port = await freePort();
    const result = await runCli(["check", `http://127.0.0.1:${port}/mcp`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(new RegExp(`^mcp-testkit check: Nothing answered at http://127\\.0\\.0\\.1:${port}/mcp \\(connection refused\\).*ECONNREFUSED`));
  });

  it("a server that crashes on a call: the check's detail gives its exit code and last stderr line", async () => {
    const command = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "crashes-mid-call.mjs")}"`;
    const { report } = await checkJsonWith([command, "--only", "unknown-tool", "--timeout", "2000"]);
    expect(detailOf(report, "unknown-tool")).toMatch(
      /^tools\/call "mcp-testkit-no-such-tool": The server process exited before answering tools\/call \(id \d+\)\. \(exit code 2; its last stderr line: "zoo: crashing in tools\/call"\)$/,
    );
  });

  it("--json prints a report with the failed connect check when the server cannot be reached", async () => {
    const port = await freePort();
    const { code, report } = await checkJsonWith([`http://127.0.0.1:${port}/mcp`]);
    expect(code).toBe(1);
    expect(report).toMatchObject({ target: `http://127.0.0.1:${port}/mcp`, transport: "http", ok: false, summary: { total: 1, fail: 1 } });
    expect(report.checks).toEqual([expect.objectContaining({ number: 0, id: "connect", status: "FAIL", detail: expect.stringMatching(/^Nothing answered at .*ECONNREFUSED/) })]);
  });

  it("a server that talks on stdout and never answers: the failure quotes the first stray line and names the rule", async () => {
    const command = `"${process.execPath}" "${join(REPO, "test", "cli", "servers", "talks-on-stdout.mjs")}"`;
    const result = await runCli(["check", command, "--timeout", "500"], { timeoutMs: 15_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /did not answer initialize within 500 ms \(raise --timeout if it is just slow\); it wrote \d+ lines? to stdout that are not MCP messages, the first: "Hello, I am a server that logs to stdout" \(stdout must carry only protocol messages; logs go to stderr\)/,
    );
  });

  describe("server-everything (streamableHttp)", () => {
    let server: ChildProcess;
    let url: string;
    beforeAll(async () => {
      const port = await freePort();
      let output = "";
      server = spawn(everythingBin, ["streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
      server.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      server.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      await until(() => output.includes(`listening on port ${port}`), "server-everything to listen", 10_000);
      url = `http://127.0.0.1:${port}/mcp`;
    });
    afterAll(async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid!, "SIGKILL");
      await exited;
    });

    it("fails 404-after-DELETE (it answers 400) and the foreign Origin check", async () => {
      const { code, report } = await checkJson(url);
      expect(statusesOf(report)).toEqual(statuses([...HTTP, ...TASKS_LEGACY], { "invalid-cursor": "WARN", "http-delete-session": "FAIL", "http-origin": "FAIL", ...NO_TASK_TOOL }));
      expect(detailOf(report, "http-delete-session")).toMatch(/^DELETE got 200, but then a ping with that session id got 400 .*; an ended session MUST get 404$/);
      expect(code).toBe(1);
    });
  });
});
