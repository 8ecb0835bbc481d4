/**
 * Why a mock could not listen, as data and in words: the port is in use, it needs privileges, or
 * the host is not this machine's. The library and the CLI say it with the same function, each
 * naming its own way to choose (the `port` option, the `--port` flag).
 */
import { McpTestkitError } from "../../errors.js";

/** node's own codes for the listen failures a user can fix by choosing again (a caught node error's `code` stays the same). */
export type ListenErrorCode = "EADDRINUSE" | "EACCES" | "EADDRNOTAVAIL";

const FIXABLE = new Set<string>(["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"]);

/** The advice a listen failure carries: choose another host or port (each audience names the option or flag). */
export interface ListenHint {
  kind: "chooseAgain";
  choice: keyof ChoiceNames;
}

/** How the words name the choices: the options of `mockMcp()`, or a command's flags. */
export interface ChoiceNames {
  port: string;
  host: string;
}

export const OPTION_NAMES: ChoiceNames = Object.freeze({ port: "port", host: "host" });

/** What went wrong and what to do, in one sentence without a closing stop. */
export function listenProblem(code: ListenErrorCode, host: string, port: number, names: ChoiceNames = OPTION_NAMES): string {
  switch (code) {
    case "EADDRINUSE":
      return `port ${port} is in use; choose another ${names.port} or leave it out for a free one`;
    case "EACCES":
      return `port ${port} on ${host} needs privileges this process does not have (ports below 1024 usually do); choose another ${names.port} or leave it out for a free one`;
    case "EADDRNOTAVAIL":
      return `host ${host} is not an address of this machine; choose another ${names.host} or leave it out for 127.0.0.1`;
  }
}

/** The mock could not listen where it was asked to: `code`, `host` and `port` say why and where; `cause` is node's error. */
export class ListenError extends McpTestkitError {
  override name = "ListenError";
  override readonly code: ListenErrorCode;
  readonly host: string;
  readonly port: number;

  constructor(code: ListenErrorCode, host: string, port: number, cause: unknown) {
    super(`${listenProblem(code, host, port)}.`, { cause, code });
    this.code = code;
    this.host = host;
    this.port = port;
  }

  /** What to choose again: the host, or the port. */
  override get hints(): ListenHint[] {
    return [{ kind: "chooseAgain", choice: this.code === "EADDRNOTAVAIL" ? "host" : "port" }];
  }

  /** The same problem in another's words (a command's flags). */
  problem(names: ChoiceNames): string {
    return listenProblem(this.code, this.host, this.port, names);
  }
}

/** node's listen error as a ListenError when the user can fix it by choosing again; anything else as it is. */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && FIXABLE.has(code) ? new ListenError(code as ListenErrorCode, host, port, error) : error;
}
