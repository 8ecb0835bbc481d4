/**
 * A short-lived second copy of a stdio server for the probes a well-behaved client never makes:
 * raw lines on its stdin (malformed JSON, an initialize asking for an unknown version), its
 * stdout read line by line. It runs in its own process group and is always ended with its
 * whole tree (`stop()`, or when this process exits).
 */
import { spawn, type ChildProcess } from "node:child_process";

type Json = Record<string, unknown>;

const isWindows = process.platform === "win32";
const live = new Set<RawStdioServer>();
let exitHook = false;

export class RawStdioServer {
  /** JSON-RPC messages read from stdout, in order. */
  readonly messages: Json[] = [];
  /** Lines on stdout that are not a JSON object. */
  readonly nonJson: string[] = [];
  readonly stderr: string[] = [];
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<void>;

  private readonly child: ChildProcess;
  private buffer = "";
  private readonly waiters = new Set<() => void>();

  constructor(shellCommand: string) {
    this.child = spawn(shellCommand, { shell: true, stdio: ["pipe", "pipe", "pipe"], detached: !isWindows, windowsHide: true });
    live.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => {
        for (const server of live) server.killTree();
      });
    }
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        this.exit ??= { code, signal };
        live.delete(this);
        this.wake();
        resolve();
      };
      this.child.once("exit", done);
      this.child.once("error", () => done(null, null));
    });
    this.child.stdin!.on("error", () => undefined);
    this.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => this.read(chunk));
    let stderrRest = "";
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (stderrRest + chunk).split("\n");
      stderrRest = lines.pop() ?? "";
      this.stderr.push(...lines);
    });
  }

  /** Writes one line (a newline is added). */
  write(line: string): void {
    if (this.exit === undefined && this.child.stdin?.writable) this.child.stdin.write(`${line}\n`);
  }

  send(message: Json): void {
    this.write(JSON.stringify(message));
  }

  /** The first message (already read or still to come) passing `test`; undefined after `timeoutMs` or once the process has exited. */
  async waitFor(test: (message: Json) => boolean, timeoutMs: number): Promise<Json | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.exit !== undefined) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** The response to request `id`, if it comes within `timeoutMs`. */
  response(id: string | number, timeoutMs: number): Promise<Json | undefined> {
    return this.waitFor((message) => message.id === id && ("result" in message || "error" in message), timeoutMs);
  }

  /** Closes stdin, gives the server `graceMs` to exit, then ends its whole tree; resolves once it has exited. */
  async stop(graceMs = 500): Promise<void> {
    this.child.stdin?.end();
    const timer = setTimeout(() => this.killTree(), graceMs);
    await this.exited;
    clearTimeout(timer);
    this.killTree(); // anything it left behind in its group
  }

  private killTree(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (isWindows) this.child.kill("SIGKILL");
      else process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  private read(chunk: string): void {
    const lines = (this.buffer + chunk).split("\n");
    this.buffer = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        this.nonJson.push(line);
        continue;
      }
      if (typeof value === "object" && value !== null && !Array.isArray(value)) this.messages.push(value as Json);
      else this.nonJson.push(line);
    }
    this.wake();
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
