/**
 * Runs the checks that apply to the target, in order, and builds the report. Each result is
 * handed to `onResult` as soon as it is known, so the list can be printed as it grows.
 */
import { ProtocolError } from "../../driver/index.js";
import { plainLine } from "../target/target.js";
import { CHECKS, type CheckDefinition } from "./catalogue.js";
import { AUTH_CHECKS } from "./auth-audit.js";
import type { CheckContext } from "./context.js";
import { MODERN, MODERN_CHECKS, type ModernCheckDefinition } from "./modern-checks.js";
import { fail, skip, type CheckOutcome, type CheckReport, type CheckResult } from "./types.js";
import type { Feature } from "../../protocol/versions.js";
import { taskChecks } from "./task-checks.js";

/**
 * A check of either era, as the list names it. `needs` is the protocol feature a version the
 * server speaks must have for the check to apply: `initialize` for the legacy era's checks (a
 * session), `serverDiscover` for 2026-07-28's.
 */
export interface PlannedCheck {
  id: string;
  title: string;
  /** `"any"`: a rule of the transport, run whichever era the server speaks. */
  needs: Feature | "any" | "protected";
  spec: (ctx: CheckContext) => string;
  /** Run only when this holds as well (the tasks checks: the server advertises tasks). */
  applies?: (ctx: CheckContext) => boolean;
  run: (ctx: CheckContext) => Promise<CheckOutcome>;
}

/** Whether a check is in the report for this server: an era it speaks, and what else the check needs. */
export function planned(ctx: CheckContext, check: PlannedCheck): boolean {
  return ctx.speaks(check.needs) && (check.applies?.(ctx) ?? true);
}

/**
 * Every check for a transport, numbered from 1 in this order: the legacy era's (an `initialize`
 * session), then 2026-07-28's. A report holds those the server's versions call for.
 */
export function checksFor(kind: "stdio" | "http"): PlannedCheck[] {
  const applies = (check: { only?: "stdio" | "http" }) => check.only === undefined || check.only === kind;
  const legacy = CHECKS.filter(applies).map(
    (check): PlannedCheck => ({ id: check.id, title: check.title, needs: check.anyEra ? "any" : "initialize", spec: (ctx) => check.spec(ctx.version), run: (ctx) => runLegacy(check, ctx) }),
  );
  const modern = MODERN_CHECKS.filter(applies).map(
    (check): PlannedCheck => ({ id: check.id, title: check.title, needs: "serverDiscover", spec: () => check.spec(), run: (ctx) => runModern(check, ctx) }),
  );
  // The authorization audit comes last, so the numbers of the others stay as they were; it is in a report only for a server that asks for a token.
  const audit =
    kind === "http"
      ? AUTH_CHECKS.map((check): PlannedCheck => ({ id: check.id, title: check.title, needs: "protected", spec: (ctx) => authSpec(ctx, check.anchor), run: (ctx) => guarded(() => check.run(ctx)) }))
      : [];
  return [...legacy, ...modern, ...taskChecks(kind), ...audit];
}

/** The authorization chapter of the revision the server speaks (2026-07-28 when it does). */
function authSpec(ctx: CheckContext, anchor: string): string {
  return `https://modelcontextprotocol.io/specification/${ctx.modern === undefined ? ctx.version : MODERN}/basic/authorization#${anchor}`;
}

export interface RunHooks {
  /** Called before each check runs (for the spinner). */
  onStart?: (check: PlannedCheck, number: number) => void;
  onResult?: (result: CheckResult) => void;
  /** The ids of the checks to run (`--only` / `--skip`); the others are left out of the report. Default: all. */
  selected?: ReadonlySet<string>;
  /** The checks `--only` named: one of an era the server does not speak fails (a gate that ran nothing must not pass). */
  named?: ReadonlySet<string>;
}

export async function runChecks(ctx: CheckContext, hooks: RunHooks = {}): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const checks = checksFor(ctx.target.kind);
  for (const [index, check] of checks.entries()) {
    const number = index + 1;
    if (hooks.selected && !hooks.selected.has(check.id)) continue;
    // The checks of an era the server does not speak are left out (a modern-only server fails no
    // initialize checks), unless --only asked for them by name.
    if (!planned(ctx, check) && !hooks.named?.has(check.id)) continue;
    hooks.onStart?.(check, number);
    const outcome = planned(ctx, check)
      ? await guarded(() => check.run(ctx))
      : ctx.speaks(check.needs)
        ? fail("named by --only, but the server does not advertise tasks")
        : eraNotSpoken(ctx, check.needs);
    const result: CheckResult = { number, id: check.id, title: check.title, ...outcome, spec: check.spec(ctx) };
    results.push(result);
    hooks.onResult?.(result);
  }
  const count = (status: CheckResult["status"]) => results.filter((result) => result.status === status).length;
  const summary = { total: results.length, pass: count("PASS"), warn: count("WARN"), fail: count("FAIL"), skip: count("SKIP") };
  const modernInfo = ctx.modern?.driver.serverInfo as Record<string, unknown> | undefined;
  return {
    target: ctx.target.value,
    transport: ctx.target.kind,
    protocolVersion: ctx.init?.protocolVersion ?? ctx.modern?.driver.protocolVersion,
    serverInfo: (ctx.init?.serverInfo as Record<string, unknown> | undefined) ?? modernInfo,
    eras: ctx.eras(),
    checks: results,
    summary,
    ok: summary.fail === 0,
  };
}

/** A check named by --only for an era the server does not speak: it cannot pass, and the report says why. */
function eraNotSpoken(ctx: CheckContext, needs: Feature | "any" | "protected"): CheckOutcome {
  if (needs === "protected") return fail(`named by --only, but the server asks for no token: initialize without one got HTTP ${ctx.unauthenticated?.status ?? "no answer"}`);
  const { legacy, modern } = ctx.eras();
  const [era, finding] = needs === "serverDiscover" ? [`${MODERN} (server/discover)`, modern] : ["the legacy era (initialize)", legacy];
  const why = "why" in finding ? finding.why : "not spoken";
  return fail(`named by --only, but the server does not speak ${era}: ${why}`);
}

async function runLegacy(check: CheckDefinition, ctx: CheckContext): Promise<CheckOutcome> {
  if (check.needsSession && ctx.init === undefined) return skip("initialize failed (check 1)");
  if (check.needsSession && ctx.driver.protocolErrors.length > 0) return skip(`the session broke earlier: ${plainLine(ctx.driver.protocolErrors[0])}`);
  return await guarded(() => check.run(ctx));
}

async function runModern(check: ModernCheckDefinition, ctx: CheckContext): Promise<CheckOutcome> {
  const modern = ctx.modern;
  if (modern === undefined) {
    // Planned only for a server that speaks 2026-07-28; without a usable DiscoverResult only the discover check can say so.
    const broken = ctx.brokenDiscover!;
    if (check.id === "modern-discover") return fail(`the DiscoverResult breaks the ${MODERN} schema: ${broken.problems.join("; ")}`);
    return skip(`server/discover's answer breaks the schema (see the discover check): the other ${MODERN} checks need a usable DiscoverResult`);
  }
  if (modern.driver.protocolErrors.length > 0) return skip(`the ${MODERN} connection broke earlier: ${plainLine(modern.driver.protocolErrors[0])}`);
  return await guarded(() => check.run(modern));
}

async function guarded(run: () => Promise<CheckOutcome>): Promise<CheckOutcome> {
  try {
    return await run();
  } catch (error) {
    // A check that could not finish is a failure of the server only when the server broke the protocol.
    return error instanceof ProtocolError ? fail(plainLine(error)) : fail(`the check could not run: ${plainLine(error)}`);
  }
}
