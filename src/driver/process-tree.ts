/**
 * Ending a spawned server with everything it started, so that nothing outlives `close()`. How
 * the tree is found depends on the platform:
 *
 * - Linux: the server stays in this process's session and process group (no `detached`, as the
 *   SDK spawns it), and the tree is walked through /proc (proc-tree.ts). A session of its own
 *   would give the server a scheduling autogroup of its own, and on a busy machine that made it
 *   answer markedly slower (bench/README.md, "Where a burst waits").
 * - other POSIX systems (macOS): the server is spawned detached, so it leads its own process
 *   group and `process.kill(-pid)` reaches the shell, the server and any child they made. These
 *   have no autogroups, and no /proc to walk.
 * - Windows: `taskkill /T` walks the tree.
 *
 * A server on Linux is thus in the foreground process group of a terminal like this process is,
 * and gets the terminal's Ctrl-C (SIGINT) with it, as any child does; elsewhere it does not.
 */
import { spawnSync } from "node:child_process";
import { LinuxProcTree } from "./linux-proc-tree.js";

const isWindows = process.platform === "win32";
const walksProc = process.platform === "linux";

/** Whether a server is spawned detached (a session and process group of its own). */
export const spawnsDetached = !isWindows && !walksProc;

export interface ProcessTree {
  /**
   * Remembers the processes running under the server now, so that they are still ended once the
   * server has exited (which orphans them). Only the /proc walk needs it; a group needs nothing.
   */
  note(): void;
  /** Sends `signal` to every process of the tree still running. False when nothing was left to signal. */
  signal(signal: NodeJS.Signals): boolean;
}

/** The tree of a server just spawned (with `detached: spawnsDetached`) as process `pid`. */
export function processTreeOf(pid: number): ProcessTree {
  if (walksProc) return new LinuxProcTree(pid);
  return isWindows ? new TaskkillTree(pid) : new GroupTree(pid);
}

class GroupTree implements ProcessTree {
  constructor(private readonly rootPid: number) {}

  note(): void {}

  signal(signal: NodeJS.Signals): boolean {
    try {
      process.kill(-this.rootPid, signal);
      return true;
    } catch {
      // ESRCH: the whole group is gone. (Never fall back to the bare pid: once the leader has been
      // reaped, its pid may belong to an unrelated process.)
      return false;
    }
  }
}

class TaskkillTree implements ProcessTree {
  constructor(private readonly rootPid: number) {}

  note(): void {}

  signal(): boolean {
    const result = spawnSync("taskkill", ["/pid", String(this.rootPid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    return result.status === 0;
  }
}

/**
 * Process trees still running, killed when this process exits, so that a test run that ends
 * without `close()` (a crash, a forgotten driver) leaves no server behind.
 */
const liveTrees = new Set<ProcessTree>();
let exitHookInstalled = false;

export function trackProcessTree(tree: ProcessTree): void {
  liveTrees.add(tree);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const live of liveTrees) live.signal("SIGKILL");
  });
}

export function untrackProcessTree(tree: ProcessTree): void {
  liveTrees.delete(tree);
}
