/**
 * The command table: each command's module, loaded only when it runs (or for `--help`), so a
 * command's dependencies never slow down another. To add one, write
 * `src/cli/commands/<name>.ts` exporting `summary`, `help` and `run` (see `CliCommand`), and
 * list it here.
 */
import type { CliCommand } from "./command.js";

export const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  mock: () => import("./commands/mock.js"),
  inspect: () => import("./commands/inspect.js"),
  call: () => import("./commands/call.js"),
  check: () => import("./commands/check.js"),
  record: () => import("./commands/record.js"),
  validate: () => import("./commands/validate.js"),
  view: () => import("./commands/view.js"),
  trace: () => import("./commands/trace.js"),
  snapshot: () => import("./commands/snapshot.js"),
  diff: () => import("./commands/diff.js"),
  verify: () => import("./commands/verify.js"),
};
