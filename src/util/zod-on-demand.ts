/**
 * zod, loaded the first time a schema is built rather than when mcp-testkit is imported: it is
 * about a third of the package's import time and memory, and many programs never validate.
 * The validator and the fixture format are synchronous APIs, so zod comes in through `require`
 * (its CommonJS build), which loads synchronously; every schema of ours is built from this one copy.
 */
import { createRequire } from "node:module";
import type { z } from "zod";

let loaded: typeof z | undefined;

export function zod(): typeof z {
  loaded ??= (createRequire(import.meta.url)("zod") as { z: typeof z }).z;
  return loaded;
}
