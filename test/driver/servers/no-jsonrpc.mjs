// Answers tools/list without the "jsonrpc" member.
import { send, serve } from "./zoo-server.mjs";
serve({ "tools/list": (request) => send({ id: request.id, result: { tools: [] } }) });
