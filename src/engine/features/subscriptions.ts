/** Subscriptions (2026-07-28): one long-lived `subscriptions/listen` carries the change notifications a client opted in to. */
import { LISTEN_METHOD, listen } from "../methods/subscriptions.js";
import type { EngineFeature } from "./feature.js";

export const subscriptionsFeature: EngineFeature = {
  name: "subscriptions",
  methods: [{ method: LISTEN_METHOD, handler: listen }],
};
