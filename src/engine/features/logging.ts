/** Logging: the client sets the level of `notifications/message` it wants. */
import { setLevel } from "../methods/lifecycle.js";
import type { EngineFeature } from "./feature.js";

export const loggingFeature: EngineFeature = {
  name: "logging",
  methods: [{ method: "logging/setLevel", handler: setLevel }],
  capabilities: () => ({ logging: {} }),
};
