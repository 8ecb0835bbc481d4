/**
 * `check --only` and `--skip`: which checks run, named by number (as the list prints them for
 * this transport) or by id, comma-separated or repeated. A name that matches no check is a usage
 * error with the closest id, so a typo never quietly runs everything; the id of a check for the
 * other transport is one in `--only` (saying which servers that check is for), and nothing to
 * skip in `--skip`.
 */
import { closest } from "../../util/closest.js";
import { UsageError } from "../command.js";
/** What selection needs of a check: its id (numbers are positions in the list). */
type CheckDefinition = { id: string };

export interface Selection {
  only?: readonly string[];
  skip?: readonly string[];
}

type Transport = "stdio" | "http";
/** How the messages name a transport's servers. */
const TRANSPORT_NAMES: Record<Transport, string> = { stdio: "stdio", http: "Streamable HTTP" };
/** What a target of that transport is on the command line. */
const TARGET_FORMS: Record<Transport, string> = { stdio: "a command", http: "a URL" };

/**
 * The ids of the checks to run, out of `checks` (numbered from 1 in this order). `elsewhere`:
 * the checks for the other transport, so naming one of those gets told why it cannot run.
 */
export function selectChecks(checks: readonly CheckDefinition[], selection: Selection, transport: Transport, elsewhere: readonly CheckDefinition[] = []): Set<string> {
  const only = resolve(checks, elsewhere, selection.only, "--only", transport);
  const skipped = resolve(checks, elsewhere, selection.skip, "--skip", transport) ?? new Set<string>();
  const chosen = checks.map((check) => check.id).filter((id) => (only === undefined || only.has(id)) && !skipped.has(id));
  if (chosen.length === 0) throw new UsageError("--only and --skip leave no check to run");
  return new Set(chosen);
}

function resolve(checks: readonly CheckDefinition[], elsewhere: readonly CheckDefinition[], values: readonly string[] | undefined, flag: string, kind: Transport): Set<string> | undefined {
  if (values === undefined) return undefined;
  const transport = TRANSPORT_NAMES[kind];
  const ids = checks.map((check) => check.id);
  const names = values
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) throw new UsageError(`${flag} needs check numbers or ids, such as ${flag} 1,ping`);
  const resolved = new Set<string>();
  for (const name of names) {
    if (/^\d+$/.test(name)) {
      const check = checks[Number(name) - 1];
      if (!check) throw new UsageError(`${flag} ${name}: there are checks 1 to ${checks.length} for a ${transport} server`);
      resolved.add(check.id);
    } else if (ids.includes(name)) {
      resolved.add(name);
    } else if (elsewhere.some((check) => check.id === name)) {
      // Skipping what would not run is no mistake (one skip list may serve a URL and a command); asking to run it is.
      if (flag === "--skip") continue;
      throw new UsageError(`${flag} ${name}: ${notForThisTransport(kind)}; leave it out (for a ${transport} server: ${ids.join(", ")})`);
    } else {
      const near = closest(name, ids);
      throw new UsageError(`${flag} ${name}: no check has that id${near ? `; did you mean "${near}"?` : ""} (for a ${transport} server: ${ids.join(", ")})`);
    }
  }
  return resolved;
}

/** `that check applies only to stdio servers (a command), and this target is a Streamable HTTP server (a URL)`. */
function notForThisTransport(kind: Transport): string {
  const other: Transport = kind === "http" ? "stdio" : "http";
  return `that check applies only to ${TRANSPORT_NAMES[other]} servers (${TARGET_FORMS[other]}), and this target is a ${TRANSPORT_NAMES[kind]} server (${TARGET_FORMS[kind]})`;
}
