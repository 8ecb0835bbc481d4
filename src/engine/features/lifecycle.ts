/** The lifecycle: the handshake (`initialize`, or `server/discover` per request in 2026-07-28), `ping`, and the client's cancellations. */
import { readableId } from "../../protocol/read-envelope.js";
import { idKey } from "../connection.js";
import { discover, initialize, ping } from "../methods/lifecycle.js";
import type { EngineFeature } from "./feature.js";

export const lifecycleFeature: EngineFeature = {
  name: "lifecycle",
  methods: [
    { method: "initialize", handler: initialize },
    { method: "ping", handler: ping },
    { method: "server/discover", handler: discover },
  ],
  notifications: [
    {
      method: "notifications/initialized",
      handle: ({ connection }) => {
        connection.negotiated.initialized = true;
      },
    },
    {
      method: "notifications/cancelled",
      handle: ({ state, connection, params }) => {
        const requestId = readableId(params.requestId);
        if (requestId === null) return;
        const reason = typeof params.reason === "string" ? `cancelled by the client: ${params.reason}` : "cancelled by the client";
        state.abortRequest(connection, idKey(requestId), "cancelled", reason);
      },
    },
  ],
};
