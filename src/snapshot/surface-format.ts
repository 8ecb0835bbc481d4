/**
 * The snapshot file, described once in zod: `readSurface()` checks a file with it, and
 * `npm run schemas` writes schemas/surface.schema.json from it. zod is loaded when a file is first
 * read (zod-on-demand.ts), not when mcp-testkit is imported.
 */
import type { z } from "zod";
import { McpTestkitError } from "../errors.js";
import { zod } from "../util/zod-on-demand.js";
import { normalizeSurface, SURFACE_FORMAT, type ServerSurface } from "./surface.js";

let built: z.ZodType | undefined;

/** The zod description of a snapshot file. */
export function surfaceFileSchema(): z.ZodType {
  if (built !== undefined) return built;
  const z = zod();
  const object = z.record(z.string(), z.unknown());
  const named = (key: string, what: string) => z.looseObject({ [key]: z.string().meta({ description: `The ${what}'s ${key}, which names it in the diff.` }) });
  built = z
    .object({
      $schema: z.string().optional().meta({ description: "The editor's pointer to this schema." }),
      mcpSurface: z.literal(SURFACE_FORMAT).meta({ description: "The shape of this file (1)." }),
      protocolVersion: z.string().optional().meta({ description: "The protocol revision spoken while the surface was read." }),
      serverInfo: object.optional().meta({ description: "The server's name, version and title, as it gave them; absent when the source did not say (a fixture file)." }),
      capabilities: object.optional().meta({ description: "What the server declared; absent when the source did not say (a recording)." }),
      instructions: z.string().optional(),
      tools: z.array(named("name", "tool")).meta({ description: "Every tool listed, sorted by name, with its schemas, annotations and execution." }),
      resources: z.array(named("uri", "resource")).meta({ description: "Every resource listed, sorted by URI." }),
      resourceTemplates: z.array(named("uriTemplate", "resource template")).meta({ description: "Every resource template listed, sorted by URI template." }),
      prompts: z.array(named("name", "prompt")).meta({ description: "Every prompt listed, sorted by name." }),
    })
    .meta({
      title: "mcp-testkit surface snapshot",
      description: "A server's surface (mcp-testkit snapshot), normalized: keys sorted, lists sorted by their key. See docs/snapshots.md.",
    });
  return built;
}

/** Whether a parsed JSON file is a snapshot (it says so with `mcpSurface`). */
export function isSurfaceFile(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, "mcpSurface");
}

/**
 * A parsed snapshot file as a surface, normalized; a file that is not one throws an error that
 * names each problem with its path (`name` says which file).
 */
export function readSurface(value: unknown, name = "the snapshot"): ServerSurface {
  const result = surfaceFileSchema().safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.length === 0 ? "(top)" : issue.path.join(".")}: ${issue.message}`);
    throw new McpTestkitError(
      `${name} is not a surface snapshot (mcpSurface ${SURFACE_FORMAT}): ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""}. Write one with mcp-testkit snapshot.`,
      {
        code: "bad_snapshot",
      },
    );
  }
  const { $schema: _editorsOnly, ...surface } = result.data as ServerSurface & { $schema?: string };
  return normalizeSurface(surface);
}
