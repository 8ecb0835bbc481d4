/** Schemas are built once per protocol version and reused: a recorder may validate every message. */
import type { ProtocolVersion } from "../../versions.js";
import { schemaKit } from "./kit.js";
import { methodSchemas, type MethodSchemaSet } from "./methods.js";

const cache = new Map<ProtocolVersion, MethodSchemaSet>();

export function schemasFor(version: ProtocolVersion): MethodSchemaSet {
  let set = cache.get(version);
  if (set === undefined) {
    set = methodSchemas(schemaKit(version));
    cache.set(version, set);
  }
  return set;
}
