/**
 * `driver.process`: the spawned server's process (`mcpShell`, stdio), its pid, exit, output, and
 * the two things a test may do to it, wait for its exit and kill it. A driver over HTTP or an
 * attached transport has none: the facts read undefined (or empty output), and the actions throw,
 * saying so.
 */
import { McpTestkitError } from "../errors.js";
import { StdioProcessTransport } from "./stdio-process.js";

export class ServerProcess {
  constructor(
    private readonly spawned: StdioProcessTransport | undefined,
    /** How the driver reaches its server, for the message of an action it cannot take. */
    private readonly reach: { target: string; kind: string },
  ) {}

  /** The spawned server's pid. */
  get pid(): number | undefined {
    return this.spawned?.pid;
  }

  /** The exit code once the server has exited (null if a signal ended it); undefined while it runs. */
  get exitCode(): number | null | undefined {
    return this.spawned?.exit?.code;
  }

  /** The signal that ended the server (null if it exited by itself); undefined while it runs. */
  get exitSignal(): NodeJS.Signals | null | undefined {
    return this.spawned?.exit?.signal;
  }

  /** The last lines the server wrote to stderr. */
  get stderr(): string[] {
    return this.spawned?.stderr ?? [];
  }

  /** The last lines the server wrote to stdout (JSON-RPC included). */
  get stdout(): string[] {
    return this.spawned?.stdout ?? [];
  }

  /** Resolves with the server's exit code (128 + the signal number if a signal ended it). */
  async waitForExit(): Promise<number> {
    return StdioProcessTransport.exitNumber(await this.require("waitForExit").exited);
  }

  /** Ends the server's whole process tree now (default SIGKILL), without closing stdin first. */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.require("kill").kill(signal);
  }

  private require(what: string): StdioProcessTransport {
    if (this.spawned === undefined) {
      throw new McpTestkitError(`${what}() needs a spawned server (mcpShell); this driver is connected to ${this.reach.target} (${this.reach.kind}).`);
    }
    return this.spawned;
  }
}
