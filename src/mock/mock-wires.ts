/** The wires a mock can be served on besides memory, and where its MCP endpoint is. */
import type { Engine } from "../engine/engine.js";
import { McpTestkitError } from "../errors.js";
import { listen } from "../wire/http/listen.js";
import type { Router } from "../wire/http/router.js";
import type { ServedWire } from "../wire/served-wire.js";
import type { MockMcpOptions, StdioMockOptions } from "./mock-options.js";

/** Starts a wire for a mock: its engine, its options and its HTTP router (the routes on its port). */
export type WireStarter = (engine: Engine, options: MockMcpOptions, router: Router) => Promise<ServedWire>;

/** Serves the mock's router (its MCP endpoint at `path`, and whatever is mounted beside it) on its own port. */
const startHttpWire: WireStarter = async (_engine, options, router) => {
  const listening = await listen(router, { port: options.port, host: options.host });
  return { url: `${listening.origin}${mcpPath(options)}`, close: () => listening.close() };
};

/** The wires `transport` can name. Memory needs none: `connectInMemory()` and `handle()` always work. */
export const WIRES: Record<string, WireStarter | undefined> = {
  http: startHttpWire,
  stdio: (engine, options) => import("../wire/stdio.js").then((wire) => wire.serveStdio(engine, (options as StdioMockOptions).stdio)),
};

export function mcpPath(options: MockMcpOptions): string {
  const path = options.path ?? "/mcp";
  if (typeof path !== "string" || !path.startsWith("/")) throw new McpTestkitError(`"path" must start with "/", got ${JSON.stringify(path)}.`);
  return path;
}
