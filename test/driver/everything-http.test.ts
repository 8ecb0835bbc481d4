/**
 * Oracle: server-everything over Streamable HTTP (started here as a child on a free port). The
 * same driver API works over HTTP: lists, calls, reads, server requests on the SSE streams,
 * custom headers, and close ends the session.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionClosedError, mcpConnect } from "../../src/driver/index.js";
import { McpTestkitError } from "../../src/errors.js";
import { eventually, everythingBin, isProcessGroupAlive, useDrivers } from "./support.js";
import { freePort } from "../support/ports.js";

const track = useDrivers();

describe("server-everything over Streamable HTTP", () => {
  let server: ChildProcess;
  let url: string;
  const serverStderr: string[] = [];
  const serverStdout: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(everythingBin, ["streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    server.stderr!.setEncoding("utf8").on("data", (chunk: string) => serverStderr.push(chunk));
    server.stdout!.setEncoding("utf8").on("data", (chunk: string) => serverStdout.push(chunk));
    await eventually(() => serverStderr.join("").includes(`listening on port ${port}`), 10_000, "server-everything to listen");
    url = `http://127.0.0.1:${port}/mcp`;
  });

  afterAll(async () => {
    const pid = server.pid!;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    process.kill(-pid, "SIGINT");
    await exited;
    await eventually(() => !isProcessGroupAlive(pid), 3000, "server-everything (HTTP) to end");
  });

  it("initializes, lists, calls, reads and gets prompts", async () => {
    const app = track(mcpConnect(url));
    expect(app.kind).toBe("http");
    const init = await app.initialize();
    expect(init.serverInfo.name).toBe("mcp-servers/everything");
    expect(await app.hasTool("echo")).toBe(true);
    expect((await app.callTool("echo", { message: "over http" })).getTextContent()).toBe("Echo: over http");
    expect((await app.readResource("demo://resource/dynamic/text/2")).getTextContent()).toContain("Resource 2");
    expect((await app.getPrompt("simple-prompt")).messages.length).toBeGreaterThan(0);
    await app.ping();
    expect(app.problems).toEqual([]);
    const sessionId = app.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    await app.close();
    // close() ended the session with DELETE.
    expect(serverStdout.join("")).toContain(`Received session termination request for session ${sessionId}`);
  });

  it("answers roots and sampling requests that arrive over the SSE streams", async () => {
    const app = track(
      mcpConnect(url, {
        roots: [{ uri: "file:///srv/data", name: "data" }],
        onSampling: () => ({ role: "assistant", content: { type: "text", text: "HTTP sample" }, model: "test-model" }),
      }),
    );
    expect((await app.callTool("get-roots-list")).getTextContent()).toContain("URI: file:///srv/data");
    expect((await app.callTool("trigger-sampling-request", { prompt: "hi", maxTokens: 5 })).getTextContent()).toContain("HTTP sample");
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("sends the headers given, through the fetch given", async () => {
    const seen: Array<string | null> = [];
    const app = track(
      mcpConnect(url, {
        headers: { "x-test-suite": "driver" },
        fetch: (input, init) => {
          seen.push(new Headers(init?.headers).get("x-test-suite"));
          return fetch(input, init);
        },
      }),
    );
    await app.ping();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((value) => value === "driver")).toBe(true);
    await app.close();
  });

  it("close() rejects what is in flight; calls after close are refused", async () => {
    const app = track(mcpConnect(url, { requestTimeout: 10_000 }));
    await app.initialize();
    const slow = app.callTool("trigger-long-running-operation", { duration: 5, steps: 5 }).catch((e: unknown) => e);
    await app.close();
    expect(await slow).toBeInstanceOf(ConnectionClosedError);
    await expect(app.ping()).rejects.toThrow(McpTestkitError);
    await expect(app.waitForExit()).rejects.toThrow(/needs a spawned server/);
  });

  it("a URL where nothing listens fails with a clear connection error", async () => {
    const port = await freePort();
    // Legacy, to name initialize as the request that failed (auto: server/discover, in modern.test.ts).
    const app = track(mcpConnect(`http://127.0.0.1:${port}/mcp`, { versionNegotiation: "legacy" }));
    const error = (await app.initialize().catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    // First what happened in plain words, then the network cause behind fetch's "fetch failed".
    expect(error.message).toBe(
      `[mcp-testkit] Nothing answered at http://127.0.0.1:${port}/mcp (connection refused), so initialize (id 1) was not sent. Is the server running, on this port? Detail: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    // The same as data, for code that tells a refused connection apart.
    expect(error).toMatchObject({ sendFailure: "nothingListening", url: `http://127.0.0.1:${port}/mcp`, method: "initialize" });
    await app.close();
  });

  it("rejects a URL that is not http(s)", () => {
    expect(() => mcpConnect("ftp://example.com/mcp")).toThrow(/expected an http: or https: URL/);
    expect(() => mcpConnect("not a url")).toThrow(/expected an http\(s\) URL/);
  });
});

describe("mcpConnect(url, { sessionId }): going on with a session begun elsewhere", () => {
  it("sends no initialize, uses the session and its version header, and says what it cannot know", async () => {
    const { mockMcp } = await import("../../src/index.js");
    await using mock = await mockMcp({ tools: { ok: { returns: "fine" } } });
    const first = track(mcpConnect(mock.url!, { versionNegotiation: "legacy" }));
    await first.callTool("ok");
    const sessionId = first.sessionId!;
    const resumed = track(mcpConnect(mock.url!, { sessionId }));
    expect((await resumed.callTool("ok")).getTextContent()).toBe("fine");
    expect([resumed.sessionId, resumed.era, resumed.protocolVersion]).toEqual([sessionId, "legacy", "2025-11-25"]);
    expect(resumed.messages.filter((record) => record.direction === "outgoing").map((record) => record.method)).toEqual(["tools/call"]);
    expect(mock.calls.map((call) => call.sessionId)).toEqual([mock.calls[0]!.sessionId, mock.calls[0]!.sessionId]);
    // What the server said at initialize was said to the first driver.
    expect([resumed.serverInfo, resumed.serverCapabilities]).toEqual([undefined, {}]);
    await resumed.close();
    await first.close({ allowFailure: true });
  });

  it("refuses what cannot resume a session: 2026-07-28 (it has none), a pin, an empty id", () => {
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { sessionId: "s", protocolVersion: "2026-07-28" })).toThrow("sessionId resumes a session, and 2026-07-28 has none (each request stands alone)");
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { sessionId: "s", versionNegotiation: { pin: "2026-07-28" } })).toThrow("sessionId resumes a session, and a pinned 2026-07-28 has none");
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { sessionId: "" })).toThrow("sessionId must be the Mcp-Session-Id of a session the server gave, a non-empty string");
  });
});
