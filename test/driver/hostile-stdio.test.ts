/**
 * Hostile stdio servers: one that floods stdout with lines that are not JSON must not
 * make the driver's memory grow with it, and one that closes stdout but keeps running must end
 * the conversation at once, not at each request's timeout.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, mcpShell, MCPStdinSubprocess, ProtocolError } from "../../src/driver/index.js";
import { eventually, expectNoProcessLeft, useDrivers, zoo } from "./support.js";

const track = useDrivers();

/** A forced GC, for heap figures that mean something (vitest runs without --expose-gc). */
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("a server that writes megabytes of lines that are not JSON", () => {
  it("keeps a bounded number of protocol errors, counts them all, and its memory stays bounded", { timeout: 60_000 }, async () => {
    const lines = 100_000; // about 10 MB
    const app = track(mcpShell(zoo("writes-garbage"), { env: { ZOO_GARBAGE_LINES: String(lines) }, requestTimeout: 30_000 }));
    await app.initialize();
    const before = heapUsed();

    const call = app.callTool("garbage");
    await expect(call).rejects.toBeInstanceOf(ProtocolError);
    await expect(call).rejects.toThrow(/wrote a line to stdout that is not JSON-RPC: "not json: x+/);
    await eventually(() => app.stderr.includes(`zoo: wrote ${lines} garbage lines`), 30_000, "the server to write its garbage");
    await eventually(() => app.protocolErrorCount === lines, 30_000, `${lines} protocol errors to be counted (got ${app.protocolErrorCount})`);

    expect(app.protocolErrorCount).toBe(lines);
    expect(app.protocolErrors.length).toBe(100);
    expect(app.protocolErrors[0]!.line).toBe(`not json: ${"x".repeat(90)}`);
    // One error per line kept (each with the process's last output) would be hundreds of MB here.
    const growth = heapUsed() - before;
    expect(growth).toBeLessThan(60 * 1024 * 1024);
    // The session is broken, and a later call says so at once, with the first error as its cause.
    const later = (await app.callTool("echo").catch((e: unknown) => e)) as Error;
    expect(later.message).toContain('tools/call "echo" was not sent: the session stopped when the server broke the protocol earlier');
    expect(later.cause).toBe(app.protocolErrors[0]);

    await app.close();
    await expectNoProcessLeft(app.pid);
  });

  it("a kept error holds no session: the driver is collected once dropped", { timeout: 30_000 }, async () => {
    let collected = false;
    const registry = new FinalizationRegistry(() => (collected = true));
    let kept: ProtocolError | undefined;
    let pid: number | undefined;
    await (async () => {
      const app = mcpShell(zoo("writes-garbage"), { env: { ZOO_GARBAGE_LINES: "10" } });
      pid = app.pid;
      await app.initialize();
      await app.callTool("garbage").catch(() => undefined);
      await eventually(() => app.protocolErrorCount === 10, 10_000, "10 protocol errors");
      kept = app.protocolErrors[0];
      registry.register(app, "driver");
      await app.close();
    })();
    await expectNoProcessLeft(pid);
    for (let attempt = 0; attempt < 50 && !collected; attempt++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(kept).toBeInstanceOf(ProtocolError);
    expect(collected).toBe(true);
  });
});

describe("a server that closes its stdout but keeps running", () => {
  for (const [how, open] of [
    ["mcpShell", () => mcpShell(zoo("closes-stdout"), { requestTimeout: 20_000 })],
    ["MCPStdinSubprocess", () => new MCPStdinSubprocess({ command: process.execPath, args: [zoo("closes-stdout").split('" "')[1]!.slice(0, -1)], requestTimeout: 20_000 })],
  ] as const) {
    it(`fails the requests in flight at once, with an error that says so (${how})`, { timeout: 30_000 }, async () => {
      const app = track(open());
      await app.initialize();
      const call = app.callTool("anything");
      const error = (await call.catch((e: unknown) => e)) as ConnectionClosedError;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.message).toContain(`closed its stdout before answering tools/call "anything"`);
      expect(error.message).toContain("its process is still running");
      expect(error.exitCode).toBeNull();
      expect(error.stderr).toContain("zoo: closed stdout, still running");
      // ConnectionClosedError, not the request timeout's error (20 s): the end of stdout ended the conversation.
      // Later requests fail at once too.
      await expect(app.ping()).rejects.toBeInstanceOf(ConnectionClosedError);
      // The process was still running; closing stdin ends it cleanly.
      expect(app.exitCode).toBeUndefined();
      await app.close();
      expect(app.exitCode).toBe(0);
      await expectNoProcessLeft(app.pid);
    });
  }
});
