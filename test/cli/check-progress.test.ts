/**
 * The spinner of `inspect`, `call` and `check`: drawn on stderr only when it is a terminal,
 * cleared before each line printed to stdout, and absent otherwise (so piped output and
 * `--json` stay plain).
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createProgress } from "../../src/cli/output/progress.js";
import { CLI, REPO } from "./support.js";

function fakeTerminal(isTTY: boolean) {
  const written: string[] = [];
  const stream = { isTTY, columns: 30, write: (chunk: string) => (written.push(chunk), true) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe("createProgress", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("on a terminal: draws the step, clears it around lines for stdout, and clears it when stopped", () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const { stream, written } = fakeTerminal(true);
    const progress = createProgress(stream, true);
    progress.step("starting the server");
    expect(written).toEqual(["\r\x1b[2K⠋ starting the server"]);
    progress.step("a step with a name far too long for the terminal");
    expect(written.at(-1)).toBe("\r\x1b[2K⠙ a step with a name far too…");
    progress.print("1. PASS  ping");
    expect(stdout).toHaveBeenCalledWith("1. PASS  ping\n");
    expect(written.slice(-2)).toEqual(["\r\x1b[2K", "\r\x1b[2K⠹ a step with a name far too…"]);
    progress.stop();
    expect(written.at(-1)).toBe("\r\x1b[2K");
    const count = written.length;
    progress.stop();
    expect(written.length).toBe(count);
  });

  it("not on a terminal: nothing on stderr, lines go to stdout as they are", () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const { stream, written } = fakeTerminal(false);
    const progress = createProgress(stream);
    progress.step("starting");
    progress.print("line");
    progress.stop();
    expect(written).toEqual([]);
    expect(stdout).toHaveBeenCalledWith("line\n");
  });
});

const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;

describe("the spinner in a real terminal", () => {
  it.skipIf(!hasScript || process.platform !== "linux")("check draws it on a pseudo-terminal and still prints every check", async () => {
    const server = `"${process.execPath}" "${join(REPO, "test", "cli", "servers", "broken.mjs")}"`;
    const command = `"${process.execPath}" "${CLI}" check '${server}'`;
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env.CI;
    // `script` gives the CLI a pseudo-terminal for stdin, stdout and stderr.
    const child = spawn("script", ["-qefc", command, "/dev/null"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`no exit within 15 s; output so far:\n${output}`));
      }, 15_000);
      child.once("close", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(0);
    expect(output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (starting|\d+\/17 )/);
    expect(output).toContain("17 checks: 14 passed, 0 warnings, 0 failed, 3 skipped");
    // Each check line starts on a cleared line, not after spinner text.
    const plain = output.replace(/\r\n/g, "\n");
    expect(plain).toContain("\r\x1b[2K  1. PASS  Initialize handshake");
  });
});
