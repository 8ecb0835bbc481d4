/**
 * Speaking a protocol version: fields the mock adds to listings and results are left out when
 * the negotiated version does not have them (an old client never sees `outputSchema`).
 * Which field needs which feature is data here, not scattered `if`s.
 */
import { versionHas, type Feature } from "../protocol/versions.js";

type Json = Record<string, unknown>;
type FieldFeatures = Record<string, Feature>;

export const TOOL_FIELDS: FieldFeatures = { title: "titles", outputSchema: "outputSchema", annotations: "toolAnnotations", icons: "icons" };
export const RESOURCE_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };
export const PROMPT_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };
export const TOOL_RESULT_FIELDS: FieldFeatures = { structuredContent: "structuredContent" };
export const IMPLEMENTATION_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };

const cache = new WeakMap<FieldFeatures, Map<string, string[]>>();

/** The fields of `fields` that `version` lacks (memoized: listings are shaped on every list). */
function missingFields(fields: FieldFeatures, version: string): string[] {
  let byVersion = cache.get(fields);
  if (!byVersion) cache.set(fields, (byVersion = new Map()));
  let missing = byVersion.get(version);
  if (!missing) {
    missing = Object.entries(fields).filter(([, feature]) => !versionHas(version, feature)).map(([field]) => field);
    byVersion.set(version, missing);
  }
  return missing;
}

/** `value` without the fields `version` does not have; the same object when nothing is missing. */
export function shapeForVersion(value: Json, fields: FieldFeatures, version: string): Json {
  const missing = missingFields(fields, version);
  if (missing.length === 0 || !missing.some((field) => field in value)) return value;
  const copy = { ...value };
  for (const field of missing) delete copy[field];
  return copy;
}
