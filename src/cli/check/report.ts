/** The human form of `mcp-testkit check`: a numbered line per check, its spec reference below, and a summary. */
import type { CheckReport, CheckResult, CheckStatus, EraFinding } from "./types.js";
import { clip, plural } from "../../util/text.js";

const COLORS: Record<CheckStatus, string> = { PASS: "\x1b[32m", WARN: "\x1b[33m", FAIL: "\x1b[31m", SKIP: "\x1b[2m" };
const RESET = "\x1b[0m";

/** Colors only for a terminal, and never when NO_COLOR is set. */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && (process.env.NO_COLOR ?? "") === "";
}

export function formatHeader(report: Pick<CheckReport, "target" | "transport" | "protocolVersion" | "serverInfo"> & Partial<Pick<CheckReport, "eras">>): string {
  const info = report.serverInfo;
  const server = info ? `${String(info.name)} ${String(info.version)}` : "(not initialized)";
  const { legacy, modern } = report.eras ?? {};
  // Which eras the server speaks, and for one it does not, why (the first line of what the probe got).
  const eras = legacy !== undefined && modern !== undefined ? `eras: ${describeEra("legacy", legacy)}, ${describeEra("modern", modern)}\n` : "";
  return `mcp-testkit check: ${report.target}\n${server}, protocol ${report.protocolVersion ?? "unknown"}, over ${report.transport === "http" ? "Streamable HTTP" : "stdio"}\n${eras}`;
}

/** `legacy 2025-11-25`, or `modern not spoken (server/discover failed: …)`. */
function describeEra(name: string, finding: EraFinding): string {
  if (finding.spoken) return `${name} ${finding.protocolVersion}`;
  return `${name} not spoken (${clip(finding.why.split("\n")[0]!, 160)})`;
}

/** Two lines: `  3. PASS  Title: detail` and the spec reference under it. */
export function formatResult(result: CheckResult, total: number, color = false): string {
  const number = `${String(result.number).padStart(String(total).length)}.`;
  const status = color ? `${COLORS[result.status]}${result.status}${RESET}` : result.status;
  const indent = " ".repeat(number.length + 2 + 4 + 2);
  return `${number.padStart(number.length + 1)} ${status}  ${result.title}: ${result.detail}\n${indent}${result.spec}`;
}

export function formatSummary(report: CheckReport): string {
  const { total, pass, warn, fail, skip } = report.summary;
  return `\n${plural(total, "check")}: ${pass} passed, ${plural(warn, "warning")}, ${fail} failed, ${skip} skipped`;
}
