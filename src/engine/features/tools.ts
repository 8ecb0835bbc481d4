/** Tools: listed, and called through each tool's script, fakes or the unknown-tool policy. */
import { callTool, listTools } from "../methods/tools.js";
import type { EngineFeature } from "./feature.js";

export const toolsFeature: EngineFeature = {
  name: "tools",
  methods: [
    { method: "tools/list", handler: listTools },
    { method: "tools/call", handler: callTool },
  ],
  // listChanged: tools added after a client connected still reach it.
  capabilities: () => ({ tools: { listChanged: true } }),
};
