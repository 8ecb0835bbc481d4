// Answers tools/list with a result whose id is null.
import { send, serve } from "./zoo-server.mjs";
serve({ "tools/list": () => send({ jsonrpc: "2.0", id: null, result: { tools: [] } }) });
