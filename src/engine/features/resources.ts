/** Resources: listed, templated, read, and watched (legacy `resources/subscribe`). */
import { listResources, listResourceTemplates, readResource, subscribe, unsubscribe } from "../methods/resources.js";
import type { EngineFeature } from "./feature.js";

export const resourcesFeature: EngineFeature = {
  name: "resources",
  methods: [
    { method: "resources/list", handler: listResources },
    { method: "resources/templates/list", handler: listResourceTemplates },
    { method: "resources/read", handler: readResource },
    { method: "resources/subscribe", handler: subscribe },
    { method: "resources/unsubscribe", handler: unsubscribe },
  ],
  // 2026-07-28 watches through subscriptions/listen, so `subscribe` still says "can be watched".
  capabilities: () => ({ resources: { subscribe: true, listChanged: true } }),
};
