// tools/call "ask" with { method, params } sends that request to the client and answers with
// what came back (the result or the error) as JSON text: it shows how the client answered.
import { result, send, serve } from "./zoo-server.mjs";
const waiting = new Map();
let next = 0;
serve(
  {
    "tools/call": (request) => {
      const id = `zoo-${++next}`;
      waiting.set(id, request);
      send({ jsonrpc: "2.0", id, method: request.params.arguments.method, params: request.params.arguments.params ?? {} });
    },
  },
  {
    onResponse: (response) => {
      const request = waiting.get(response.id);
      waiting.delete(response.id);
      const answer = "error" in response ? { error: response.error } : { result: response.result };
      result(request, { content: [{ type: "text", text: JSON.stringify(answer) }] });
    },
  },
);
