/**
 * The process and connection lifetime: which error a request gets when the wire goes away
 * (the process failed to start, exited, closed its stdout, or the connection closed), and how
 * the driver ends (close stdin and wait, or end the HTTP session), and how the server ended, for
 * the observers: by `close()`, or on its own (see `serverEnded`). `close()` reports a server that
 * ended badly by throwing; disposal (`await using`) never throws, so that it cannot bury the
 * test's own failure under a `SuppressedError`: it keeps what went wrong in `closeError` and
 * prints one line.
 */
import { MESSAGE_PREFIX } from "../errors.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import {
  ConnectionClosedError,
  type McpDriverError,
  ProcessDidNotExit,
  ProcessExitedWithError,
  ProcessExitWhileWaitingForResponse,
  ProcessFailedToStart,
  statementOf,
  type ProcessContext,
} from "./errors.js";
import type { RpcChannel } from "./rpc-channel.js";
import type { ProcessExit, StdioProcessTransport } from "./stdio-process.js";
import { settlesWithin } from "../util/settle-within.js";
import { firstLineOf } from "../util/text.js";

/** How the server's side ended, as the driver's observers hear it (observed-session.ts). */
export interface ServerEnd {
  /** `client`: `close()` (or `kill()`); `server`: it went away on its own. */
  readonly initiator: "client" | "server";
  /** What was wrong with how it ended; undefined when it ended well. */
  readonly error?: unknown;
  /** A spawned server's exit, once it has exited. */
  readonly exit?: ProcessExit;
}

export interface CloseOptions {
  /** How long a spawned server may take to exit after its stdin closes, in ms (default 5000; at most 2147483647, a longer one is refused). */
  timeoutMs?: number;
  /**
   * The test expects the server to end badly (a non-zero exit, a signal, or not exiting and so
   * being killed): `close()` resolves anyway. What happened is on `exitCode`, `exitSignal` and
   * `closeError`.
   */
  allowFailure?: boolean;
}

export class ConnectionLifetime {
  /** What close() (or the disposal) found wrong with how the server ended. */
  closeError: McpDriverError | undefined;
  private closing: Promise<void> | undefined;
  /** Set once the server went away on its own (the observers were told then, and not again at close()). */
  private endedOnItsOwn = false;

  constructor(
    private readonly channel: RpcChannel,
    private readonly target: string,
    readonly process: StdioProcessTransport | undefined,
    private readonly closeWire: (() => Promise<void>) | undefined,
    /** Whether the handshake was answered (a process gone before it "failed to start"). */
    private readonly initialized: () => boolean,
    /** Told when the close starts and how the server ended, by close() or on its own (the driver's observers). */
    private readonly stopping?: { willStop(): void; didStop(end: ServerEnd): void },
  ) {}

  get isClosing(): boolean {
    return this.closing !== undefined;
  }

  /** The error for a request in flight when the wire goes away by itself. */
  closedError(method: string, id: JsonRpcId, label: string): McpDriverError {
    const process = this.process;
    if (process === undefined) {
      return new ConnectionClosedError(`The connection to ${this.target} closed before ${label} (id ${id}) was answered.`, { method, id });
    }
    const context = process.context();
    if (process.spawnError) {
      return new ProcessFailedToStart(`Could not start the server: ${process.spawnError.message}.`, { method, id, process: context, cause: process.spawnError });
    }
    if (process.exit === undefined && process.stdoutEnded) {
      return new ConnectionClosedError(
        `The server closed its stdout before answering ${label} (id ${id}), but its process is still running. ` +
          `On stdio the answers come on stdout, so none can come any more: a server must keep stdout open until it exits. ` +
          `close() the driver to end the process.`,
        { method, id, process: context },
      );
    }
    if (!this.initialized()) {
      return new ProcessFailedToStart(`The server process exited before answering ${label}: it failed to start (or exited at once). Its stderr below may say why.`, { method, id, process: context });
    }
    return new ProcessExitWhileWaitingForResponse(`The server process exited before answering ${label} (id ${id}).`, { method, id, process: context });
  }

  /**
   * The server went away on its own, not by `close()`: its process exited or closed its stdout,
   * its connection closed, or (`refusal`, what the refused connection said) its URL refused a
   * connection. Told to the observers once, at the moment the driver learns it; a `close()`
   * afterwards tells them nothing more.
   */
  serverEnded(refusal?: string): void {
    if (this.closing !== undefined || this.endedOnItsOwn) return;
    this.endedOnItsOwn = true;
    this.stopping?.didStop(this.endOnItsOwn(refusal));
  }

  private endOnItsOwn(refusal: string | undefined): ServerEnd {
    if (refusal !== undefined) {
      return { initiator: "server", error: new ConnectionClosedError(`The server at ${this.target} refused a connection (${refusal}): nothing listens there any more.`) };
    }
    const process = this.process;
    // An attached transport (or a connection) the other side closed: no exit status to judge.
    if (process === undefined) return { initiator: "server" };
    const context = process.context();
    if (process.spawnError) {
      return { initiator: "server", error: new ProcessFailedToStart(`Could not start the server: ${process.spawnError.message}.`, { process: context, cause: process.spawnError }) };
    }
    const exit = process.exit;
    if (exit === undefined) {
      return {
        initiator: "server",
        error: new ConnectionClosedError(`The server closed its stdout while its process runs on: no answer can come any more. close() the driver to end the process.`, { process: context }),
      };
    }
    if (exit.signal !== null && process.killedByUs) return { initiator: "client", exit };
    const error = exitFailure(exit, process.killedByUs, "on its own", context);
    return error === undefined ? { initiator: "server", exit } : { initiator: "server", exit, error };
  }

  /** Ends the session once (a second call gets the same promise); `allowFailure` only changes whether this call throws. */
  close(options: Required<CloseOptions>, beforeClose: () => void, beforeEnd?: () => Promise<void>): Promise<void> {
    this.closing ??= this.shutDown(options.timeoutMs, beforeClose, beforeEnd);
    return options.allowFailure ? this.closing.catch(() => undefined) : this.closing;
  }

  /** For `await using`: closes (or waits for the close under way), and never throws. */
  async dispose(timeoutMs: number, beforeClose: () => void, beforeEnd?: () => Promise<void>): Promise<void> {
    const explicit = this.closing !== undefined;
    this.closing ??= this.shutDown(timeoutMs, beforeClose, beforeEnd);
    try {
      await this.closing;
    } catch (error) {
      // An explicit close() already told the test; otherwise say it once, where people look.
      if (!explicit)
        process.stderr.write(
          `${MESSAGE_PREFIX} while disposing of the driver for ${this.target}: ${firstLine(error)} (see driver.closeError; disposal does not throw, so that it cannot hide a test's own failure: call close() to fail the test on it, or close({ allowFailure: true }) when it is expected)\n`,
        );
    }
  }

  private async shutDown(timeoutMs: number, beforeClose: () => void, beforeEnd: (() => Promise<void>) | undefined): Promise<void> {
    // A server that went away on its own was reported then: close() only ends what is left.
    const stopping = this.endedOnItsOwn ? undefined : this.stopping;
    stopping?.willStop();
    try {
      // What the driver itself left open (its list-change subscription) ends first, while the session can still say so.
      await beforeEnd?.();
      await this.end(timeoutMs, beforeClose);
    } catch (error) {
      stopping?.didStop({ initiator: "client", error, ...this.exitFact() });
      throw error;
    }
    stopping?.didStop({ initiator: "client", ...this.exitFact() });
  }

  private exitFact(): { exit?: ProcessExit } {
    const exit = this.process?.exit;
    return exit === undefined ? {} : { exit };
  }

  private async end(timeoutMs: number, beforeClose: () => void): Promise<void> {
    this.channel.close((method, id, label) => new ConnectionClosedError(`close() was called before ${label} (id ${id}) was answered.`, { method, id, process: this.process?.context() }));
    beforeClose();
    const process = this.process;
    if (process) {
      const failure = await this.endProcess(process, timeoutMs);
      if (failure) {
        this.closeError = failure;
        throw failure;
      }
      return;
    }
    const wire = this.closeWire ?? (async () => (await this.channel.connectedTransport())?.close());
    await settlesWithin(wire(), timeoutMs);
  }

  /** Closes stdin and waits; returns what was wrong with how the process ended, if anything. */
  private async endProcess(process: StdioProcessTransport, timeoutMs: number): Promise<McpDriverError | undefined> {
    const outcome = await process.shutdown(timeoutMs);
    if (process.spawnError) return undefined; // initialize already said why; there is nothing to end
    const context = process.context();
    if (!outcome.graceful) {
      return new ProcessDidNotExit(
        [
          `The server was still running ${timeoutMs} ms after its stdin was closed, so mcp-testkit killed its whole process tree. ` +
            `A stdio server should exit when its stdin closes (MCP lifecycle, shutdown)`,
          { kind: "longerCloseTimeout" },
          ".",
        ],
        { timeoutMs, process: context },
      );
    }
    return exitFailure(outcome.exit, process.killedByUs, "at close", context);
  }
}

/**
 * What was wrong with how a spawned server exited: a non-zero code, or a signal that mcp-testkit
 * did not send; undefined when it exited well. An exit "on its own" (not at `close()`) says so,
 * since the test did nothing to end the server.
 */
function exitFailure(exit: ProcessExit, killedByUs: boolean, when: "on its own" | "at close", context: ProcessContext): ProcessExitedWithError | undefined {
  const onItsOwn = when === "on its own";
  if (exit.code !== null && exit.code !== 0) return new ProcessExitedWithError(`The server process exited${onItsOwn ? " on its own" : ""} with code ${exit.code}.`, { process: context });
  if (exit.signal !== null && !killedByUs) return new ProcessExitedWithError(`The server process was ended by ${exit.signal}${onItsOwn ? ", not by mcp-testkit" : ""}.`, { process: context });
  return undefined;
}

/** What a close failure says, for a one-line note: its statement without the process's lines, up to the first line break. */
function firstLine(error: unknown): string {
  return firstLineOf(statementOf(error));
}
