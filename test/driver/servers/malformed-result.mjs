// Answers tools/call with a content block of an unknown type ("txt").
import { result, serve } from "./zoo-server.mjs";
serve({ "tools/call": (request) => result(request, { content: [{ type: "txt", text: "hi" }] }) });
