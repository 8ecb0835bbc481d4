/** Prompts: listed and got. */
import { getPrompt, listPrompts } from "../methods/prompts.js";
import type { EngineFeature } from "./feature.js";

export const promptsFeature: EngineFeature = {
  name: "prompts",
  methods: [
    { method: "prompts/list", handler: listPrompts },
    { method: "prompts/get", handler: getPrompt },
  ],
  capabilities: () => ({ prompts: { listChanged: true } }),
};
