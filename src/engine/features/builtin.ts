/**
 * The features every mock serves, in the order their capabilities are declared. A feature of
 * the protocol is added here, as a module of its own (see `feature.ts`); a user's own come
 * after these, through the `features` option. One with state is listed as its factory, so each
 * mock gets its own.
 */
import { completionFeature } from "./completion.js";
import type { EngineFeature, FeatureSource } from "./feature.js";
import { lifecycleFeature } from "./lifecycle.js";
import { loggingFeature } from "./logging.js";
import { promptsFeature } from "./prompts.js";
import { resourcesFeature } from "./resources.js";
import { skillsFeature } from "./skills.js";
import { subscriptionsFeature } from "./subscriptions.js";
import { tasksFeature } from "./tasks.js";
import { toolsFeature } from "./tools.js";

const BUILTIN_FEATURES: readonly FeatureSource[] = [
  lifecycleFeature,
  toolsFeature,
  resourcesFeature,
  promptsFeature,
  loggingFeature,
  completionFeature,
  subscriptionsFeature,
  skillsFeature,
  tasksFeature,
];

/** The built-in features for one engine: a factory made anew, a stateless feature as it is. */
export function builtinFeatures(): EngineFeature[] {
  return BUILTIN_FEATURES.map((source) => (typeof source === "function" ? source() : source));
}
