/**
 * Ending a spawned server with everything it started. On POSIX the server is spawned detached, so
 * it leads its own process group and `process.kill(-pid)` reaches the shell, the server and any
 * child they made; on Windows `taskkill /T` walks the tree.
 */
import { spawnSync } from "node:child_process";

const isWindows = process.platform === "win32";

/** Whether spawned servers get their own process group (and so can be killed as a tree). */
export const spawnsProcessGroup = !isWindows;

/** Sends `signal` to the process tree led by `pid`. Returns false when nothing was left to signal. */
export function killProcessTree(pid: number, signal: NodeJS.Signals = "SIGKILL"): boolean {
  if (isWindows) {
    const result = spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    return result.status === 0;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the whole group is gone. (Never fall back to the bare pid: once the leader has been
    // reaped, its pid may belong to an unrelated process.)
    return false;
  }
}

/**
 * Process trees still running, killed when this process exits, so that a test run that ends
 * without `close()` (a crash, a forgotten driver) leaves no server behind.
 */
const liveTrees = new Set<number>();
let exitHookInstalled = false;

export function trackProcessTree(pid: number): void {
  liveTrees.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const tree of liveTrees) killProcessTree(tree, "SIGKILL");
  });
}

export function untrackProcessTree(pid: number): void {
  liveTrees.delete(pid);
}
