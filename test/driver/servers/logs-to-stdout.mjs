// Writes a log line to stdout (where only JSON-RPC belongs) before serving.
import { serve } from "./zoo-server.mjs";
console.log("Server starting... listening on stdio");
serve();
