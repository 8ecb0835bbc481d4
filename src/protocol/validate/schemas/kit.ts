/**
 * The one place where the protocol version enters the schemas: `since(feature, schema)` gives the
 * schema where the version has the feature, and otherwise one that reports "version.feature".
 * Every schema builder takes a kit, so one definition yields the schema set of each version.
 */
import { FEATURES, versionHas, type Feature, type ProtocolVersion } from "../../versions.js";
import { unavailable, type Schema } from "./combinators.js";

export interface SchemaKit {
  readonly version: ProtocolVersion;
  has(feature: Feature): boolean;
  since(feature: Feature, schema: Schema): Schema;
}

/** E.g. 'protocol version 2024-11-05 does not have audio content blocks (feature "audioContent", introduced in 2025-03-26)'. */
export function featureProblemMessage(feature: Feature, version: ProtocolVersion): string {
  return `protocol version ${version} does not have ${FEATURES[feature].what} (${featureSpanText(feature)})`;
}

/** Which revisions have a feature, e.g. 'feature "ping", only from 2024-11-05 up to, not including, 2026-07-28'. */
export function featureSpanText(feature: Feature): string {
  const span: { since: string; until?: string } = FEATURES[feature];
  const when = span.until === undefined ? `introduced in ${span.since}` : `only from ${span.since} up to, not including, ${span.until}`;
  return `feature "${feature}", ${when}`;
}

export function schemaKit(version: ProtocolVersion): SchemaKit {
  const has = (feature: Feature) => versionHas(version, feature);
  return {
    version,
    has,
    since: (feature, schema) => (has(feature) ? schema : unavailable(featureProblemMessage(feature, version))),
  };
}
