// A feature defined outside the package: a method with a params schema, a capability, a
// notification the client sends, and one the server sends back on the request's stream.
import { z } from "zod";
import { defineFeature, RpcError } from "../../../src/index.js";

export const counterFeature = defineFeature({
  name: "x-counter",
  state: () => ({ count: 0 }),
  capabilities: { experimental: { "x-counter": { step: 1 } } },
  methods: {
    "x/count": {
      params: z.object({ by: z.number().int().positive() }),
      handler: (request, state) => {
        state.count += request.params.by as number;
        request.notify("notifications/x/counted", { count: state.count });
        return { count: state.count, protocolVersion: request.protocolVersion };
      },
    },
    "x/fail": () => {
      throw new RpcError(-32050, "counter is jammed", { retryAfterMs: 10 });
    },
  },
  notifications: {
    "notifications/x/reset": (_notification, state) => {
      state.count = 0;
    },
  },
});
