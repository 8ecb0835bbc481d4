/**
 * A spawned server's process tree on Linux, found through /proc rather than a process group.
 *
 * The server is spawned in this process's own session and process group (as the SDK spawns it):
 * a session of its own (`detached`) would also give it a scheduling autogroup of its own, which
 * made a server answer a client in another autogroup markedly slower on a busy machine (see
 * bench/README.md, "Where a burst waits"). So there is no group to signal, and the tree is walked
 * instead: each process is stopped (SIGSTOP), and its children are read once all its threads are
 * seen stopped: a fork under way when the stop was sent has linked its child by then, and a
 * stopped process forks no more, so no child is born unseen.
 *
 * A child whose parent has exited is re-parented (to PID 1 or a subreaper) and no walk from the
 * server reaches it any more. So the tree remembers every process it has seen under the server
 * (pid and start time, so that a reused pid is never taken for it): `note()` records them, and a
 * later walk starts from every one still running, not only from the server.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync } from "node:fs";

/** Signals after which the stopped tree is not resumed: it is dead, or meant to stay stopped. */
const leaveStopped = new Set<NodeJS.Signals>(["SIGKILL", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU"]);
/** Bounds on one walk and on the memory of processes seen (a server forking without end). */
const maxMembers = 4096;
const maxKnown = 4096;
/** How long one walk waits in all for the processes it stopped to be stopped (one in uninterruptible sleep may take long; the walk goes on without it). */
const stopWaitMs = 200;
/** The states of a thread that can fork no more: stopped, traced, dead. */
const stoppedStates = new Set(["T", "t", "Z", "X", "x"]);

/** Whether this kernel lists a task's children in /proc (CONFIG_PROC_CHILDREN); else every /proc/<pid>/stat is read. */
const hasChildrenFiles = process.platform === "linux" && existsSync(`/proc/self/task/${process.pid}/children`);

export class LinuxProcTree {
  /** Every process seen under the server and maybe still running: pid → start time. */
  private readonly known = new Map<number, string>();

  constructor(rootPid: number) {
    const start = startTimeOf(rootPid);
    if (start !== undefined) this.known.set(rootPid, start);
  }

  /** Remembers the processes running under the server now, so that they can be ended even once the server has exited. */
  note(): void {
    this.walk(false);
  }

  /** Stops the whole tree, sends `signal` to each of its processes, and resumes them (unless the signal kills or stops). */
  signal(signal: NodeJS.Signals): boolean {
    const members = this.walk(true);
    for (const pid of members) trySignal(pid, signal);
    if (!leaveStopped.has(signal)) for (const pid of members) trySignal(pid, "SIGCONT");
    return members.length > 0;
  }

  /** The processes of the tree still running, level by level from every known one; each level stopped first when `freeze`. */
  private walk(freeze: boolean): number[] {
    const members: number[] = [];
    const seen = new Set<number>();
    let level: number[] = [];
    for (const [pid, start] of this.known) {
      if (startTimeOf(pid) === start) level.push(pid);
      else this.known.delete(pid); // exited (or its pid already reused)
    }
    const stopDeadline = performance.now() + stopWaitMs;
    while (level.length > 0 && members.length < maxMembers) {
      // Stopped before their children are read: then none can fork a child we would not see.
      const running: number[] = [];
      for (const pid of level) {
        if (seen.has(pid)) continue;
        seen.add(pid);
        if (!freeze || trySignal(pid, "SIGSTOP")) running.push(pid);
      }
      members.push(...running);
      if (freeze) waitUntilStopped(running, stopDeadline);
      const parents = hasChildrenFiles ? undefined : childrenByParent();
      level = [];
      for (const pid of running) {
        for (const child of parents ? (parents.get(pid) ?? []) : childrenOf(pid)) {
          if (seen.has(child)) continue;
          if (!this.known.has(child) && this.known.size < maxKnown) {
            const start = startTimeOf(child);
            if (start !== undefined) this.known.set(child, start);
          }
          level.push(child);
        }
      }
    }
    return members;
  }
}

/** Sends a signal; false when the process is gone (or not ours to signal). */
function trySignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits (synchronously: this also runs in an exit hook) until every thread of each process is stopped, or the deadline. */
function waitUntilStopped(pids: readonly number[], deadline: number): void {
  let waiting = pids.filter((pid) => !isStopped(pid));
  while (waiting.length > 0 && performance.now() < deadline) {
    Atomics.wait(pause, 0, 0, 0.2);
    waiting = waiting.filter((pid) => !isStopped(pid));
  }
}

/** For waiting a fraction of a millisecond without spinning. */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Whether every thread of the process is stopped (or the process is gone). */
function isStopped(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true;
  }
  for (const task of tasks) {
    const text = readProc(`/proc/${pid}/task/${task}/stat`);
    if (text !== undefined && !stoppedStates.has(text.charAt(text.lastIndexOf(")") + 2))) return false;
  }
  return true;
}

/** One buffer for reading /proc files: they are small, and read synchronously. */
const buffer = Buffer.allocUnsafe(64 * 1024);

/** The text of a /proc file, or undefined when it is gone (the process exited). Longer than the buffer (64 KiB): only its start. */
function readProc(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    // A /proc file is generated whole on the first read: a read that does not fill the buffer was all of it.
    const length = readSync(fd, buffer, 0, buffer.length, null);
    return buffer.toString("latin1", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold anything). */
function statFields(pid: number): string[] | undefined {
  const text = readProc(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** When the process started (field 22, in clock ticks since boot): with the pid, it names one process for good. */
function startTimeOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** The children of every thread of `pid`. */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    const text = readProc(`/proc/${pid}/task/${task}/children`);
    if (text === undefined) continue;
    for (const word of text.split(" ")) {
      const child = Number(word);
      if (word.trim() !== "" && Number.isInteger(child)) children.push(child);
    }
  }
  return children;
}

/** Parent → children for every process, from each /proc/<pid>/stat (for kernels without children files). */
function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isInteger(parent)) continue;
    const list = map.get(parent);
    if (list) list.push(Number(entry));
    else map.set(parent, [Number(entry)]);
  }
  return map;
}
