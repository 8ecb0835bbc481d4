#!/usr/bin/env node
/**
 * `mcp-testkit`: the command-line entry. It picks a command from the table in `commands.ts`,
 * hands it the remaining arguments and exits with the code it returns.
 */
import { readFileSync } from "node:fs";
import { COMMANDS } from "./commands.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, optionSuggestion, printError, UsageError, type CliCommand } from "./command.js";
import { suggestion } from "../util/closest.js";

/** The options taken before a command, by their long names. */
const MAIN_OPTIONS = ["help", "version"];

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    printError(await mainHelp());
    return EXIT_USAGE;
  }
  if (first === "-h" || first === "--help" || first === "help") {
    if (first === "help" && rest[0] !== undefined) return main([rest[0], "--help"]);
    process.stdout.write(`${await mainHelp()}\n`);
    return EXIT_OK;
  }
  if (first === "-v" || first === "--version") {
    process.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  const load = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (load === undefined) {
    const what = first.startsWith("-") ? `unknown option ${first}${optionSuggestion(first, MAIN_OPTIONS)}` : `unknown command "${first}"${suggestion(first, Object.keys(COMMANDS))}`;
    printError(`mcp-testkit: ${what}${what.endsWith("?") ? "" : "."} Commands: ${Object.keys(COMMANDS).join(", ")}.\nRun "mcp-testkit --help" for usage.`);
    return EXIT_USAGE;
  }
  const command = await load();
  if (rest.includes("-h") || rest.includes("--help")) {
    process.stdout.write(`${command.help}\n`);
    return EXIT_OK;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`mcp-testkit ${first}: ${error.message}\nRun "mcp-testkit ${first} --help" for usage.`);
      return EXIT_USAGE;
    }
    if (error instanceof CommandError) {
      printError(`mcp-testkit ${first}: ${error.message}`);
      return EXIT_FAILURE;
    }
    printError(`mcp-testkit ${first}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT_FAILURE;
  }
}

async function mainHelp(): Promise<string> {
  const commands: Array<[string, CliCommand]> = [];
  for (const [name, load] of Object.entries(COMMANDS)) commands.push([name, await load()]);
  const width = Math.max(...commands.map(([name]) => name.length));
  return [
    "mcp-testkit: test MCP agents, clients and servers.",
    "",
    "Usage: mcp-testkit <command> [options]",
    "",
    "Commands:",
    ...commands.map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    "",
    "Options:",
    "  -h, --help     Show this help; `mcp-testkit <command> --help` shows a command's",
    "  -v, --version  Show the version",
  ].join("\n");
}

function version(): string {
  // dist/cli/main.js and src/cli/main.ts both sit two folders below package.json.
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}

// A reader that stops early (`mcp-testkit check … | head`) closes the pipe: the rest of the
// output has nowhere to go, which is no failure of the command. It runs on and ends as it would
// (servers closed, its exit code), writing no stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

const code = await main(process.argv.slice(2));
// Let stdout and stderr drain (they may be pipes) before exiting with the command's code.
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
process.exit(code);
