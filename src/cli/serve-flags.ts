/**
 * The flags of the commands that serve a mock (`mock`, `record`): where it listens (`--port`,
 * `--host`, `--path`) or `--stdio`, read and checked in one place; when it stops (a signal, or
 * the stdio wire ending); and the check that a file it writes when it stops has a folder to go to.
 */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { CommandError, UsageError } from "./command.js";
import type { ChoiceNames } from "../wire/http/listen-error.js";

export const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  path: { type: "string" },
  stdio: { type: "boolean" },
} as const;

export const SERVE_HELP = `  --port <number>  Port to listen on (default: a free port)
  --host <host>    Host to listen on (default: 127.0.0.1)
  --path <path>    Path of the MCP endpoint (default: /mcp)
  --stdio          Serve over stdin/stdout instead of HTTP`;

/** How a listen failure names the choices on the command line (the library says "port" and "host"). */
export const FLAG_NAMES: ChoiceNames = Object.freeze({ port: "--port", host: "--host" });

export interface ServeFlags {
  stdio: boolean;
  http: { port?: number; host?: string; path?: string };
}

export function parseServeFlags(values: { port?: string | undefined; host?: string | undefined; path?: string | undefined; stdio?: boolean | undefined }): ServeFlags {
  const stdio = values.stdio === true;
  const httpFlags = (["port", "host", "path"] as const).filter((flag) => values[flag] !== undefined);
  if (stdio && httpFlags.length > 0)
    throw new UsageError(`${httpFlags.map((flag) => `--${flag}`).join(", ")} ${httpFlags.length > 1 ? "set" : "sets"} up HTTP serving and cannot be combined with --stdio`);
  const port = values.port === undefined ? undefined : parsePort(values.port);
  if (values.host === "") throw new UsageError("--host needs a host name or address, such as 127.0.0.1");
  if (values.path !== undefined && !values.path.startsWith("/")) throw new UsageError(`--path must start with "/", such as /mcp, got "${values.path}"`);
  return { stdio, http: { port, host: values.host, path: values.path } };
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be a port number from 0 to 65535, got "${text}"`);
  return port;
}

/** Fails before serving, not after a whole test run, when `file` could never be written (`what`: "the call record"). */
export async function checkOutputFolder(file: string, what: string): Promise<void> {
  const folder = dirname(resolve(file));
  const isFolder = await stat(folder).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new CommandError(`Cannot write ${what} to "${file}": the folder ${folder} does not exist.`);
}

export interface StopRequests {
  /** Resolves with why the command should stop: the signal's name, or what `stop` was told. */
  readonly requested: Promise<string>;
  /** Asks the command to stop (the stdio wire ended by itself). */
  readonly stop: (why: string) => void;
  /** Stops listening for the signals. */
  readonly release: () => void;
}

/** Ctrl-C (SIGINT) and SIGTERM stop a serving command, once; `release()` when it has stopped. */
export function stopRequests(): StopRequests {
  let stop!: (why: string) => void;
  const requested = new Promise<string>((resolve) => (stop = resolve));
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return {
    requested,
    stop,
    release: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
