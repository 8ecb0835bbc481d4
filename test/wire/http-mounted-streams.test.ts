/**
 * A handler mounted on the mock's port (`server.mount`) answers with a web `Response`; over
 * `listen()` its body goes out as it comes, chunk by chunk and byte for byte: an SSE stream or
 * another mock's `fetch` streams through, a binary body arrives intact, and a client that goes
 * away cancels the body (an endless stream does not leak).
 */
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp } from "../../src/index.js";
import { delay, onCleanup, sdkClient, serve, text, track, until, useCleanup } from "./support/http.js";

useCleanup();

/** A promise and the function that settles it, for a stream that waits on the test. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Rejects after `ms`: a body that never streams must fail the test, not hang it. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe("a mounted handler's Response over listen()", () => {
  it("streams: the client reads the first chunk before the handler sends the second", async () => {
    const server = await serve();
    const second = gate();
    let secondSent = false;
    const encoder = new TextEncoder();
    server.mount("/events", () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode("data: first\n\n"));
          await second.opened;
          secondSent = true;
          controller.enqueue(encoder.encode("data: second\n\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });

    const response = await within(2000, "the response head", fetch(`${new URL(server.url).origin}/events`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await within(2000, "the first chunk", reader.read());
    expect(decoder.decode(first.value)).toBe("data: first\n\n");
    expect(secondSent).toBe(false);

    second.open();
    let rest = "";
    for (let i = 0; i < 10; i++) {
      const { done, value } = await within(2000, "the rest of the body", reader.read());
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toBe("data: second\n\n");
  });

  it("sends a binary body byte for byte (0x00 to 0xff), and every set-cookie header", async () => {
    const server = await serve();
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    server.mount("/blob", () => {
      const headers = new Headers({ "content-type": "application/octet-stream" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response(bytes, { headers });
    });
    const response = await fetch(`${new URL(server.url).origin}/blob`);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it("cancels the body when the client goes away mid-stream", async () => {
    const server = await serve();
    let cancelled: unknown = "not cancelled";
    let timer: NodeJS.Timeout | undefined;
    server.mount("/endless", () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("tick\n"));
          // An endless stream: a tick every 20 ms until it is cancelled.
          timer = setInterval(() => controller.enqueue(new TextEncoder().encode("tick\n")), 20);
        },
        cancel(reason) {
          clearInterval(timer);
          cancelled = reason;
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    });
    try {
      const url = new URL(`${new URL(server.url).origin}/endless`);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, agent: false }, (res) => {
          res.once("data", () => {
            // The first tick arrived: leave mid-stream.
            req.destroy();
            resolve();
          });
        });
        req.on("error", () => undefined);
        setTimeout(() => reject(new Error("no first chunk within 2000 ms")), 2000).unref();
        req.end();
      });
      await until(() => cancelled !== "not cancelled", 2000, "the body's cancel");
    } finally {
      clearInterval(timer);
    }
  });

  it("another mock's fetch, mounted: an SDK client gets its answers and its endless GET stream", async () => {
    const front = await serve({ tools: { front: { returns: "front" } } });
    const back = track(await mockMcp({ transport: "memory", tools: { back: { returns: "back", stream: { mode: "sse" } } } }));
    front.mount("/back", back.fetch);
    const standalone: string[] = [];
    back.on("stream:open", (event) => void (event.kind === "standalone" && standalone.push(event.streamId)));
    const { client } = await sdkClient(`${new URL(front.url).origin}/back`);
    const changes: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => void changes.push(notification.method));
    // An SSE answer streams through the front mock's port.
    expect(text(await client.callTool({ name: "back" }))).toBe("back");
    // The standalone GET stream never ends: a notification on it arrives only if it is streamed through.
    await until(() => standalone.length === 1, 2000, "the SDK client's GET stream");
    await back.setTool("added", { returns: "x" });
    await until(() => changes.length === 1, 2000, "list_changed on the mounted mock's GET stream");
    expect(back.calls.map((call) => call.tool)).toEqual(["back"]);
    expect(front.calls).toEqual([]);
  });

  it("a client that leaves aborts the Request the mounted handler got: a mounted mock's hanging JSON call ends disconnected", async () => {
    const front = await serve();
    const back = track(await mockMcp({ transport: "memory", tools: { wait: { hang: true } }, responseMode: "json" }));
    front.mount("/back", back.fetch);
    const url = new URL(`${new URL(front.url).origin}/back`);
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            agent: false,
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(body));
      });
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const session = init.headers["mcp-session-id"] as string;
    expect(session).toBeTruthy();
    const sessionHeaders = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders);
    // The call hangs on the back mock; the client gives up and closes its connection.
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...sessionHeaders },
    });
    req.on("error", () => undefined);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } }));
    await until(() => back.calls.length === 1, 2000, "the call to reach the mounted mock");
    expect(back.calls[0]!.outcome).toBe("pending");
    req.destroy();
    await until(() => back.calls[0]!.outcome !== "pending", 2000, "the mounted mock's call to end");
    expect(back.calls[0]).toMatchObject({ tool: "wait", outcome: "disconnected" });
  });
});

/** Requests over one keep-alive socket (an agent with one socket), so a response that spills onto the connection would show in the next one. */
function oneSocket(origin: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  onCleanup(() => agent.destroy());
  const url = new URL(origin);
  const sockets = new Set<unknown>();
  const send = (path: string, method = "GET") =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest({ agent, host: url.hostname, port: url.port, path, method }, (res) => {
        sockets.add(res.socket);
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.setTimeout(3000, () => req.destroy(new Error(`no answer to ${method} ${path} within 3000 ms`)));
      req.end();
    });
  return { send, sockets };
}

describe("a mounted handler's Response that node cannot send as it is", () => {
  it("a wrong content-length is not passed on: the body is framed by node and the next response on the connection is intact", async () => {
    const server = await serve();
    server.mount("/long", () => new Response("0123456789", { headers: { "content-length": "2", "content-type": "text/plain" } }));
    server.mount("/next", () => new Response("next"));
    const { send, sockets } = oneSocket(server.url);
    const long = await send("/long");
    expect(long.body.toString()).toBe("0123456789");
    expect(long.headers["content-length"]).toBeUndefined();
    const next = await send("/next");
    expect([next.status, next.body.toString()]).toEqual([200, "next"]);
    expect(sockets.size).toBe(1);
  });

  it("Response.error() (another mock's fetch after a disconnect step) drops the connection; the port goes on serving", async () => {
    const front = await serve();
    const back = track(await mockMcp({ transport: "memory", tools: { drop: { disconnect: true } }, responseMode: "json" }));
    front.mount("/back", back.fetch);
    const { client } = await sdkClient(`${new URL(front.url).origin}/back`);
    await expect(client.callTool({ name: "drop" })).rejects.toThrow();
    expect(back.calls.map((call) => [call.tool, call.outcome])).toEqual([["drop", "disconnected"]]);
    front.mount("/health", () => Response.json({ ok: true }));
    const health = await fetch(`${new URL(front.url).origin}/health`);
    expect(await health.json()).toEqual({ ok: true });
  });

  it("a body that fails before its first byte is a 500 naming the mount and the failure", async () => {
    const server = await serve();
    server.mount("/bad", () => new Response(new ReadableStream({ pull: () => Promise.reject(new Error("upstream body failed: ECONNRESET")) })));
    const response = await fetch(`${new URL(server.url).origin}/bad`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "the handler mounted at /bad failed: its body failed before its first byte: upstream body failed: ECONNRESET" });
  });

  it("something shaped like a Response but with no readable body is a 500, not a crash", async () => {
    const server = await serve();
    server.mount("/fake", () => ({ status: 200, headers: new Headers(), body: "not a stream" }) as unknown as Response);
    const response = await fetch(`${new URL(server.url).origin}/fake`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: string }).error).toMatch(/^the handler mounted at \/fake failed: it returned .*, not a Response$/);
  });

  it("HEAD gets the head alone: an endless body is cancelled and the connection serves the next request", async () => {
    const server = await serve();
    let cancelled = false;
    let pulls = 0;
    server.mount(
      "/endless",
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: async (controller) => {
              pulls++;
              await delay(5);
              controller.enqueue(new TextEncoder().encode("tick\n"));
            },
            cancel: () => void (cancelled = true),
          }),
          { headers: { "content-type": "text/plain" } },
        ),
    );
    server.mount("/next", () => new Response("next"));
    // HEAD then GET pipelined on one raw connection: the GET is answered only if the HEAD's response ended.
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    onCleanup(() => socket.destroy());
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.write(`HEAD /endless HTTP/1.1\r\nHost: ${url.host}\r\n\r\nGET /next HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await until(() => received.endsWith("next\r\n0\r\n\r\n"), 3000, "the GET's answer behind the HEAD's");
    const [headResponse] = received.split("\r\n\r\n");
    expect(headResponse).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(headResponse).toMatch(/content-type: text\/plain/i);
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThanOrEqual(1);
  });
});
