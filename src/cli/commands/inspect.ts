/**
 * `mcp-testkit inspect <command | url>`: connects to an MCP server (spawning a stdio server, or
 * over Streamable HTTP) and shows what it offers: server info, the negotiated protocol version,
 * capabilities, tools with their schemas, resources, resource templates and prompts. `--json`
 * prints the same as one JSON document.
 */
import { LATEST_KNOWN_VERSION } from "../../protocol/versions.js";
import type { McpDriver } from "../../driver/index.js";
import { EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { createProgress } from "../output/progress.js";
import { clip, describeProperties, oneLine } from "../output/schema.js";
import { parseTarget, plainLine, TARGET_EXPLAINED, TARGET_HELP, TARGET_OPTIONS, withConnectedDriver, type Target } from "../target/target.js";
import { LIST_KINDS, type ListKind } from "../../protocol/list-kinds.js";
import { describeEra, ERA_HELP, ERA_OPTIONS, parseEra } from "../target/era.js";

export const summary = "Show what an MCP server offers: info, version, capabilities, tools, resources, prompts";

export const help = `Usage: mcp-testkit inspect [options] <command | url>

Connects to an MCP server and shows its name and version, the protocol version and era it
spoke (legacy: initialize; modern: ${LATEST_KNOWN_VERSION}'s server/discover), its capabilities, and every
tool (with its input and output schema), resource, resource template and prompt (all pages).
Lists the server does not advertise are not asked for.
${TARGET_EXPLAINED}

Options:
${ERA_HELP}
${TARGET_HELP}

Exit codes: 0 shown; 1 the server could not be started or reached, or a list failed; 2 bad usage.

Examples:
  mcp-testkit inspect "npx -y @modelcontextprotocol/server-everything stdio"
  mcp-testkit inspect "node build/server.js" --json
  mcp-testkit inspect http://127.0.0.1:3000/mcp --version-negotiation legacy
  mcp-testkit inspect http://127.0.0.1:3000/mcp --header "Authorization: Bearer $TOKEN"`;

const OPTIONS = { ...TARGET_OPTIONS, ...ERA_OPTIONS } as const;

type Json = Record<string, unknown>;

/** How the driver fetches each list (every page); the rest of each list's facts come from the one table. */
const FETCH: Record<ListKind, (driver: McpDriver) => Promise<unknown[]>> = {
  tools: (driver) => driver.getTools(),
  resources: (driver) => driver.getResources(),
  resourceTemplates: (driver) => driver.getResourceTemplates(),
  prompts: (driver) => driver.getPrompts(),
};

const LISTS = LIST_KINDS.map(({ kind, capability, noun }) => ({ key: kind, capability, title: `${noun[0]!.toUpperCase()}${noun.slice(1)}s`, list: FETCH[kind] }));

type ListKey = ListKind;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) {
    throw new UsageError(
      `takes one target, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(" ")}; quote a command with arguments, e.g. mcp-testkit inspect "node server.js --port 1"`,
    );
  }
  const target = parseTarget(positionals[0], values);
  const era = parseEra(values);
  const json = values.json === true;
  const progress = createProgress();
  return withConnectedDriver(
    "inspect",
    target,
    progress,
    async (driver, init) => {
      const lists: Partial<Record<ListKey, unknown[] | null>> = {};
      const errors: Partial<Record<ListKey, string>> = {};
      for (const { key, capability, title, list } of LISTS) {
        if (init.capabilities[capability as keyof typeof init.capabilities] === undefined) {
          lists[key] = null;
          continue;
        }
        progress.step(`listing ${title.toLowerCase()}`);
        try {
          lists[key] = await list(driver);
        } catch (error) {
          errors[key] = plainLine(error);
          lists[key] = null;
        }
      }
      progress.stop();
      const problems = driver.problems.map(({ method, path, message, rule }) => ({ method, path, message, rule }));
      if (json) {
        const report: Json = {
          target: target.value,
          transport: target.kind,
          protocolVersion: init.protocolVersion,
          era: driver.era,
          ...(driver.fallbackReason === undefined ? {} : { fallbackReason: driver.fallbackReason }),
          serverInfo: init.serverInfo,
          capabilities: init.capabilities,
          ...(init.instructions === undefined ? {} : { instructions: init.instructions }),
          ...lists,
          ...(Object.keys(errors).length === 0 ? {} : { errors }),
          problems,
        };
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        process.stdout.write(`${describe(target, init as unknown as Json, describeEra(driver, era), lists, errors, problems.length).join("\n")}\n`);
      }
      return Object.keys(errors).length === 0 ? EXIT_OK : EXIT_FAILURE;
    },
    era,
  );
}

function describe(target: Target, init: Json, era: string, lists: Partial<Record<ListKey, unknown[] | null>>, errors: Partial<Record<ListKey, string>>, problemCount: number): string[] {
  const info = (init.serverInfo ?? {}) as Json;
  const capabilities = (init.capabilities ?? {}) as Json;
  const lines = [
    `Server:       ${String(info.name)} ${String(info.version)}${typeof info.title === "string" ? ` ("${info.title}")` : ""}`,
    `Protocol:     ${era}`,
    `Transport:    ${target.kind === "http" ? `Streamable HTTP, ${target.value}` : `stdio, ${target.value}`}`,
    `Capabilities: ${describeCapabilities(capabilities)}`,
  ];
  if (typeof init.instructions === "string" && init.instructions.trim() !== "") lines.push(`Instructions: ${clip(oneLine(init.instructions), 200)}`);
  if (problemCount > 0) lines.push(`Problems:     ${problemCount} schema problem${problemCount === 1 ? "" : "s"} in what the server sent (see --json, or run mcp-testkit check)`);

  for (const { key, title } of LISTS) {
    const items = lists[key];
    lines.push("");
    if (errors[key] !== undefined) {
      lines.push(`${title}: could not be listed: ${errors[key]}`);
      continue;
    }
    if (items === null || items === undefined) {
      lines.push(`${title}: not advertised`);
      continue;
    }
    lines.push(`${title} (${items.length})${items.length === 0 ? ": none" : ""}`);
    for (const item of items as Json[]) lines.push(...describeItem(key, item));
  }
  return lines;
}

function describeCapabilities(capabilities: Json): string {
  const names = Object.keys(capabilities);
  if (names.length === 0) return "none";
  return names
    .map((name) => {
      const value = capabilities[name];
      const flags =
        typeof value === "object" && value !== null
          ? Object.entries(value as Json)
              .filter(([, on]) => on === true)
              .map(([flag]) => flag)
          : [];
      return flags.length === 0 ? name : `${name} (${flags.join(", ")})`;
    })
    .join(", ");
}

function describeItem(key: ListKey, item: Json): string[] {
  const description = typeof item.description === "string" && item.description.trim() !== "" ? ` — ${clip(oneLine(item.description), 120)}` : "";
  const title = typeof item.title === "string" && item.title !== item.name ? ` ("${item.title}")` : "";
  switch (key) {
    case "tools": {
      const lines = [`  ${String(item.name)}${title}${description}`];
      lines.push("    input:", ...describeProperties(item.inputSchema, "      "));
      if (item.outputSchema !== undefined) lines.push("    output:", ...describeProperties(item.outputSchema, "      "));
      const hints =
        typeof item.annotations === "object" && item.annotations !== null
          ? Object.entries(item.annotations as Json)
              .filter(([name, on]) => name.endsWith("Hint") && on === true)
              .map(([name]) => name)
          : [];
      if (hints.length > 0) lines.push(`    annotations: ${hints.join(", ")}`);
      return lines;
    }
    case "resources":
      return [`  ${String(item.uri)}  ${String(item.name)}${title}${typeof item.mimeType === "string" ? ` (${item.mimeType})` : ""}${description}`];
    case "resourceTemplates":
      return [`  ${String(item.uriTemplate)}  ${String(item.name)}${title}${typeof item.mimeType === "string" ? ` (${item.mimeType})` : ""}${description}`];
    case "prompts": {
      const args = Array.isArray(item.arguments) ? (item.arguments as Json[]) : [];
      const lines = [`  ${String(item.name)}${title}${description}`];
      for (const arg of args) {
        const about = typeof arg.description === "string" && arg.description.trim() !== "" ? ` — ${clip(oneLine(arg.description), 100)}` : "";
        lines.push(`    ${String(arg.name)}${arg.required === true ? "" : "?"}: string${about}`);
      }
      return lines;
    }
  }
}
