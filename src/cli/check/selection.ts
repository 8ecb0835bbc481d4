/**
 * `check --only` and `--skip`: which checks run, named by number (as the list prints them for
 * this transport) or by id, comma-separated or repeated. A name that matches no check is a usage
 * error with the closest id, so a typo never quietly runs everything.
 */
import { closest } from "../../util/closest.js";
import { UsageError } from "../command.js";
/** What selection needs of a check: its id (numbers are positions in the list). */
type CheckDefinition = { id: string };

export interface Selection {
  only?: readonly string[];
  skip?: readonly string[];
}

/** The ids of the checks to run, out of `checks` (numbered from 1 in this order). */
export function selectChecks(checks: readonly CheckDefinition[], selection: Selection, transport: "stdio" | "http"): Set<string> {
  const only = resolve(checks, selection.only, "--only", transport);
  const skipped = resolve(checks, selection.skip, "--skip", transport) ?? new Set<string>();
  const chosen = checks.map((check) => check.id).filter((id) => (only === undefined || only.has(id)) && !skipped.has(id));
  if (chosen.length === 0) throw new UsageError("--only and --skip leave no check to run");
  return new Set(chosen);
}

function resolve(checks: readonly CheckDefinition[], values: readonly string[] | undefined, flag: string, kind: "stdio" | "http"): Set<string> | undefined {
  if (values === undefined) return undefined;
  const transport = kind === "http" ? "Streamable HTTP" : "stdio";
  const ids = checks.map((check) => check.id);
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) throw new UsageError(`${flag} needs check numbers or ids, such as ${flag} 1,ping`);
  const resolved = new Set<string>();
  for (const name of names) {
    if (/^\d+$/.test(name)) {
      const check = checks[Number(name) - 1];
      if (!check) throw new UsageError(`${flag} ${name}: there are checks 1 to ${checks.length} for a ${transport} server`);
      resolved.add(check.id);
    } else if (ids.includes(name)) {
      resolved.add(name);
    } else {
      const near = closest(name, ids);
      throw new UsageError(`${flag} ${name}: no check has that id${near ? `; did you mean "${near}"?` : ""} (for a ${transport} server: ${ids.join(", ")})`);
    }
  }
  return resolved;
}
