/**
 * The features every mock serves, in the order their capabilities are declared. A feature of
 * the protocol is added here, as a module of its own (see `feature.ts`); a user's own come
 * after these, through the `features` option.
 */
import { completionFeature } from "./completion.js";
import type { EngineFeature } from "./feature.js";
import { lifecycleFeature } from "./lifecycle.js";
import { loggingFeature } from "./logging.js";
import { promptsFeature } from "./prompts.js";
import { resourcesFeature } from "./resources.js";
import { subscriptionsFeature } from "./subscriptions.js";
import { toolsFeature } from "./tools.js";

export const BUILTIN_FEATURES: readonly EngineFeature[] = [
  lifecycleFeature,
  toolsFeature,
  resourcesFeature,
  promptsFeature,
  loggingFeature,
  completionFeature,
  subscriptionsFeature,
];
