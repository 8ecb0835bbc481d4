/**
 * Shared parts for the driver tests: paths to the real servers and the zoo, and a tracker that
 * closes every driver a test made and checks that no process it spawned is left.
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { afterEach, expect } from "vitest";
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
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== "Z") return true;
  }
  return false;
}

function procStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces: read the fields after it.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** Asserts that the process group a driver spawned is completely gone. */
export async function expectNoProcessLeft(pid: number | undefined): Promise<void> {
  expect(pid).toBeTypeOf("number");
  await eventually(() => !isProcessGroupAlive(pid!), 3000, `process group ${pid} to end`);
}

const drivers = new Set<McpDriver>();

/**
 * Registers the after-each cleanup in the calling file: every tracked driver is closed (errors
 * ignored: the test has judged them) and its process group must be gone.
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
