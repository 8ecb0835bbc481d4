// Our mock on stdio (the built package), its tools/list cached for a minute: the tool "grow"
// adds a tool "grown", which tells every listening client that the list changed.
import { mockMcp } from "../../../dist/index.js";

const server = await mockMcp({
  transport: "stdio",
  cache: { methods: { "tools/list": { ttlMs: 60_000, cacheScope: "public" } } },
  tools: {
    grow: async () => {
      await server.setTool("grown", { returns: "new" });
      return { returns: "grew" };
    },
  },
});
