/**
 * How `mcpShell` runs its command line: a simple one with `exec` (the shell becomes the server, so
 * no shell sits in between holding the server's stdout), anything else as written.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpShell } from "../../src/driver/index.js";
import { execInPlace } from "../../src/driver/stdio-process.js";
import { expectNoProcessLeft, useDrivers, zoo } from "./support.js";

const track = useDrivers();

function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
}

describe.runIf(process.platform === "linux")("mcpShell's process", () => {
  it("a simple command line: the spawned process is the server itself", async () => {
    const app = track(mcpShell(zoo("no-response")));
    await app.initialize();
    expect(commandOf(app.pid!)).toContain("no-response.mjs");
    expect(commandOf(app.pid!)).not.toMatch(/^\/bin\/sh/);
    await app.close();
    await expectNoProcessLeft(app.pid);
  });

  it("a compound command line still runs in the shell, and works", async () => {
    const servers = path.join(path.dirname(new URL(import.meta.url).pathname), "servers");
    const app = track(mcpShell(`cd "${servers}" && "${process.execPath}" no-response.mjs`));
    await app.initialize();
    expect(commandOf(app.pid!)).toMatch(/sh -c cd /);
    await app.close();
    await expectNoProcessLeft(app.pid);
  });
});

describe.runIf(process.platform !== "win32")("execInPlace", () => {
  it("prefixes exec only where the shell would run one simple command", () => {
    expect(execInPlace(`"/usr/bin/node" "my server.mjs" --flag`)).toBe(`exec "/usr/bin/node" "my server.mjs" --flag`);
    expect(execInPlace("npx mcp-server-everything stdio")).toBe("exec npx mcp-server-everything stdio");
    for (const command of ["cd x && node s", "FOO=1 node s", "node s > log", "node $HOME/s", 'node "$HOME/s"', "node s; exit 1", "node s | tee log", "echo 'a;b'", "exec node s", "node `pwd`/s"]) {
      expect(execInPlace(command), command).toBe(command);
    }
  });
});
