/**
 * Runs the checks that apply to the target, in order, and builds the report. Each result is
 * handed to `onResult` as soon as it is known, so the list can be printed as it grows.
 */
import { ProtocolError } from "../../driver/index.js";
import { plainMessage } from "../target/target.js";
import { CHECKS, type CheckDefinition } from "./catalogue.js";
import type { CheckContext } from "./context.js";
import { fail, skip, type CheckReport, type CheckResult } from "./types.js";

export function checksFor(kind: "stdio" | "http"): CheckDefinition[] {
  return CHECKS.filter((check) => check.only === undefined || check.only === kind);
}

export interface RunHooks {
  /** Called before each check runs (for the spinner). */
  onStart?: (check: CheckDefinition, number: number) => void;
  onResult?: (result: CheckResult) => void;
  /** The ids of the checks to run (`--only` / `--skip`); the others are left out of the report. Default: all. */
  selected?: ReadonlySet<string>;
}

export async function runChecks(ctx: CheckContext, hooks: RunHooks = {}): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const checks = checksFor(ctx.target.kind);
  for (const [index, check] of checks.entries()) {
    const number = index + 1;
    if (hooks.selected && !hooks.selected.has(check.id)) continue;
    hooks.onStart?.(check, number);
    let outcome;
    if (check.needsSession && ctx.init === undefined) {
      outcome = skip("initialize failed (check 1)");
    } else if (check.needsSession && ctx.driver.protocolErrors.length > 0) {
      outcome = skip(`the session broke earlier: ${firstLine(ctx.driver.protocolErrors[0])}`);
    } else {
      try {
        outcome = await check.run(ctx);
      } catch (error) {
        // A check that could not finish is a failure of the server only when the server broke the protocol.
        outcome = error instanceof ProtocolError ? fail(firstLine(error)) : fail(`the check could not run: ${firstLine(error)}`);
      }
    }
    const result: CheckResult = { number, id: check.id, title: check.title, ...outcome, spec: check.spec(ctx.version) };
    results.push(result);
    hooks.onResult?.(result);
  }
  const count = (status: CheckResult["status"]) => results.filter((result) => result.status === status).length;
  const summary = { total: results.length, pass: count("PASS"), warn: count("WARN"), fail: count("FAIL"), skip: count("SKIP") };
  return {
    target: ctx.target.value,
    transport: ctx.target.kind,
    protocolVersion: ctx.init?.protocolVersion,
    serverInfo: ctx.init?.serverInfo as Record<string, unknown> | undefined,
    checks: results,
    summary,
    ok: summary.fail === 0,
  };
}

function firstLine(error: unknown): string {
  return plainMessage(error).split("\n")[0]!;
}
