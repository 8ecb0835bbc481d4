/**
 * `snapshotServer(driver)`: a server's surface read through a driver, in whichever era the driver
 * negotiated: its info, capabilities and instructions from the handshake (`initialize` or
 * `server/discover`), and every page of each list the server advertises.
 */
import type { McpDriver } from "../driver/driver.js";
import { LIST_KINDS, type ListKind } from "../protocol/list-kinds.js";
import { normalizeSurface, SURFACE_FORMAT, type ServerSurface } from "./surface.js";

type Json = Record<string, unknown>;

/** The part of a driver a snapshot uses. */
export type SnapshotDriver = Pick<McpDriver, "initialize" | "getTools" | "getResources" | "getResourceTemplates" | "getPrompts">;

const FETCH: Record<ListKind, (driver: SnapshotDriver) => Promise<unknown[]>> = {
  tools: (driver) => driver.getTools({ refresh: true }),
  resources: (driver) => driver.getResources({ refresh: true }),
  resourceTemplates: (driver) => driver.getResourceTemplates({ refresh: true }),
  prompts: (driver) => driver.getPrompts({ refresh: true }),
};

/**
 * Reads the server's surface, normalized (keys and lists sorted). A list the server does not
 * advertise is not asked for, and is empty in the snapshot; a list that fails to load fails the
 * snapshot (a surface with a list missing would diff as every item removed).
 */
export async function snapshotServer(driver: SnapshotDriver): Promise<ServerSurface> {
  const init = await driver.initialize();
  const capabilities = (init.capabilities ?? {}) as Json;
  const surface: ServerSurface = {
    mcpSurface: SURFACE_FORMAT,
    protocolVersion: init.protocolVersion,
    serverInfo: { ...(init.serverInfo as Json) },
    capabilities,
    ...(typeof init.instructions === "string" && init.instructions !== "" ? { instructions: init.instructions } : {}),
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  for (const { kind, capability } of LIST_KINDS) {
    if (capabilities[capability] === undefined) continue;
    surface[kind] = (await FETCH[kind](driver)) as Json[];
  }
  return normalizeSurface(surface);
}
