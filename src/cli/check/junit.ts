/**
 * `check --junit <file>`: the report as JUnit XML, which CI systems (GitHub Actions reporters,
 * GitLab, Jenkins) show as a test run. One test case per check: FAIL is a `<failure>`, SKIP is
 * `<skipped>`, WARN passes with its detail in `<system-out>` (a SHOULD is not a broken build).
 */
import type { CheckReport } from "./types.js";

/** Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The report of a run that never reached the server: one failed test case saying why. */
export function formatUnreachableJunit(target: string, message: string, seconds: number): string {
  const suiteName = escapeXml(`mcp-testkit check ${target}`);
  const counts = `tests="1" failures="1" errors="0" skipped="0" time="${seconds.toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-testkit check" ${counts}>`,
    `  <testsuite name="${suiteName}" ${counts}>`,
    `    <testcase classname="mcp-testkit.check" name="0. connect: the server can be started or reached">`,
    `      <failure message="${escapeXml(message)}" type="FAIL">${escapeXml(message)}</failure>`,
    "    </testcase>",
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

export function formatJunit(report: CheckReport, seconds: number): string {
  const { total, fail, skip } = report.summary;
  const suiteName = escapeXml(`mcp-testkit check ${report.target}`);
  const classname = `mcp-testkit.check.${report.transport}`;
  const server = report.serverInfo ? `${String(report.serverInfo.name)} ${String(report.serverInfo.version)}` : "(not initialized)";
  const cases = report.checks.map((check) => {
    const name = escapeXml(`${check.number}. ${check.id}: ${check.title}`);
    const open = `    <testcase classname="${classname}" name="${name}">`;
    const detail = escapeXml(check.detail);
    switch (check.status) {
      case "FAIL":
        return `${open}\n      <failure message="${detail}" type="FAIL">${detail}\n${escapeXml(check.spec)}</failure>\n    </testcase>`;
      case "SKIP":
        return `${open}\n      <skipped message="${detail}"/>\n    </testcase>`;
      case "WARN":
        return `${open}\n      <system-out>WARN: ${detail}\n${escapeXml(check.spec)}</system-out>\n    </testcase>`;
      case "PASS":
        return `    <testcase classname="${classname}" name="${name}"/>`;
    }
  });
  const counts = `tests="${total}" failures="${fail}" errors="0" skipped="${skip}" time="${seconds.toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-testkit check" ${counts}>`,
    `  <testsuite name="${suiteName}" ${counts}>`,
    "    <properties>",
    `      <property name="target" value="${escapeXml(report.target)}"/>`,
    `      <property name="transport" value="${report.transport}"/>`,
    `      <property name="server" value="${escapeXml(server)}"/>`,
    `      <property name="protocolVersion" value="${escapeXml(report.protocolVersion ?? "unknown")}"/>`,
    "    </properties>",
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
