/**
 * The 2026-07-28 checks of `mcp-testkit check` can fail: a hand-written 2026-07-28 server
 * (test/cli/servers/modern-http.ts, node:http on 127.0.0.1) keeps every rule but the one it is
 * told to break, and `check` reports exactly that check (and what the server did, and the rule)
 * and exits 1 for a broken MUST; a broken SHOULD is a WARN and exits 0.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MODERN_HTTP, runCli, TRANSPORT_HTTP, useCli } from "./support.js";
import { serveModern, type ModernBreak, type ModernServer } from "./servers/modern-http.js";

useCli();

type Json = Record<string, any>;

const servers: ModernServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function checkServer(broken?: ModernBreak): Promise<{ code: number | null; report: Json }> {
  const server = await serveModern(broken);
  servers.push(server);
  const result = await runCli(["check", server.url, "--json"], { timeoutMs: 20_000 });
  try {
    return { code: result.code, report: JSON.parse(result.stdout) as Json };
  } catch {
    throw new Error(`check --json did not print JSON (exit ${result.code}); stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

const statusesOf = (report: Json) => Object.fromEntries((report.checks as Json[]).map((check) => [check.id, check.status]));
const detailOf = (report: Json, id: string) => (report.checks as Json[]).find((check) => check.id === id)?.detail as string;
const allPassBut = (except: Record<string, string> = {}) => Object.fromEntries([...TRANSPORT_HTTP, ...MODERN_HTTP].map((id) => [id, except[id] ?? "PASS"]));

describe("check's 2026-07-28 checks against a hand-written server", () => {
  it("a server that keeps every rule passes every check, each probe named in its detail", async () => {
    const { code, report } = await checkServer();
    expect(report.eras.legacy.spoken).toBe(false);
    expect(report.eras.modern).toEqual({ spoken: true, protocolVersion: "2026-07-28" });
    expect(statusesOf(report)).toEqual(allPassBut());
    expect(detailOf(report, "modern-http-name-mismatch")).toMatch(/^tools\/call with Mcp-Name: mcp-testkit-other-tool \(params\.name is mcp-testkit-no-such-tool\) got 400 \(-32020 /);
    expect(detailOf(report, "modern-http-version-header")).toBe(
      'server/discover without MCP-Protocol-Version (its _meta says 2026-07-28) got 400 (-32020 "Header mismatch: the MCP-Protocol-Version header is required")',
    );
    expect(detailOf(report, "modern-http-version-mismatch")).toBe(
      'server/discover with MCP-Protocol-Version: 2025-11-25 (its _meta says 2026-07-28) got 400 (-32020 "Header mismatch: MCP-Protocol-Version 2025-11-25 is not the body\'s 2026-07-28")',
    );
    expect(detailOf(report, "modern-http-param-header")).toMatch(
      /^tools\/call forecast with Mcp-Param-City: mcp-testkit-header-value \(arguments\.city is "mcp-testkit-body-value"\) got 400 \(-32020 /,
    );
    expect(detailOf(report, "modern-http-no-session")).toBe("the server/discover response carries no Mcp-Session-Id");
    const specOf = (id: string) => (report.checks as Json[]).find((check) => check.id === id)!.spec;
    expect(specOf("modern-http-version-mismatch")).toBe("https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#protocol-version-header");
    expect(specOf("modern-http-param-header")).toBe("https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-behavior-for-custom-headers");
    expect(code).toBe(0);
  });

  // Each: the rule broken, the one check that must catch it, and its detail: what the server did, and the rule.
  const MUSTS: [ModernBreak, string, string][] = [
    [
      "accepts-missing-method",
      "modern-http-method-header",
      'server/discover without Mcp-Method was served (200); the server MUST refuse it with 400 and -32020 (HeaderMismatch); server/discover with Mcp-Method: tools/list got 400 (-32020 "Header mismatch: Mcp-Method tools/list is not the body\'s server/discover")',
    ],
    [
      "accepts-missing-name",
      "modern-http-name-header",
      'tools/call without Mcp-Name was served (200 (-32602 "Unknown tool: mcp-testkit-no-such-tool")); the server MUST refuse it with 400 and -32020 (HeaderMismatch)',
    ],
    [
      "accepts-name-mismatch",
      "modern-http-name-mismatch",
      'tools/call with Mcp-Name: mcp-testkit-other-tool (params.name is mcp-testkit-no-such-tool) was served (200 (-32602 "Unknown tool: mcp-testkit-no-such-tool")); the server MUST refuse it with 400 and -32020 (HeaderMismatch)',
    ],
    [
      "accepts-missing-version",
      "modern-http-version-header",
      "server/discover without MCP-Protocol-Version (its _meta says 2026-07-28) was served (200); the server MUST refuse it with 400 and -32020 (HeaderMismatch)",
    ],
    [
      "accepts-version-mismatch",
      "modern-http-version-mismatch",
      "server/discover with MCP-Protocol-Version: 2025-11-25 (its _meta says 2026-07-28) was served (200); the server MUST refuse it with 400 and -32020 (HeaderMismatch)",
    ],
    [
      "accepts-param-mismatch",
      "modern-http-param-header",
      'tools/call forecast with Mcp-Param-City: mcp-testkit-header-value (arguments.city is "mcp-testkit-body-value") was served (200); the server MUST refuse it with 400 and -32020 (HeaderMismatch)',
    ],
    [
      "serves-any-version",
      "modern-unsupported-version",
      "server/discover in 1999-01-01 got 200; a server MUST answer a version it does not implement with 400 and error -32022 (UnsupportedProtocolVersion)",
    ],
    ["unsupported-version-200", "modern-unsupported-version", "server/discover in 1999-01-01 got -32022 with HTTP 200; the status MUST be 400 Bad Request"],
  ];

  it.each(MUSTS)("a server that breaks a MUST (%s): %s FAILs alone, naming what it did, and check exits 1", async (broken, id, detail) => {
    const { code, report } = await checkServer(broken);
    expect(statusesOf(report)).toEqual(allPassBut({ [id]: "FAIL" }));
    expect(detailOf(report, id)).toBe(detail);
    expect(report.ok).toBe(false);
    expect(code).toBe(1);
  });

  it("a server that refuses header mismatches with 400 but -32600: each header check FAILs (a client reads that refusal as a legacy server)", async () => {
    const { code, report } = await checkServer("mismatch-wrong-code");
    const headerChecks = [
      "modern-http-method-header",
      "modern-http-name-header",
      "modern-http-name-mismatch",
      "modern-http-version-header",
      "modern-http-version-mismatch",
      "modern-http-param-header",
    ];
    expect(statusesOf(report)).toEqual(allPassBut(Object.fromEntries(headerChecks.map((id) => [id, "FAIL"]))));
    expect(detailOf(report, "modern-http-method-header")).toMatch(
      /^server\/discover without Mcp-Method got 400 \(-32600 "Header mismatch: the Mcp-Method header is required"\): refused, but the server MUST answer 400 with -32020 \(HeaderMismatch\); a client takes any other refusal for a legacy server and falls back to initialize/,
    );
    expect(code).toBe(1);
  });

  it("a server whose -32022 has no data.requested: modern-unsupported-version FAILs naming the field", async () => {
    const { code, report } = await checkServer("unsupported-without-requested");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-unsupported-version": "FAIL" }));
    expect(detailOf(report, "modern-unsupported-version")).toBe(
      "server/discover in 1999-01-01 got 400 -32022 without data.requested (the version it refused, a string the 2026-07-28 schema requires); a client that does not recognise the error as modern falls back to initialize",
    );
    expect(code).toBe(1);
  });

  it("a server that lists 2025-03-26 and answers a request without MCP-Protocol-Version as that revision: a WARN explaining the spec's MAY, not a FAIL", async () => {
    const { code, report } = await checkServer("headerless-as-2025-03-26");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-http-version-header": "WARN" }));
    expect(detailOf(report, "modern-http-version-header")).toMatch(
      /answered as a request of 2025-03-26 \(it lists them\), which the spec allows \(MAY\) for a server that serves clients older than 2025-06-18/,
    );
    expect(code).toBe(0);
  });

  it("a server that lists 2025-03-26 but serves a request without MCP-Protocol-Version as 2026-07-28: the MAY does not cover it, a FAIL", async () => {
    const { code, report } = await checkServer("headerless-served-modern");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-http-version-header": "FAIL" }));
    expect(detailOf(report, "modern-http-version-header")).toBe(
      "server/discover without MCP-Protocol-Version (its _meta says 2026-07-28) was served (200); the server MUST refuse it with 400 and -32020 (HeaderMismatch)",
    );
    expect(code).toBe(1);
  });

  it("a server that leaves resultType out of tools/list: modern-result-type FAILs, and so does the check of every message", async () => {
    const { code, report } = await checkServer("no-result-type");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-result-type": "FAIL", "modern-messages-valid": "FAIL" }));
    expect(detailOf(report, "modern-result-type")).toBe(
      '1 result of 1 break the 2026-07-28 schema; first: tools/list: $.result.resultType: required field "resultType" is missing; expected "complete"',
    );
    expect(detailOf(report, "modern-messages-valid")).toBe('1 problem in 2026-07-28 messages; first: tools/list $.result.resultType: required field "resultType" is missing; expected "complete"');
    expect(code).toBe(1);
  });

  // The spec words these as SHOULDs ("A server that supports only this revision … SHOULD respond as follows").
  it("a server that mints an Mcp-Session-Id on a 2026-07-28 request: modern-http-no-session WARNs (a SHOULD), check exits 0", async () => {
    const { code, report } = await checkServer("mints-session");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-http-no-session": "WARN" }));
    expect(detailOf(report, "modern-http-no-session")).toBe(
      'the server/discover response carries Mcp-Session-Id "session-1"; 2026-07-28 has no sessions, and a server SHOULD NOT mint or echo session ids',
    );
    expect(report.summary).toMatchObject({ warn: 1, fail: 0 });
    expect(code).toBe(0);
  });

  it("a server that answers GET and DELETE with 200: modern-http-get-delete WARNs (a SHOULD), check exits 0", async () => {
    const { code, report } = await checkServer("get-200");
    expect(statusesOf(report)).toEqual(allPassBut({ "modern-http-get-delete": "WARN" }));
    expect(detailOf(report, "modern-http-get-delete")).toBe(
      "with MCP-Protocol-Version: 2026-07-28, GET got 200, DELETE got 200; 2026-07-28 has no GET stream and no DELETE, and a server SHOULD answer both with 405 Method Not Allowed",
    );
    expect(code).toBe(0);
  });
});
