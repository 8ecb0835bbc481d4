/** Server-level messages over Streamable HTTP: logs and notifications on the GET stream, priming by version, batches by negotiated version. */
import { describe, expect, it } from "vitest";
import { get, post, rawSession, rpcRequest, serve, sseReader, useCleanup } from "./support/http.js";

useCleanup();

describe("server.log and server.notify", () => {
  it("reach each client on its GET stream, honouring logging/setLevel", async () => {
    const server = await serve();
    const quiet = await rawSession(server.url);
    const chatty = await rawSession(server.url);
    expect((await post(server.url, rpcRequest("logging/setLevel", { level: "error" }), { sessionId: quiet.sessionId })).status).toBe(200);
    const quietStream = sseReader(await get(server.url, { sessionId: quiet.sessionId }));
    const chattyStream = sseReader(await get(server.url, { sessionId: chatty.sessionId }));
    // Both streams start with a priming event (2025-11-25): an id and no data.
    expect((await quietStream.next())!.data).toBe("");
    expect((await chattyStream.next())!.data).toBe("");

    server.log("info", { note: "indexing" }, "search");
    server.log("error", "disk full");
    server.notify("notifications/custom", { x: 1 });

    const chattyMessages = [JSON.parse((await chattyStream.next())!.data), JSON.parse((await chattyStream.next())!.data), JSON.parse((await chattyStream.next())!.data)];
    expect(chattyMessages).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { note: "indexing" }, logger: "search" } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "error", data: "disk full" } },
      { jsonrpc: "2.0", method: "notifications/custom", params: { x: 1 } },
    ]);
    const quietMessages = [JSON.parse((await quietStream.next())!.data), JSON.parse((await quietStream.next())!.data)];
    expect(quietMessages.map((message) => message.params.level ?? message.method)).toEqual(["error", "notifications/custom"]);
    await quietStream.cancel();
    await chattyStream.cancel();
  });
});

describe("the GET stream by protocol version", () => {
  it("carries event ids but no priming event for a 2025-06-18 session", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url, "2025-06-18");
    const stream = sseReader(await get(server.url, { sessionId, version: "2025-06-18" }));
    server.notify("notifications/tools/list_changed");
    const first = (await stream.next())!;
    expect(JSON.parse(first.data)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(first.id).toBe("g_1");
    await stream.cancel();
  });
});

describe("batches need the negotiated version too", () => {
  it("a 2025-11-25 session cannot batch by claiming 2025-03-26 in the header", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url, "2025-11-25");
    const response = await post(server.url, [rpcRequest("ping"), rpcRequest("ping")], { sessionId, version: "2025-03-26" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("Invalid Request: JSON-RPC batches are not allowed in protocol version 2025-11-25 (only 2025-03-26)");
  });
});
