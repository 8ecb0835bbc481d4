/**
 * The client end of the stdio wire: spawns the server, speaks newline-delimited JSON over its
 * stdin and stdout, keeps the last lines it wrote to stdout and stderr for error messages, and
 * ends it with its whole process tree. It has the SDK's Transport shape, so the recorder can wrap it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { constants as osConstants } from "node:os";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MESSAGE_PREFIX } from "../errors.js";
import { SENT, type JsonTextExtra, type JsonTextTransport } from "../inspect/json-text.js";
import { BoundedJournal } from "../inspect/journal.js";
import { ProtocolError, type ProcessContext } from "./errors.js";
import type { ErrorClassifier } from "./transport-errors.js";
import { processTreeOf, spawnsDetached, trackProcessTree, untrackProcessTree, type ProcessTree } from "./process-tree.js";
import { settlesWithin } from "../util/settle-within.js";
import { clipCounted } from "../util/text.js";

export interface StdioProcessOptions {
  /** A shell command line (`"node server.js --flag"`), run by the system shell. */
  shellCommand?: string;
  /** Or an executable and its arguments, run without a shell. */
  command?: string;
  args?: readonly string[];
  /** Added to (and overriding) this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Lines on stdout that are not JSON are printed to stderr instead of being a protocol error. */
  allowDebugLogging?: boolean;
  /** Where debug lines go when `allowDebugLogging` is set; stderr by default. */
  debugOutput?: (line: string) => void;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ShutdownOutcome {
  /** True when the process exited by itself after its stdin was closed. */
  graceful: boolean;
  exit: ProcessExit;
}

/** A line on stdout that is not JSON (and `allowDebugLogging` is off). */
export class NonJsonOutputError extends Error {
  override name = "NonJsonOutputError";
  constructor(readonly line: string) {
    super(`the server wrote a line to stdout that is not JSON: ${JSON.stringify(clipCounted(line, 200))}`);
  }
}

/** A burst of messages leaves in writes of up to this many after its first (see `write`); 8 measured best with 32 in flight. */
const messagesPerWrite = 8;
const keptStdoutLines = 200;
const keptStderrLines = 1000;
const keptLineLength = 2000;
/** A line longer than this (64 MiB) without a newline is a protocol failure, not a memory leak. */
const maxLineLength = 64 * 1024 * 1024;
/** After the process exits, how long its pipes may stay open (a grandchild holding them) before we stop waiting. */
const pipeGraceMs = 200;
/**
 * After stdout ends, how long the process may take to exit before the end of stdout alone ends
 * the conversation (a server that closed stdout but runs on would otherwise be noticed only at
 * each request's timeout). A process that is exiting is reported as an exit, not as this.
 */
const stdoutEndGraceMs = 200;
/** How much of a non-JSON line a protocol error keeps (the line may be up to `maxLineLength`). */
const keptErrorLineLength = 64 * 1024;
/** After SIGTERM to the tree at a close timeout, how long before SIGKILL. */
const termGraceMs = 500;

export class StdioProcessTransport implements JsonTextTransport {
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];

  readonly shellCommand: string;
  readonly exited: Promise<ProcessExit>;
  /** Set when the process could not be spawned at all (no shell, no such cwd, no such command). */
  spawnError: Error | undefined;

  private readonly child: ChildProcess;
  /** The server's process tree, to end with it; undefined when it could not be spawned. */
  private readonly tree: ProcessTree | undefined;
  /** Whether the processes under the server have been noted once it answered (see `readLine`). */
  private treeNoted = false;
  private readonly allowDebugLogging: boolean;
  private readonly debugOutput: (line: string) => void;
  private readonly stdoutLines = new BoundedJournal<string>(keptStdoutLines);
  private readonly stderrLines = new BoundedJournal<string>(keptStderrLines);
  /** Pieces of the stdout line not yet ended by a newline. */
  private stdoutPending: string[] = [];
  private stdoutPendingLength = 0;
  private stderrBuffer = "";
  private exitInfo: ProcessExit | undefined;
  private resolveExited!: (exit: ProcessExit) => void;
  private started = false;
  /** Messages and errors read before `start()`, delivered by it. */
  private backlog: Array<() => void> = [];
  private closedFired = false;
  /** True once the server's stdout has ended: no answer can come after it. */
  stdoutEnded = false;
  private drained: Promise<void> | undefined;
  private stdinClosed = false;
  /** Messages written to stdin while it is corked, to leave together (see `write`). */
  private heldBack = 0;
  /** Whether this tick has written a message already (see `write`). */
  private tickOpen = false;
  /** The signals we sent, so an exit by one of them is not blamed on the server. */
  private signalsSent = new Set<string>();

  constructor(options: StdioProcessOptions) {
    if (options.shellCommand === undefined && options.command === undefined) {
      throw new TypeError("StdioProcessTransport needs a shellCommand or a command");
    }
    this.shellCommand = options.shellCommand ?? [options.command!, ...(options.args ?? [])].join(" ");
    this.allowDebugLogging = options.allowDebugLogging ?? false;
    this.debugOutput = options.debugOutput ?? ((line) => process.stderr.write(`${MESSAGE_PREFIX} server stdout: ${line}\n`));
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));

    const env = { ...process.env, ...options.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const spawnOptions = {
      env,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"] as ["pipe", "pipe", "pipe"],
      detached: spawnsDetached,
      windowsHide: true,
    };
    this.child =
      options.shellCommand !== undefined
        ? spawn(execInPlace(options.shellCommand), { ...spawnOptions, shell: true })
        : spawn(options.command!, [...(options.args ?? [])], { ...spawnOptions, shell: false });
    this.tree = this.child.pid === undefined ? undefined : processTreeOf(this.child.pid);
    if (this.tree) trackProcessTree(this.tree);

    this.child.on("error", (error) => {
      // Spawning failed (ENOENT…); there will be no exit code.
      this.spawnError ??= error;
      this.markExited({ code: null, signal: null });
      this.fireClosed();
    });
    this.child.on("exit", (code, signal) => {
      this.markExited({ code, signal });
      // Output written just before exiting is still in the pipes: wait for them to close, but not
      // forever (a grandchild may hold them open).
      setTimeout(() => this.fireClosed(), pipeGraceMs).unref();
    });
    this.child.on("close", () => this.fireClosed());
    // A write to a server that has exited fails with EPIPE; the exit is reported through onclose.
    this.child.stdin!.on("error", () => undefined);
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => this.readStdout(chunk));
    this.child.stdout!.on("end", () => this.stdoutEnd());
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => this.readStderr(chunk));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The exit code and signal, once the process has exited. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  get stdout(): string[] {
    return this.stdoutLines.toArray();
  }

  get stderr(): string[] {
    const lines = this.stderrLines.toArray();
    if (this.stderrBuffer !== "") lines.push(this.stderrBuffer);
    return lines;
  }

  /** Whether the process ended by a signal that we sent (at a close timeout). */
  get killedByUs(): boolean {
    return this.exitInfo?.signal != null && this.signalsSent.has(this.exitInfo.signal);
  }

  context(): ProcessContext {
    return {
      shellCommand: this.shellCommand,
      pid: this.child.pid,
      exitCode: this.exitInfo?.code ?? null,
      exitSignal: this.exitInfo?.signal ?? null,
      stdout: this.stdout,
      stderr: this.stderr,
      stderrDropped: this.stderrLines.dropped,
    };
  }

  /** This transport's errors that are the server breaking the protocol: lines on stdout that are not JSON. */
  readonly classifyError: ErrorClassifier = (error) => {
    if (!(error instanceof NonJsonOutputError)) return undefined;
    return () =>
      new ProtocolError(
        `The server wrote a line to stdout that is not JSON-RPC: ${JSON.stringify(clipCounted(error.line, 300))}. ` +
          `On stdio, stdout carries only protocol messages: log to stderr instead, or pass allowDebugLogging: true to print such lines.`,
        { line: clipCounted(error.line, keptErrorLineLength), process: this.context() },
      );
  };

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioProcessTransport already started");
    this.started = true;
    const backlog = this.backlog;
    this.backlog = [];
    for (const deliver of backlog) deliver();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.sendJsonText(JSON.stringify(message));
  }

  /** Sends a message already serialized (`JSON.stringify` of it), as one line. */
  sendJsonText(text: string): Promise<void> {
    if (this.exitInfo !== undefined || this.stdinClosed) {
      return Promise.reject(new Error(`the server process ${this.exitInfo === undefined ? "has its stdin closed" : "has exited"}`));
    }
    const stdin = this.child.stdin!;
    if (this.write(`${text}\n`) || stdin.destroyed) return SENT;
    // Backpressure: every sender waits for the same drain (one listener, however many wait).
    this.drained ??= new Promise<void>((resolve) => {
      const done = () => {
        stdin.off("drain", done);
        stdin.off("close", done);
        this.drained = undefined;
        resolve();
      };
      stdin.on("drain", done);
      stdin.on("close", done);
    });
    return this.drained;
  }

  /**
   * Writes to stdin. The first message of a tick leaves at once: one call at a time pays no
   * buffering and reaches the server without waiting for the end of the tick. Messages that
   * follow it in the same tick (requests in flight) leave together, up to `messagesPerWrite` at a
   * time: a fraction of the system calls and wake-ups of a write each, while the server already
   * works on the first ones as the rest are being sent.
   */
  private write(text: string): boolean {
    const stdin = this.child.stdin!;
    if (!this.tickOpen) {
      this.tickOpen = true;
      process.nextTick(this.endTick);
      return stdin.write(text);
    }
    if (this.heldBack === 0) stdin.cork();
    const belowHighWaterMark = stdin.write(text);
    if (++this.heldBack === messagesPerWrite) this.flush();
    return belowHighWaterMark;
  }

  /** At the end of the tick that wrote: what it held back leaves, and the next message goes at once again. */
  private readonly endTick = (): void => {
    this.tickOpen = false;
    this.flush();
  };

  private flush(): void {
    if (this.heldBack === 0) return;
    this.heldBack = 0;
    this.child.stdin!.uncork();
  }

  /** The Transport contract: closes stdin, and ends the tree if it has not exited after 2 s. */
  async close(): Promise<void> {
    await this.shutdown(2000);
  }

  /** Closes stdin (the stdio way to ask a server to exit). */
  closeStdin(): void {
    if (this.stdinClosed) return;
    this.stdinClosed = true;
    this.child.stdin!.end();
  }

  /**
   * Closes stdin and waits up to `timeoutMs` for the process to exit. A process still running
   * then is ended with its whole tree (SIGTERM, then SIGKILL). Either way, anything of its tree
   * left afterwards (a background child) is killed, so nothing outlives the call.
   */
  async shutdown(timeoutMs: number): Promise<ShutdownOutcome> {
    // What runs under the server now is still ended if the server exits first and orphans it.
    this.tree?.note();
    this.closeStdin();
    const graceful = this.exitInfo !== undefined || (await settlesWithin(this.exited, timeoutMs));
    if (!graceful) {
      this.signalTree("SIGTERM");
      if (!(await settlesWithin(this.exited, termGraceMs))) {
        this.signalTree("SIGKILL");
        await settlesWithin(this.exited, 5000);
      }
    }
    this.signalTree("SIGKILL");
    if (this.tree) untrackProcessTree(this.tree);
    const exit = this.exitInfo ?? { code: null, signal: null };
    this.fireClosed();
    return { graceful, exit };
  }

  /** Ends the whole tree now, without waiting (for `kill()`). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.signalTree(signal);
  }

  /** The exit code, with a signal death as 128 + its number (the shell's convention). */
  static exitNumber(exit: ProcessExit): number {
    if (exit.code !== null) return exit.code;
    if (exit.signal !== null) return 128 + (osConstants.signals[exit.signal] ?? 0);
    return -1;
  }

  private signalTree(signal: NodeJS.Signals): void {
    // Only a signal sent while the server ran can have ended it: once it has exited, one sent to
    // what it left behind (the sweep after close) does not make its own death ours.
    const running = this.exitInfo === undefined;
    if (this.tree?.signal(signal) && running) this.signalsSent.add(signal);
  }

  private markExited(exit: ProcessExit): void {
    if (this.exitInfo !== undefined) return;
    this.exitInfo = exit;
    this.resolveExited(exit);
  }

  /** The end of stdout is the end of the conversation, even if the process runs on. */
  private stdoutEnd(): void {
    this.stdoutEnded = true;
    if (this.exitInfo !== undefined) return; // the exit path reports it
    setTimeout(() => {
      // Deferred past the poll phase, so that an exit already signalled is seen first.
      setImmediate(() => {
        if (this.exitInfo === undefined) this.fireClosed();
      });
    }, stdoutEndGraceMs).unref();
  }

  private fireClosed(): void {
    if (this.closedFired) return;
    if (this.exitInfo === undefined && !this.stdoutEnded) return; // 'close' without 'exit' cannot happen; be safe anyway
    this.closedFired = true;
    const last = this.takePending();
    if (last.trim() !== "") this.readLine(last);
    if (this.stderrBuffer !== "") this.stderrLines.push(this.stderrBuffer);
    this.stderrBuffer = "";
    this.deliver(() => this.onclose?.());
  }

  private readStdout(chunk: string): void {
    let newline = chunk.indexOf("\n");
    if (newline === -1) {
      // Most chunks of a long message have no newline: keep them without rescanning the whole line.
      this.stdoutPending.push(chunk);
      this.stdoutPendingLength += chunk.length;
      if (this.stdoutPendingLength > maxLineLength) {
        this.stdoutPending = [];
        this.stdoutPendingLength = 0;
        this.deliver(() => this.onerror?.(new Error(`the server wrote more than ${maxLineLength} characters to stdout without a newline`)));
      }
      return;
    }
    let start = 0;
    let head = this.takePending();
    // A line that is all the chunk holds (one answer per read, the usual case one call at a time)
    // keeps no more alive than itself; one of several shares the chunk's memory.
    const onlyLine = newline === chunk.length - 1;
    while (newline !== -1) {
      this.readLine(head + chunk.slice(start, newline), onlyLine);
      head = "";
      start = newline + 1;
      newline = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) {
      this.stdoutPending.push(chunk.slice(start));
      this.stdoutPendingLength += chunk.length - start;
    }
  }

  private takePending(): string {
    // Most chunks end with their last line: nothing pending, and no new array for nothing.
    if (this.stdoutPending.length === 0) return "";
    const text = this.stdoutPending.join("");
    this.stdoutPending = [];
    this.stdoutPendingLength = 0;
    return text;
  }

  private readLine(raw: string, ownsText = true): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    if (!this.treeNoted) {
      // The server is up: note the helpers it started, in case it exits (or crashes) before close().
      this.treeNoted = true;
      this.tree?.note();
    }
    this.stdoutLines.push(clipCounted(line, keptLineLength));
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (this.allowDebugLogging) this.debugOutput(line);
      else this.deliver(() => this.onerror?.(new NonJsonOutputError(line)));
      return;
    }
    // The line goes along, so a recorder can copy the message from it rather than deep-clone it (see inspect/json-text.ts).
    const extra: JsonTextExtra = { jsonText: line, ownsText };
    // Once started (every message but those read before start), no closure per message.
    if (this.started) this.onmessage?.(message as JSONRPCMessage, extra);
    else this.deliver(() => this.onmessage?.(message as JSONRPCMessage, extra));
  }

  private readStderr(chunk: string): void {
    const lines = (this.stderrBuffer + chunk).split("\n");
    this.stderrBuffer = lines.pop() ?? "";
    for (const line of lines) this.stderrLines.push(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  private deliver(action: () => void): void {
    if (this.started) action();
    else this.backlog.push(action);
  }
}

/**
 * A simple command line (one command, no operators, redirections or expansions) run as
 * `exec command`, so the shell becomes the server instead of waiting as its parent. A shell left
 * in between holds the server's stdout open (it would never end when the server closes it), and
 * costs a process. Anything else is run as written.
 */
export function execInPlace(command: string): string {
  if (process.platform === "win32") return command;
  const unquoted = command.replace(/'[^']*'|"(?:[^"\\$`]|\\.)*"/g, "''");
  if (/[;&|<>()$`\\\n*?[\]{}~#!]/.test(unquoted)) return command;
  const first = unquoted.trim().split(/\s+/)[0] ?? "";
  if (first === "" || first.includes("=") || shellWords.has(first)) return command;
  return `exec ${command}`;
}

/** Keywords and builtins that must not follow `exec`. */
const shellWords = new Set([
  "exec",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "while",
  "until",
  "do",
  "done",
  "function",
  "cd",
  "export",
  "set",
  "unset",
  "source",
  ".",
  "eval",
  "time",
  "command",
  "builtin",
  "trap",
  "ulimit",
  "umask",
  "alias",
  "read",
  "wait",
  "exit",
  "return",
  "shift",
  "test",
  "true",
  "false",
  "echo",
  "printf",
  "local",
  "readonly",
]);
