// tools/list in pages of 3 (7 tools); tools/call "add" adds a tool and says the list changed.
// ZOO_REPEAT_CURSOR=1: every page points to the same cursor, so paging would never end.
import { result, send, serve } from "./zoo-server.mjs";
const tools = Array.from({ length: 7 }, (_, index) => ({ name: `t${index + 1}`, inputSchema: { type: "object" } }));
serve({
  "tools/list": (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const page = tools.slice(start, start + 3);
    const next = process.env.ZOO_REPEAT_CURSOR ? "3" : start + 3 < tools.length ? String(start + 3) : undefined;
    result(request, { tools: page, ...(next === undefined ? {} : { nextCursor: next }) });
  },
  "tools/call": (request) => {
    tools.push({ name: `t${tools.length + 1}`, inputSchema: { type: "object" } });
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    result(request, { content: [{ type: "text", text: `now ${tools.length} tools` }] });
  },
});
