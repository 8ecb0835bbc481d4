/**
 * Our driver against a server built with the official SDK v2 (`@modelcontextprotocol/server`
 * 2.4.0), one factory serving both eras: over Streamable HTTP (`createMcpHandler` on a node:http
 * socket on 127.0.0.1) and over stdio (`serveStdio` in a child process), with
 * `versionNegotiation` auto, pinned and legacy; MRTR against the SDK's `inputRequired`; and
 * auto against a modern-only endpoint (`legacy: "reject"`), which must not fall back.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useSdkV2Http, type SdkV2HandlerOptions } from "../support/sdk-v2-http.js";
import { ConnectionClosedError, mcpConnect, mcpShell, ProtocolError } from "../../src/driver/index.js";
import { useDrivers } from "./support.js";

const MODERN = "2026-07-28";
const track = useDrivers();
const fixture = fileURLToPath(new URL("./servers/sdk-v2-server.mjs", import.meta.url));
const stdioCommand = `"${process.execPath}" "${fixture}" stdio`;

const startSdkV2 = useSdkV2Http();
const serveSdkV2 = async (options?: SdkV2HandlerOptions) => (await startSdkV2(options)).url;

const onElicitation = () => ({ action: "accept" as const, content: { ok: true } });

describe("SDK v2 server over Streamable HTTP", () => {
  for (const versionNegotiation of ["auto", { pin: MODERN }] as const) {
    it(`${JSON.stringify(versionNegotiation)}: speaks 2026-07-28 — discover, list, call, read, MRTR`, async () => {
      const url = await serveSdkV2();
      const app = track(mcpConnect(url, { versionNegotiation, onElicitation }));
      await app.initialize();
      expect(app.era).toBe("modern");
      expect(app.protocolVersion).toBe(MODERN);
      expect(app.serverInfo).toEqual({ name: "sdk-v2-fixture", version: "2.4.0" });
      expect(app.sessionId).toBeUndefined();
      expect((await app.getTools()).map((tool) => tool.name).sort()).toEqual(["add", "confirm"]);
      expect((await app.callTool("add", { a: 2, b: 3 })).getTextContent()).toBe("5");
      expect((await app.readResource("notes://today")).getTextContent()).toBe("Ship it.");
      // The SDK's inputRequired: the driver answers the elicitation and retries.
      expect((await app.callTool("confirm", { what: "deploy" })).getTextContent()).toBe("deploy: done");
      expect(app.messages.filter((record) => record.direction === "outgoing" && record.method === "tools/call")).toHaveLength(3);
      expect(app.problems).toEqual([]);
      await app.close();
    });
  }

  it("legacy: the SDK's stateless legacy fallback answers initialize", async () => {
    const url = await serveSdkV2();
    const app = track(mcpConnect(url, { versionNegotiation: "legacy" }));
    expect((await app.callTool("add", { a: 1, b: 1 })).getTextContent()).toBe("2");
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("auto against a modern-only endpoint (legacy: reject) stays modern", async () => {
    const url = await serveSdkV2({ legacy: "reject" });
    const app = track(mcpConnect(url));
    expect((await app.callTool("add", { a: 20, b: 22 })).getTextContent()).toBe("42");
    expect(app.era).toBe("modern");
    await app.close();
  });

  it("legacy against a modern-only endpoint fails the handshake, showing the server's 400 -32022", async () => {
    const url = await serveSdkV2({ legacy: "reject" });
    const app = track(mcpConnect(url, { versionNegotiation: "legacy" }));
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    // A legacy client has no fall-forward (spec, versioning): the failed POST carries the server's answer.
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toMatch(/The server refused initialize \(id 1\) with HTTP 400: .*"code":-32022.*"supported":\["2026-07-28"\]/);
    await app.close();
  });
});

describe("SDK v2 server over stdio (serveStdio)", () => {
  for (const versionNegotiation of ["auto", { pin: MODERN }, "legacy"] as const) {
    it(`${JSON.stringify(versionNegotiation)}: lists and calls`, async () => {
      const app = track(mcpShell(stdioCommand, { versionNegotiation, onElicitation }));
      expect((await app.callTool("add", { a: 2, b: 2 })).getTextContent()).toBe("4");
      expect(app.era).toBe(versionNegotiation === "legacy" ? "legacy" : "modern");
      if (app.era === "modern") expect((await app.callTool("confirm", { what: "ship" })).getTextContent()).toBe("ship: done");
      expect(app.problems).toEqual([]);
      await app.close();
    });
  }
});

describe("a legacy-only server (server-everything over stdio)", () => {
  const everything = `"${path.join(fileURLToPath(new URL("../..", import.meta.url)), "node_modules", ".bin", "mcp-server-everything")}" stdio`;

  it("auto probes server/discover, is refused, and falls back to initialize", async () => {
    const app = track(mcpShell(everything));
    await app.initialize();
    expect(app.era).toBe("legacy");
    expect(app.protocolVersion).toBe("2025-11-25");
    expect(app.fallbackReason).toMatch(/^server\/discover failed: .*-32601/);
    const sent = app.messages.filter((record) => record.direction === "outgoing").map((record) => record.method);
    expect(sent.slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("a pin fails, saying the server is not modern", async () => {
    const app = track(mcpShell(everything, { versionNegotiation: { pin: MODERN } }));
    const error = (await app.initialize().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/does not speak MCP 2026-07-28/);
    await app.close();
  });
});
