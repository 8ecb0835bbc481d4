/**
 * Speaking a protocol version: fields the mock adds to listings and results are left out when
 * the negotiated version does not have them (an old client never sees `outputSchema`), or has
 * them only in an older form (an `outputSchema` whose root is not an object, before 2026-07-28).
 * Which field needs which feature is data here, not scattered `if`s.
 */
import { isObject } from "../protocol/jsonrpc.js";
import { versionHas, type Feature } from "../protocol/versions.js";

type Json = Record<string, unknown>;

/** A feature whose newer form of a field needs it: without it, the field is kept only in its older form. */
interface NewerForm {
  readonly feature: Feature;
  readonly olderForm: (value: unknown) => boolean;
}
/** What a field needs: a feature (left out without it), a newer form, or several of these. */
type FieldNeed = Feature | NewerForm;
type FieldFeatures = Record<string, FieldNeed | readonly FieldNeed[]>;

/** A JSON Schema whose root is an object type: the only output schema before 2026-07-28. */
export function objectRooted(schema: unknown): boolean {
  return isObject(schema) && schema.type === "object";
}

/** Structured content of any JSON type came with 2026-07-28; before, it and its schema were objects. */
const ANY_STRUCTURED_VALUE = (olderForm: (value: unknown) => boolean): NewerForm => ({ feature: "structuredContentAnyValue", olderForm });

export const TOOL_FIELDS: FieldFeatures = {
  title: "titles",
  outputSchema: ["outputSchema", ANY_STRUCTURED_VALUE(objectRooted)],
  annotations: "toolAnnotations",
  icons: "icons",
  execution: "coreTasks",
};
export const RESOURCE_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };
export const PROMPT_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };
export const TOOL_RESULT_FIELDS: FieldFeatures = { structuredContent: ["structuredContent", ANY_STRUCTURED_VALUE(isObject)] };
export const IMPLEMENTATION_FIELDS: FieldFeatures = { title: "titles", icons: "icons" };

/** A field `version` lacks: left out, or (`olderForms`) kept when its value has every one of those forms. */
interface Missing {
  readonly field: string;
  readonly olderForms?: readonly ((value: unknown) => boolean)[];
}

const cache = new WeakMap<FieldFeatures, Map<string, Missing[]>>();

/** What of `fields` `version` lacks (memoized: listings are shaped on every list). */
function missingFields(fields: FieldFeatures, version: string): Missing[] {
  let byVersion = cache.get(fields);
  if (!byVersion) cache.set(fields, (byVersion = new Map()));
  let missing = byVersion.get(version);
  if (!missing) {
    missing = [];
    for (const [field, need] of Object.entries(fields)) {
      const lacking = (Array.isArray(need) ? need : [need]).filter((one: FieldNeed) => !versionHas(version, typeof one === "string" ? one : one.feature));
      if (lacking.length === 0) continue;
      const whole = lacking.some((one: FieldNeed) => typeof one === "string");
      missing.push(whole ? { field } : { field, olderForms: lacking.map((one: FieldNeed) => (one as NewerForm).olderForm) });
    }
    byVersion.set(version, missing);
  }
  return missing;
}

const leftOut = (missing: Missing, value: Json): boolean => missing.field in value && (missing.olderForms === undefined || !missing.olderForms.every((olderForm) => olderForm(value[missing.field])));

/** `value` without the fields `version` does not have; the same object when nothing is missing. */
export function shapeForVersion(value: Json, fields: FieldFeatures, version: string): Json {
  const missing = missingFields(fields, version);
  if (missing.length === 0 || !missing.some((one) => leftOut(one, value))) return value;
  const copy = { ...value };
  for (const one of missing) if (leftOut(one, value)) delete copy[one.field];
  return copy;
}
