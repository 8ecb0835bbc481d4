/**
 * `mcp-testkit check` and the two eras: which eras a server speaks, and the 2026-07-28 checks
 * against real peers — our dual-era mock over stdio (`mcp-testkit mock --stdio`), a server built
 * with the official SDK v2 (2.4.0) over Streamable HTTP (dual-era, and modern-only with
 * `legacy: "reject"`) and over stdio, and a legacy-only server (the era is reported as not
 * spoken, the report as before).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSdkV2Http } from "../support/sdk-v2-http.js";
import { MODERN_COMMON, MODERN_HTTP, REPO, runCli, scenarioFile, TRANSPORT_HTTP, TRANSPORT_STDIO, useCli } from "./support.js";

useCli();

type Json = Record<string, any>;

const sdkV2Stdio = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "sdk-v2-server.mjs")}" stdio`;
const broken = `"${process.execPath}" "${join(REPO, "test", "cli", "servers", "broken.mjs")}"`;

const startSdkV2 = useSdkV2Http();
const serveSdkV2 = async (legacy: "stateless" | "reject") => (await startSdkV2({ legacy })).url;

async function check(target: string, ...flags: string[]): Promise<{ code: number | null; report: Json; stderr: string }> {
  const result = await runCli(["check", target, "--json", ...flags], { timeoutMs: 20_000 });
  try {
    return { code: result.code, report: JSON.parse(result.stdout) as Json, stderr: result.stderr };
  } catch {
    throw new Error(`check --json did not print JSON (exit ${result.code}); stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

const modernStatuses = (report: Json) => Object.fromEntries((report.checks as Json[]).filter((c) => c.id.startsWith("modern-")).map((c) => [c.id, c.status]));
const detailOf = (report: Json, id: string) => (report.checks as Json[]).find((c) => c.id === id)?.detail as string;
const allPass = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, "PASS"]));

describe("check and the eras", () => {
  it("an SDK v2 server over HTTP (dual-era): both eras found, every 2026-07-28 check passes", async () => {
    const url = await serveSdkV2("stateless");
    const { report } = await check(url);
    expect(report.eras).toEqual({ legacy: { spoken: true, protocolVersion: "2025-11-25" }, modern: { spoken: true, protocolVersion: "2026-07-28" } });
    // Its tools mirror no parameter (x-mcp-header), so that probe has nothing to send.
    expect(modernStatuses(report)).toEqual({ ...allPass(MODERN_HTTP), "modern-http-param-header": "SKIP" });
    expect(detailOf(report, "modern-http-param-header")).toBe("no tool mirrors a parameter into an Mcp-Param-* header (none of its 2 tools has x-mcp-header in its inputSchema)");
    expect(detailOf(report, "modern-http-version-mismatch")).toMatch(
      /^server\/discover with MCP-Protocol-Version: 2025-11-25 \(its _meta says 2026-07-28\) got 400 \(-32020 "Bad Request: the request headers and body disagree/,
    );
    expect(detailOf(report, "modern-http-name-mismatch")).toMatch(/^tools\/call with Mcp-Name: mcp-testkit-other-tool \(params\.name is mcp-testkit-no-such-tool\) got 400 \(-32020 /);
    expect(detailOf(report, "modern-unknown-method")).toBe('mcp-testkit/no-such-method got 404 (-32601 "Method not found")');
    expect(detailOf(report, "modern-http-get-delete")).toBe("GET got 405; DELETE got 405");
    expect(detailOf(report, "modern-result-type")).toContain('tools/list, resources/list, resources/read, resources/templates/list: each with resultType "complete"');
    // The legacy checks are those of before, numbered first.
    expect((report.checks as Json[])[0]).toMatchObject({ number: 1, id: "initialize", status: "PASS" });
    expect((report.checks as Json[]).find((c) => c.id === "modern-discover")!.number).toBe(22);
  });

  it("an SDK v2 server that serves 2026-07-28 only: the legacy checks are left out, the transport's and the modern ones run", async () => {
    const url = await serveSdkV2("reject");
    const { code, report } = await check(url);
    expect(report.eras.legacy.spoken).toBe(false);
    // In a few words, read out of the HTTP refusal's body, with no advice about flags check does not have.
    expect(report.eras.legacy.why).toMatch(/^initialize got 400 -32022 ".*" \(supported: 2026-07-28\)$/);
    expect(report.eras.modern).toEqual({ spoken: true, protocolVersion: "2026-07-28" });
    expect(report.protocolVersion).toBe("2026-07-28");
    expect(report.serverInfo).toEqual({ name: "sdk-v2-fixture", version: "2.4.0" });
    expect((report.checks as Json[]).map((c) => c.id)).toEqual([...TRANSPORT_HTTP, ...MODERN_HTTP]);
    expect(modernStatuses(report)).toEqual({ ...allPass(MODERN_HTTP), "modern-http-param-header": "SKIP" });
    // Its handler serves a foreign Origin (it fails the same check when it serves both eras): asked as 2026-07-28 here.
    expect(detailOf(report, "http-origin")).toMatch(/^server\/discover \(2026-07-28\) from Origin http:\/\/mcp-testkit-foreign-origin\.invalid got 200.*servers MUST validate Origin and answer 403/);
    expect(code).toBe(1);
  });

  it("an SDK v2 server over stdio: both eras (a second copy is probed for 2026-07-28)", async () => {
    const { report } = await check(sdkV2Stdio);
    expect(report.eras.modern).toEqual({ spoken: true, protocolVersion: "2026-07-28" });
    expect(modernStatuses(report)).toEqual(allPass(MODERN_COMMON));
    expect(detailOf(report, "modern-unsupported-version")).toBe('server/discover in 1999-01-01 got -32022, data.supported ["2026-07-28"]');
  });

  it("a 2026-07-28-only stdio server still gets the stdio transport's checks: stray stdout and ignoring stdin's close FAIL", async () => {
    const noisy = `"${process.execPath}" "${join(REPO, "test", "cli", "servers", "modern-stdio-noisy.mjs")}"`;
    const { code, report } = await check(noisy);
    expect(report.eras.legacy.spoken).toBe(false);
    expect((report.checks as Json[]).map((c) => [c.id, c.status]).slice(0, 2)).toEqual([
      ["stdin-close", "FAIL"],
      ["stdout-clean", "FAIL"],
    ]);
    expect(detailOf(report, "stdout-clean")).toMatch(/not MCP messages.*first: "starting up\.\.\."/);
    expect(detailOf(report, "stdin-close")).toMatch(/still running \d+ ms after its stdin was closed/);
    expect(code).toBe(1);
  });

  it("our mock over stdio (mcp-testkit mock --stdio): both eras, every 2026-07-28 check passes, an array outputSchema too", async () => {
    const tools = {
      echo: { inputSchema: { type: "object", properties: { text: { type: "string" } } }, responses: [{ returns: "pong" }] },
      // 2026-07-28 takes an outputSchema of any type; a legacy session is shown the tool without it.
      cities: { outputSchema: { type: "array", items: { type: "string" } }, responses: [{ returns: ["Rome", "Oslo"] }] },
    };
    const scenario = scenarioFile("eras.json", { tools, resources: { "notes://today": "Ship it." } });
    const { report } = await check(`"${process.execPath}" "${join(REPO, "dist", "cli", "main.js")}" mock --stdio "${scenario}"`);
    expect(report.eras.legacy.spoken).toBe(true);
    // The mock serves tasks in both eras: the tasks checks that need no task pass, those that run one skip without --task-tool.
    const taskRuns = { "modern-tasks-wire-fields": "SKIP", "modern-tasks-terminal-stays": "SKIP", "modern-tasks-cancel-ended": "SKIP" };
    expect(modernStatuses(report)).toEqual({ ...allPass([...MODERN_COMMON, "modern-tasks-unknown-id", "modern-tasks-removed-methods"]), ...taskRuns });
    expect((report.checks as Json[]).filter((c) => c.status === "FAIL").map((c) => [c.id, c.detail])).toEqual([]);
  });

  it("a legacy-only server: 2026-07-28 is reported as not spoken, with why, and no modern check is listed", async () => {
    const { code, report } = await check(broken);
    expect(report.eras.legacy).toEqual({ spoken: true, protocolVersion: "2025-11-25" });
    expect(report.eras.modern.spoken).toBe(false);
    // In a few words, without the driver's option names: what the probe got.
    expect(report.eras.modern.why).toBe('server/discover got -32601 "Method not found: server/discover"');
    expect((report.checks as Json[]).some((c) => c.id.startsWith("modern-"))).toBe(false);
    expect(code).toBe(0);
  });

  it("--only naming checks of an era the server does not speak: each FAILs saying why (a CI gate that ran nothing must not pass)", async () => {
    const { code, report } = await check(broken, "--only", "modern-discover,ping");
    expect((report.checks as Json[]).map((c) => [c.id, c.status])).toEqual([
      ["ping", "PASS"],
      ["modern-discover", "FAIL"],
    ]);
    expect(detailOf(report, "modern-discover")).toBe('named by --only, but the server does not speak 2026-07-28 (server/discover): server/discover got -32601 "Method not found: server/discover"');
    expect(report.ok).toBe(false);
    expect(code).toBe(1);
  });

  it("a 2026-07-28 server whose DiscoverResult cannot be used (no supportedVersions): the era is spoken, modern-discover FAILs with the path, the other modern checks SKIP", async () => {
    const omits = `"${process.execPath}" "${join(REPO, "test", "driver", "servers", "modern-omits.mjs")}" server/discover supportedVersions`;
    // It never answers initialize: a short --timeout ends that wait (the default is 5 s).
    const { code, report } = await check(omits, "--timeout", "1500");
    expect(report.eras.modern).toEqual({ spoken: true, protocolVersion: "2026-07-28" });
    expect(report.eras.legacy.spoken).toBe(false);
    expect((report.checks as Json[]).map((c) => c.id)).toEqual([...TRANSPORT_STDIO, ...MODERN_COMMON]);
    expect(modernStatuses(report)).toEqual({ ...Object.fromEntries(MODERN_COMMON.map((id) => [id, "SKIP"])), "modern-discover": "FAIL" });
    expect(detailOf(report, "modern-discover")).toBe("the DiscoverResult breaks the 2026-07-28 schema: $.result.supportedVersions: expected an array of version strings; got nothing");
    expect(detailOf(report, "modern-result-type")).toBe("server/discover's answer breaks the schema (see the discover check): the other 2026-07-28 checks need a usable DiscoverResult");
    expect(code).toBe(1);
  });
});
