// Answers tools/list with an id that is not the request's.
import { send, serve } from "./zoo-server.mjs";
serve({ "tools/list": (request) => send({ jsonrpc: "2.0", id: request.id + 1000, result: { tools: [] } }) });
