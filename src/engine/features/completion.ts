/** Completion of prompt and resource-template arguments. */
import { versionHas } from "../../protocol/versions.js";
import { complete } from "../methods/completion.js";
import type { EngineFeature } from "./feature.js";

export const completionFeature: EngineFeature = {
  name: "completion",
  methods: [{ method: "completion/complete", handler: complete }],
  // Revisions before the capability existed answered completion/complete without declaring it.
  capabilities: (version) => (versionHas(version, "completionsCapability") ? { completions: {} } : undefined),
};
