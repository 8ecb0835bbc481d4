/**
 * The tools a mock lists: what `tools/list` answers a client that names no test id on an
 * endpoint. The CLI's banner and the control API's health route both count them from here.
 */
import { NO_IDENTITY } from "../engine/request-context.js";
import type { Fakes } from "../fakes/index.js";

/** The registered tools, then the shared fakes' tools on `mount` (undefined: the default one); a name in both is listed once (the registered one wins, as in `tools/list`). */
export function listedToolNames(registered: Iterable<string>, fakes: Fakes, mount: string | undefined): string[] {
  const names = new Set(registered);
  for (const tool of fakes.listTools({ mount, identity: NO_IDENTITY })) names.add(tool.name);
  return [...names];
}
