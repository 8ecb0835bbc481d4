/**
 * close(timeoutMs) and `await using`: close stdin and wait; a server still running at the
 * timeout is killed with its whole process tree and close throws; a non-zero exit throws; and
 * nothing is ever left running.
 */
import { spawn } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, mcpShell, ProcessDidNotExit, ProcessExitedWithError } from "../../src/driver/index.js";
import { McpTestkitError } from "../../src/errors.js";
import { eventually, expectNoProcessLeft, isAlive, leftoverProcesses, useDrivers, zoo } from "./support.js";

const track = useDrivers();

/** The pid a zoo server printed on stderr after `prefix`. */
async function pidOnStderr(app: { stderr: string[] }, prefix: string): Promise<number> {
  await eventually(() => app.stderr.some((line) => line.startsWith(prefix)), 3000, `"${prefix}" on stderr`);
  return Number(app.stderr.find((line) => line.startsWith(prefix))!.slice(prefix.length));
}

describe("close()", () => {
  it("a well-behaved server exits when its stdin closes; close resolves when it exits, not at its timeout", async () => {
    const app = track(mcpShell(zoo("no-response")));
    await app.initialize();
    // A timeout far beyond the test's own: a close that waited for it would fail the test.
    await app.close(60_000);
    expect(app.exitCode).toBe(0);
    await expect(app.waitForExit()).resolves.toBe(0);
    await expectNoProcessLeft(app.pid);
  });

  it("a server that ignores stdin closing (and SIGTERM) is killed with its child; close throws", async () => {
    const app = track(mcpShell(zoo("ignores-stdin-close")));
    await app.initialize();
    await eventually(() => app.stderr.some((line) => line.startsWith("zoo: grandchild ")));
    const grandchild = Number(
      app.stderr
        .find((line) => line.startsWith("zoo: grandchild "))!
        .split(" ")
        .at(-1),
    );
    expect(isAlive(grandchild)).toBe(true);

    const started = performance.now();
    const error = (await app.close(300).catch((e: unknown) => e)) as ProcessDidNotExit;
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ProcessDidNotExit);
    expect(error.timeoutMs).toBe(300);
    expect(error.message).toContain("still running 300 ms after its stdin was closed");
    expect(error.message).toContain("killed its whole process tree");
    expect(error.stderr).toContain("zoo: stdin closed, staying up");
    expect(elapsed).toBeGreaterThanOrEqual(290);
    await expectNoProcessLeft(app.pid);
    await eventually(() => !isAlive(grandchild), 3000, "the grandchild to end");
  });

  it("a server that exits on stdin close but leaves children running: close ends them too", async () => {
    const app = track(mcpShell(zoo("leaves-child")));
    await app.initialize();
    const first = await pidOnStderr(app, "zoo: child ");
    // Started after the server's first answer, so seen only as close() begins.
    const later = Number((await app.callTool("start-child")).getTextContent());
    expect(isAlive(first) && isAlive(later)).toBe(true);
    await app.close();
    expect(app.exitCode).toBe(0);
    await eventually(() => !isAlive(first) && !isAlive(later), 3000, "the children to end");
    await expectNoProcessLeft(app.pid);
  });

  it("a server that crashed after starting a child: close still ends the orphaned child", async () => {
    const app = track(mcpShell(zoo("leaves-child")));
    await app.initialize();
    const child = await pidOnStderr(app, "zoo: child ");
    await app.callTool("crash").catch(() => undefined);
    await app.waitForExit();
    // The crash orphaned the child: it is no longer below the server.
    expect(isAlive(child)).toBe(true);
    await expect(app.close()).rejects.toBeInstanceOf(ProcessExitedWithError);
    await eventually(() => !isAlive(child), 3000, "the child to end");
    await expectNoProcessLeft(app.pid);
  });

  it("a shell that dies of SIGTERM while its server ignores it: the orphaned server and its child are killed", async () => {
    // A compound command line: the shell stays, as the server's parent.
    const app = track(mcpShell(`${zoo("ignores-stdin-close")}; true`));
    await app.initialize();
    const server = await pidOnStderr(app, "zoo: server ");
    const grandchild = await pidOnStderr(app, "zoo: grandchild ");
    expect(server).not.toBe(app.pid);
    const error = (await app.close(300).catch((e: unknown) => e)) as ProcessDidNotExit;
    expect(error).toBeInstanceOf(ProcessDidNotExit);
    expect(app.exitSignal).toBe("SIGTERM"); // the shell
    await eventually(() => !isAlive(server) && !isAlive(grandchild), 3000, "the server and its child to end");
    await expectNoProcessLeft(app.pid);
  });

  it.runIf(process.platform !== "win32")("a tree that keeps forking while it is ended is ended whole", async () => {
    const app = track(mcpShell(zoo("keeps-forking")));
    await app.initialize();
    const forker = Number((await app.callTool("fork")).getTextContent());
    await eventually(() => isAlive(forker), 3000, "the forking shell to start");
    await expect(app.close(50)).rejects.toBeInstanceOf(ProcessDidNotExit);
    await eventually(() => !isAlive(forker), 3000, "the forking shell to end");
    await expectNoProcessLeft(app.pid);
  });

  it.runIf(process.platform === "linux")("the leftover check sees a process of the tree that was orphaned (it can fail)", async () => {
    // A shell that starts a sleeper in the background and exits: the sleeper is orphaned at once.
    const shell = spawn("/bin/sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], { stdio: ["ignore", "pipe", "ignore"] });
    let text = "";
    shell.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    await new Promise((resolve) => shell.on("close", resolve));
    const sleeper = Number(text.trim());
    try {
      await eventually(() => leftoverProcesses(shell.pid!).some((left) => left.pid === sleeper), 3000, "the orphaned sleeper to be seen");
    } finally {
      process.kill(sleeper, "SIGKILL");
    }
    await eventually(() => !isAlive(sleeper), 3000, "the sleeper to end");
    expect(leftoverProcesses(shell.pid!)).toEqual([]);
  });

  it("a non-zero exit code on close throws ProcessExitedWithError with the context", async () => {
    const app = track(mcpShell(zoo("exits-nonzero-on-close")));
    await app.ping();
    const error = (await app.close().catch((e: unknown) => e)) as ProcessExitedWithError;
    expect(error).toBeInstanceOf(ProcessExitedWithError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toContain("exited with code 4");
    await expectNoProcessLeft(app.pid);
  });

  it("a server that dies of a signal when its stdin closes (one mcp-testkit did not send): close throws ProcessExitedWithError naming it", async () => {
    const app = track(mcpShell(`${zoo("dies-of-signal-on-close")} SIGTERM`));
    await app.ping();
    const error = (await app.close().catch((e: unknown) => e)) as ProcessExitedWithError;
    // It exited in time, so it was not killed at the timeout (that would be ProcessDidNotExit): the signal is its own.
    expect(error).toBeInstanceOf(ProcessExitedWithError);
    expect(error.message).toContain("The server process was ended by SIGTERM.");
    // At close, not on its own: the test did end it (by closing stdin), so no "not by mcp-testkit".
    expect(error.message).not.toMatch(/on its own|not by mcp-testkit/);
    expect(error).toMatchObject({ exitCode: null, exitSignal: "SIGTERM" });
    expect(error.stderr).toContain("zoo: stdin closed, ending myself with SIGTERM");
    expect(app.closeError).toBe(error);
    expect(app.exitCode).toBeNull();
    expect(app.exitSignal).toBe("SIGTERM");
    await expect(app.waitForExit()).resolves.toBe(143);
    await expectNoProcessLeft(app.pid);
  });

  it("a server that dies of SIGKILL at close leaving a child: ending the child with SIGKILL does not make it our kill", async () => {
    const app = track(mcpShell(`${zoo("dies-of-signal-on-close")} SIGKILL with-child`));
    await app.ping();
    const child = await pidOnStderr(app, "zoo: child ");
    const error = (await app.close().catch((e: unknown) => e)) as ProcessExitedWithError;
    expect(error).toBeInstanceOf(ProcessExitedWithError);
    expect(error.message).toContain("The server process was ended by SIGKILL.");
    expect(app.exitSignal).toBe("SIGKILL");
    await eventually(() => !isAlive(child), 3000, "the orphaned child to end");
    await expectNoProcessLeft(app.pid);
  });

  it("rejects requests in flight, returns the same promise when called again, and refuses later calls", async () => {
    const app = track(mcpShell(zoo("no-response"), { requestTimeout: 10_000 }));
    await app.initialize();
    const call = app.callTool("echo");
    const closing = app.close();
    expect(app.close()).toBe(closing);
    await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(call).rejects.toThrow(/close\(\) was called before tools\/call "echo" \(id \d+\) was answered/);
    await closing;
    await expect(app.callTool("echo")).rejects.toThrow(McpTestkitError);
    await expect(app.callTool("echo")).rejects.toThrow(/after close\(\)/);
    await expectNoProcessLeft(app.pid);
  });

  it("kill() ends the tree at once; close then does not blame the server", async () => {
    const app = track(mcpShell(zoo("no-response")));
    await app.initialize();
    app.kill();
    await expect(app.waitForExit()).resolves.toBe(137);
    await expect(app.close()).resolves.toBeUndefined();
    await expectNoProcessLeft(app.pid);
  });
});

describe("await using", () => {
  it("closes the server at the end of the block", async () => {
    let pid: number | undefined;
    {
      await using app = mcpShell(zoo("no-response"));
      await app.initialize();
      pid = app.pid;
    }
    await expectNoProcessLeft(pid);
  });

  it("never leaves a process behind, even one that ignores stdin closing (the error surfaces)", async () => {
    let pid: number | undefined;
    const run = async () => {
      await using app = mcpShell(zoo("ignores-stdin-close"));
      pid = app.pid;
      await app.initialize();
      // close(5000) would wait 5 s; dispose uses the default, so close explicitly with a short one
      // to show that an explicit close is not repeated by the disposal.
      await app.close(200);
    };
    await expect(run()).rejects.toBeInstanceOf(ProcessDidNotExit);
    await expectNoProcessLeft(pid);
  });

  it("the block's own error wins, and the server is still ended", async () => {
    let pid: number | undefined;
    const run = async () => {
      await using app = mcpShell(zoo("no-response"));
      pid = app.pid;
      await app.initialize();
      throw new Error("test body failed");
    };
    await expect(run()).rejects.toThrow("test body failed");
    await expectNoProcessLeft(pid);
  });

  it("a server that exits non-zero does not bury the block's own failure under a SuppressedError", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let app: ReturnType<typeof mcpShell> | undefined;
    let written: string[];
    try {
      const run = async () => {
        await using driver = mcpShell(zoo("exits-nonzero-on-close"));
        app = driver;
        await driver.ping();
        expect(1, "the test's own assertion").toBe(2);
      };
      const error = (await run().catch((e: unknown) => e)) as Error;
      // The assertion's own error, not a SuppressedError wrapping it and the close failure.
      expect(error.name).toBe("AssertionError");
      expect(error.message).toContain("the test's own assertion");
    } finally {
      written = stderr.mock.calls.map(([text]) => String(text));
      stderr.mockRestore();
    }
    expect(app!.closeError).toBeInstanceOf(ProcessExitedWithError);
    expect(app!.exitCode).toBe(4);
    const said = written.filter((text) => text.includes("while disposing"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("The server process exited with code 4");
    expect(said[0]).toContain("close({ allowFailure: true })");
    await expectNoProcessLeft(app!.pid);
  });

  it("disposal never throws, even when the block passes: the bad exit is in closeError and said on stderr", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let app: ReturnType<typeof mcpShell> | undefined;
    let written: string[];
    try {
      await (async () => {
        await using driver = mcpShell(zoo("exits-nonzero-on-close"));
        app = driver;
        await driver.ping();
      })();
    } finally {
      written = stderr.mock.calls.map(([text]) => String(text));
      stderr.mockRestore();
    }
    expect(app!.closeError).toBeInstanceOf(ProcessExitedWithError);
    expect(app!.closeError!.message).toContain("exited with code 4");
    expect(written.some((text) => text.includes("while disposing"))).toBe(true);
    await expectNoProcessLeft(app!.pid);
  });
});

describe("a test that expects the server to end badly", () => {
  it("close({ allowFailure: true }) resolves on a non-zero exit; the exit is on the driver, and disposal stays quiet", async () => {
    const stderr = vi.spyOn(process.stderr, "write");
    let app: ReturnType<typeof mcpShell> | undefined;
    await (async () => {
      await using driver = mcpShell(zoo("exits-nonzero-on-close"));
      app = driver;
      await driver.ping();
      await expect(driver.close({ allowFailure: true })).resolves.toBeUndefined();
      expect(driver.exitCode).toBe(4);
      expect(driver.exitSignal).toBeNull();
      expect(driver.closeError).toBeInstanceOf(ProcessExitedWithError);
      // close() without allowFailure still reports it: the same close, the same failure.
      await expect(driver.close()).rejects.toBe(driver.closeError);
    })();
    const written = stderr.mock.calls.map(([text]) => String(text));
    stderr.mockRestore();
    expect(written.some((text) => text.includes("while disposing"))).toBe(false);
    await expectNoProcessLeft(app!.pid);
  });

  it("close({ timeoutMs, allowFailure: true }) on a server that will not exit kills it and resolves", async () => {
    const app = track(mcpShell(zoo("ignores-stdin-close")));
    await app.initialize();
    await expect(app.close({ timeoutMs: 200, allowFailure: true })).resolves.toBeUndefined();
    expect(app.closeError).toBeInstanceOf(ProcessDidNotExit);
    expect(app.exitSignal).not.toBeNull();
    await expectNoProcessLeft(app.pid);
  });

  it("close() with a bad timeout, or one longer than a timer holds, says what it expected", async () => {
    const app = track(mcpShell(zoo("no-response")));
    await expect(app.close({ timeoutMs: -1 })).rejects.toThrow(`close()'s options: "timeoutMs" must be a number of ms from 0 to 2147483647, got number -1.`);
    await expect(app.close(3e9)).rejects.toThrow(`close()'s options: "timeoutMs" must be a number of ms from 0 to 2147483647, got number 3000000000.`);
    await app.close();
  });
});
