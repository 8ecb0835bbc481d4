/**
 * One side of `mcp-testkit diff` (and the target of `snapshot`): a server (a command or a URL), a
 * snapshot file, a recording or scenario file, or fixture files of scenario fakes. A file that is
 * not a snapshot is served by an in-memory mock and read through a driver, so its surface is what
 * a client of its replay sees; what the file does not hold (capabilities, the protocol version,
 * for fixtures the server's name) is left out, and the diff says so rather than call it lost.
 */
import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import { mcpAttach } from "../driver/index.js";
import { mockMcp, type MockMcpOptions } from "../mock/mock-mcp.js";
import { McpTestkitError } from "../errors.js";
import { isSurfaceFile, readSurface } from "../snapshot/surface-format.js";
import { snapshotServer } from "../snapshot/snapshot-server.js";
import type { ServerSurface } from "../snapshot/surface.js";
import { describeJsonError, withoutByteOrderMark } from "../util/json-syntax.js";
import { errorDetail } from "../errors.js";
import { CommandError } from "./command.js";
import type { Progress } from "./output/progress.js";
import { loadScenario, withoutSchemaKey } from "./scenario.js";
import { isUrl, parseTarget, withConnectedDriver } from "./target/target.js";
import type { EraChoice } from "./target/era.js";

export type SourceKind = "server" | "snapshot" | "scenario" | "fixtures";

export interface SurfaceSource {
  kind: SourceKind;
  /** As given on the command line. */
  label: string;
  surface: ServerSurface;
}

export interface SourceFlags {
  header?: string[] | undefined;
  timeout?: string | undefined;
}

const FILE_EXTENSIONS = new Set([".json", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]);

/** Reads one side: a URL or a command is a server; a path that exists is a file or a fixtures directory. */
export async function readSource(spec: string, flags: SourceFlags, era: EraChoice, progress: Progress, command: string): Promise<SurfaceSource> {
  if (isUrl(spec)) return { kind: "server", label: spec, surface: await fromServer(spec, flags, era, progress, command) };
  const found = await stat(spec).catch(() => undefined);
  if (found?.isDirectory()) return { kind: "fixtures", label: spec, surface: await fromMock({ fixtures: [spec] }, spec, "fixtures") };
  if (found?.isFile()) return await fromFile(spec);
  if (!/\s/.test(spec) && FILE_EXTENSIONS.has(extname(spec).toLowerCase())) {
    throw new CommandError(`Cannot read "${spec}": there is no such file (relative paths start from ${process.cwd()}). A server is a command ("node server.js") or an http(s) URL.`);
  }
  return { kind: "server", label: spec, surface: await fromServer(spec, flags, era, progress, command) };
}

async function fromServer(spec: string, flags: SourceFlags, era: EraChoice, progress: Progress, command: string): Promise<ServerSurface> {
  const target = parseTarget(spec, flags);
  return await withConnectedDriver(
    command,
    target,
    progress,
    async (driver) => {
      progress.step("reading the surface");
      try {
        return await snapshotServer(driver);
      } catch (error) {
        throw new CommandError(`Cannot read the surface of ${target.kind === "http" ? spec : `"${spec}"`}: ${errorDetail(error)}`);
      }
    },
    era,
  );
}

async function fromFile(file: string): Promise<SurfaceSource> {
  if (extname(file).toLowerCase() !== ".json") return { kind: "scenario", label: file, surface: await fromMock(await loadScenario(file), file, "scenario") };
  const text = withoutByteOrderMark(await readFile(file, "utf8"));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const { reason, excerpt } = describeJsonError(text, error);
    throw new CommandError(`"${file}" is not valid JSON: ${reason}.${excerpt}`);
  }
  if (isSurfaceFile(parsed)) {
    try {
      return { kind: "snapshot", label: file, surface: readSurface(parsed, `"${file}"`) };
    } catch (error) {
      throw new CommandError(errorDetail(error));
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CommandError(`"${file}" is neither a snapshot ({ "mcpSurface": 1, ... }), a scenario or recording ({ "tools": ... }) nor a fixture file ({ "mcpFakes": ... }).`);
  }
  if (Object.hasOwn(parsed, "mcpFakes")) return { kind: "fixtures", label: file, surface: await fromMock({ fixtures: [file] }, file, "fixtures") };
  return { kind: "scenario", label: file, surface: await fromMock(withoutSchemaKey(parsed as Record<string, unknown>), file, "scenario") };
}

/** The surface a mock of the file lists, without what the mock adds of its own. */
async function fromMock(options: Record<string, unknown>, file: string, kind: "scenario" | "fixtures"): Promise<ServerSurface> {
  const { transport: _transport, http: _http, ...rest } = options;
  let mock: Awaited<ReturnType<typeof mockMcp>>;
  try {
    mock = await mockMcp({ ...(rest as MockMcpOptions), transport: "memory", fakesOptions: { log: false, ...(rest.fakesOptions as object | undefined) } } as MockMcpOptions);
  } catch (error) {
    if (error instanceof McpTestkitError) throw new CommandError(`"${file}" cannot be served to read its surface: ${error.detail}`);
    throw error;
  }
  try {
    const driver = mcpAttach(mock.connectInMemory());
    try {
      const { capabilities: _mockDeclared, protocolVersion: _spoken, serverInfo, instructions: _instructions, ...lists } = await snapshotServer(driver);
      return {
        ...lists,
        ...(kind === "scenario" && rest.serverInfo !== undefined ? { serverInfo } : {}),
        ...(kind === "scenario" && typeof rest.instructions === "string" ? { instructions: rest.instructions } : {}),
      };
    } finally {
      await driver.close();
    }
  } finally {
    await mock.close();
  }
}
