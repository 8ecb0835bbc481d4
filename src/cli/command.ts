/**
 * What a CLI command is, and the parts every command shares: option parsing with Node's
 * `util.parseArgs` turned into short, exact messages, and the usage error (exit code 2).
 *
 * A command is a module `src/cli/commands/<name>.ts` exporting `summary`, `help` and `run`,
 * listed in `src/cli/commands.ts`.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closest } from "../util/closest.js";
import { errorText } from "../util/text.js";

export interface CliCommand {
  /** One line for `mcp-testkit --help`. */
  summary: string;
  /** The full text of `mcp-testkit <command> --help`. */
  help: string;
  /** Runs the command with the arguments after its name; resolves with the exit code. */
  run(argv: string[]): Promise<number>;
}

/** Exit codes: 0 done, 1 the command failed (bad scenario, server error), 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Bad usage (unknown option, missing argument): the message, a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * A failure the user can fix (a missing or malformed file): the message alone, exit 1. The
 * message is the statement, then any lines of context (a spawned server's command, status and
 * last output), kept apart so a caller can add to the statement.
 */
export class CommandError extends Error {
  override name = "CommandError";
  /** What failed, in one statement. */
  readonly statement: string;
  /** The lines after it, each starting with a line break; "" when there are none. */
  readonly context: string;

  constructor(statement: string, context = "") {
    super(statement + context);
    this.statement = statement;
    this.context = context;
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;
/** Spelled out so the declaration build can name it (node's own option types are not exported). */
export type ParsedCommandLine<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>;

/** `util.parseArgs` in strict mode with positionals, its errors rewritten as `UsageError`s. */
export function parseCommandLine<O extends Options>(argv: string[], options: O): ParsedCommandLine<O> {
  try {
    return parseArgs({ args: attachNegativeNumbers(argv, options), options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, attachNegativeNumbers(argv, options), options));
  }
}

/**
 * `--port -1` as `--port=-1`. In strict mode `util.parseArgs` refuses a value that starts with a
 * dash ("needs a value"), so a negative number never reached the option's own range check,
 * whose message says what the option takes. Only the word after an option that takes a value
 * is joined, and nothing after `--`.
 */
function attachNegativeNumbers(argv: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === "--") return [...joined, ...argv.slice(index)];
    const name = optionTakingValue(arg, options);
    const next = argv[index + 1];
    if (name !== undefined && next !== undefined && looksLikeNegativeNumber(next)) {
      joined.push(`--${name}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/** The long name of the option `arg` spells (`--port` or its short `-p`) when it takes a value and has none inline. */
function optionTakingValue(arg: string, options: Options): string | undefined {
  const long = /^--([^=]+)$/.exec(arg)?.[1];
  const short = /^-([^-])$/.exec(arg)?.[1];
  const name = long ?? Object.keys(options).find((key) => short !== undefined && options[key]!.short === short);
  return name !== undefined && Object.hasOwn(options, name) && options[name]!.type === "string" ? name : undefined;
}

/** `-1`, `-0.5`, `-.5`, `-1e3`: a value, not an option (no option name starts with a digit or a dot). */
function looksLikeNegativeNumber(text: string): boolean {
  return /^-\.?\d/.test(text);
}

/**
 * Node's parse failure in our words. Its `code` says what kind it is; which option is at fault is
 * found again from node's own tokens (a lenient parse of the same words), not from its message.
 */
function describeParseError(error: unknown, args: string[], options: Options): string {
  const code = (error as { code?: unknown }).code;
  const offending = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens.find(
    (token) => token.kind === "option" && (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? !Object.hasOwn(options, token.name) : Object.hasOwn(options, token.name) && valueIsWrong(options, token)),
  );
  if (offending?.kind !== "option") return errorText(error);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${offending.rawName}${optionSuggestion(offending.rawName, Object.keys(options))}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return takesValue(options, offending.name) ? `option ${offending.rawName} needs a value` : `option ${offending.rawName} does not take a value`;
  return errorText(error);
}

function takesValue(options: Options, name: string): boolean {
  return options[name]!.type === "string";
}

/** A value missing (none, or the next option taken for one, which strict mode refuses), or given to a flag. */
function valueIsWrong(options: Options, token: { name: string; value?: string | undefined; inlineValue?: boolean | undefined }): boolean {
  if (!takesValue(options, token.name)) return token.value !== undefined;
  return token.value === undefined || (token.inlineValue !== true && token.value.startsWith("-"));
}

/**
 * "; did you mean --port?" for a long option that is a likely typo of one of `names` (long names,
 * without dashes), or "". A short option is one letter: any other letter is as near, so none is named.
 */
export function optionSuggestion(option: string, names: readonly string[]): string {
  if (!option.startsWith("--")) return "";
  const near = closest(option.slice(2).split("=")[0]!, names);
  return near === undefined ? "" : `; did you mean --${near}?`;
}

/** Writes a line to stderr (every human-readable line of a stdio server must go there). */
export function printError(line: string): void {
  process.stderr.write(`${line}\n`);
}
