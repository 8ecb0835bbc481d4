/**
 * A mounted handler's body rule is the router's: a route that declares `body: { maxBytes,
 * contentTypes }` gets 413 and 415 from the router, before its handler is called, over a socket
 * (`listen`) and through `server.fetch` alike; the MCP endpoint's own limit and media type are
 * the same middleware, worded as a JSON-RPC error.
 */
import { describe, expect, it } from "vitest";
import { McpTestkitError, mockMcp } from "../../src/index.js";
import { ACCEPT_BOTH, initializeRequest, serve, track, useCleanup } from "./support/http.js";

useCleanup();

/** A web handler that counts its calls and echoes the body it was given. */
function echo() {
  const calls: string[] = [];
  const handler = async (request: Request) => {
    const text = await request.text();
    calls.push(text);
    return Response.json({ got: text.length });
  };
  return { calls, handler };
}

describe("a mounted handler's body rule, enforced by the router", () => {
  it("refuses a POST of another media type with 415 and a larger body with 413, without calling the handler", async () => {
    const server = await serve();
    const { calls, handler } = echo();
    server.mount("/hook", handler, { body: { maxBytes: 16, contentTypes: ["application/json"] } });
    const url = new URL("/hook", server.url).href;
    const post = (body: string, contentType?: string) => fetch(url, { method: "POST", headers: contentType === undefined ? {} : { "content-type": contentType }, body });

    for (const send of [() => post("{}", "text/plain"), () => post("{}")]) {
      const refused = await send();
      expect(refused.status).toBe(415);
      expect(((await refused.json()) as { error: string }).error).toMatch(/^Unsupported Media Type: Content-Type must be application\/json, got /);
    }
    const large = await post(JSON.stringify({ text: "x".repeat(32) }), "application/json");
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ error: "the body exceeds 16 bytes" });
    expect(calls).toEqual([]);

    // Matched case-insensitively, parameters ignored; exactly the limit is taken.
    const ok = await post(`{"a":"${"y".repeat(8)}"}`, "Application/JSON; charset=utf-8");
    expect(ok.status).toBe(200);
    expect(calls).toEqual([`{"a":"${"y".repeat(8)}"}`]);
    // Only a POST's media type is checked.
    expect((await fetch(url)).status).toBe(200);
    // A declared type is read as a request's is: its parameters and case do not matter either.
    server.mount("/declared", handler, { body: { maxBytes: 16, contentTypes: [" Application/JSON; charset=utf-8"] } });
    const declared = await fetch(new URL("/declared", server.url), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(declared.status).toBe(200);
  });

  it("answers the same through server.fetch, a body of unknown length included", async () => {
    const mock = track(await mockMcp({}));
    const { calls, handler } = echo();
    mock.mount("/hook", handler, { body: { maxBytes: 16, contentTypes: ["application/json"] } });
    const request = (body: string | ReadableStream<Uint8Array>, contentType: string) =>
      new Request("http://127.0.0.1/hook", { method: "POST", headers: { "content-type": contentType }, body, duplex: "half" } as RequestInit);
    expect((await mock.fetch(request("{}", "text/plain"))).status).toBe(415);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("x".repeat(40)));
        controller.close();
      },
    });
    const large = await mock.fetch(request(streamed, "application/json"));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ error: "the body exceeds 16 bytes" });
    expect(calls).toEqual([]);
    expect((await mock.fetch(request("{}", "application/json"))).status).toBe(200);
    expect(calls).toEqual(["{}"]);
  });

  it("through server.fetch, counts the bytes that arrive: a Content-Length that says less is not believed", async () => {
    const mock = track(await mockMcp({}));
    const { calls, handler } = echo();
    mock.mount("/hook", handler, { body: { maxBytes: 16 } });
    const understated = new Request("http://127.0.0.1/hook", { method: "POST", headers: { "content-length": "2" }, body: "x".repeat(40) });
    const refused = await mock.fetch(understated);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "the body exceeds 16 bytes" });
    // The MCP endpoint reads its bodies the same way.
    const rpc = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH, "content-length": "2" },
      body: JSON.stringify({ ...initializeRequest(), padding: "x".repeat(5 * 1024 * 1024) }),
    });
    expect((await mock.fetch(rpc)).status).toBe(413);
    expect(calls).toEqual([]);
  });

  it("through server.fetch, stops reading a body of unknown length once it passes the limit", async () => {
    const mock = track(await mockMcp({}));
    const { calls, handler } = echo();
    mock.mount("/hook", handler, { body: { maxBytes: 1024 } });
    let pulls = 0;
    let cancelled = false;
    // A body that would never end: the router must stop at the limit rather than wait for its end.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls > 10_000) controller.close();
        else controller.enqueue(new Uint8Array(256));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await mock.fetch(new Request("http://127.0.0.1/hook", { method: "POST", body: endless, duplex: "half" } as RequestInit));
    expect(response.status).toBe(413);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(20);
    expect(calls).toEqual([]);
  });

  it("the MCP endpoint's 413 and 415 come from the same middleware, as JSON-RPC errors", async () => {
    const server = await serve({ maxBodyBytes: 64 });
    const post = (body: string, contentType: string) => fetch(server.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": contentType }, body });
    const wrongType = await post(JSON.stringify(initializeRequest()), "text/plain");
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unsupported Media Type: Content-Type must be application/json" } });
    const large = await post(JSON.stringify(initializeRequest()), "application/json");
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Payload Too Large: the body exceeds 64 bytes" } });
  });

  it("refuses a malformed body rule when mounting", async () => {
    const mock = track(await mockMcp({}));
    const { handler } = echo();
    expect(() => mock.mount("/a", handler, { body: { maxBytes: -1 } })).toThrow(McpTestkitError);
    expect(() => mock.mount("/b", handler, { body: { maxBytes: 10, contentTypes: [] } })).toThrow(/body\.contentTypes/);
    expect(() => mock.mount("/c", handler, { body: "big" as never })).toThrow(/"body" must be an object/);
  });
});
