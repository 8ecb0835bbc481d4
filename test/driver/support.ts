/**
 * Shared parts for the driver tests: paths to the real servers and the zoo, and a tracker that
 * closes every driver a test made and checks that no process it spawned is left.
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { afterEach, expect } from "vitest";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { McpDriver } from "../../src/driver/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

export const everythingCommand = `"${bin("mcp-server-everything")}" stdio`;
export const everythingBin = bin("mcp-server-everything");
export const filesystemBin = bin("mcp-server-filesystem");
export const memoryBin = bin("mcp-server-memory");

/** The shell command that runs a zoo server from test/driver/servers. */
export function zoo(name: string): string {
  return `"${process.execPath}" "${path.join(root, "test", "driver", "servers", `${name}.mjs`)}"`;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, polling; fails after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 3000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** Whether a process (a plain pid, e.g. a grandchild) still runs. Zombies waiting to be reaped do not count. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = procStat(pid);
  return stat === undefined || stat.state !== "Z";
}

/**
 * Whether any process of the group `pgid` still runs. On Linux /proc is read, so that zombies
 * (dead, waiting for a reaper that a container's PID 1 may be slow to be) do not count.
 */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  return runningProcesses().some((stat) => stat.pgrp === pgid);
}

/**
 * Every process a driver of this test file spawns carries this variable (the driver passes this
 * process's environment on), and so does everything those start unless they clear their
 * environment: /proc/<pid>/environ then finds them wherever they went, orphaned or not. On Linux
 * the driver keeps its server in our own process group, so the marker, not a group, is what tells
 * its processes from everything else.
 */
// Set per test file by test/setup/per-file.ts (a worker runs many files); read when a check runs.
process.env.MCP_TESTKIT_TEST_TREE ??= `${process.pid}-${randomUUID()}`;
const treeMarker = (): string => `MCP_TESTKIT_TEST_TREE=${process.env.MCP_TESTKIT_TEST_TREE}`;

/**
 * Processes still running that the server `pid` left (Linux): `pid` itself, anything below it,
 * and anything of this file's trees that has been orphaned (no longer below this process), which
 * some driver's close() failed to end.
 */
export function leftoverProcesses(pid: number): Array<{ pid: number; command: string }> {
  const running = runningProcesses();
  const parentOf = new Map(running.map((stat) => [stat.pid, stat.ppid]));
  const leftovers: Array<{ pid: number; command: string }> = [];
  for (const stat of running) {
    if (stat.pid === process.pid || !carriesMarker(stat.pid)) continue;
    let below = false;
    let orphaned = true;
    for (let at: number | undefined = stat.pid, steps = 0; at !== undefined && at > 1 && steps < 1000; at = parentOf.get(at), steps++) {
      if (at === pid) below = true;
      if (at === process.pid) orphaned = false;
    }
    if (below || orphaned) leftovers.push({ pid: stat.pid, command: stat.command });
  }
  return leftovers;
}

function carriesMarker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(treeMarker());
  } catch {
    return false;
  }
}

interface ProcStat {
  pid: number;
  command: string;
  state: string;
  ppid: number;
  pgrp: number;
}

/** Every process but zombies (dead, waiting for a reaper that a container's PID 1 may be slow to be). */
function runningProcesses(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.state !== "Z") stats.push(stat);
  }
  return stats;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces: read the fields after it.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, command: text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")), state: fields[0]!, ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/**
 * Asserts that nothing the server `pid` started is left running: on Linux, neither it nor any
 * process of its tree (found by the marker above, orphaned or not); elsewhere, its process group
 * (the driver spawns it detached there).
 */
export async function expectNoProcessLeft(pid: number | undefined): Promise<void> {
  expect(pid).toBeTypeOf("number");
  if (process.platform !== "linux") {
    await eventually(() => !isProcessGroupAlive(pid!), 3000, `process group ${pid} to end`);
    return;
  }
  const deadline = Date.now() + 3000;
  let left = leftoverProcesses(pid!);
  while (left.length > 0 && Date.now() < deadline) {
    await delay(20);
    left = leftoverProcesses(pid!);
  }
  expect(left, `processes left by the server ${pid}`).toEqual([]);
}

const drivers = new Set<McpDriver>();

/**
 * Registers the after-each cleanup in the calling file: every tracked driver is closed (errors
 * ignored: the test has judged them) and nothing it started may be left running.
 */
export function useDrivers(): <T extends McpDriver>(driver: T) => T {
  afterEach(async () => {
    const open = [...drivers];
    drivers.clear();
    for (const driver of open) {
      await driver.close(1000).catch(() => undefined);
      if (driver.pid !== undefined) await expectNoProcessLeft(driver.pid);
    }
  });
  return (driver) => {
    drivers.add(driver);
    return driver;
  };
}
