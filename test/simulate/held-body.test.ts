/**
 * A `Request`'s body as the simulator reads it: a string or bytes body that Node's fetch still
 * holds as given is taken without reading its web stream (the cheap path), and leaves the body
 * used, as fetch would. Every other body — streamed, used, locked, another fetch
 * implementation's — is read through `arrayBuffer()`, with the same result a server reading it
 * would get.
 */
import { describe, expect, it } from "vitest";
import { takeHeldBody } from "../../src/simulate/held-body.js";
import { memoryMock, ORIGIN, openSession, simulator, useCleanup } from "./support.js";

useCleanup();

/** Node 20's undici (6.x) shows the state the cheap path reads; undici 7 (Node 22.?+, 24) keeps it private, and every body goes through arrayBuffer(). */
const heldOnThisNode = process.versions.undici?.startsWith("6.") === true;

const URL_ = `${ORIGIN}/mcp`;
const post = (body: NonNullable<RequestInit["body"]>, extra: RequestInit = {}) =>
  new Request(URL_, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body, ...extra });

describe("takeHeldBody", () => {
  it.runIf(heldOnThisNode)("takes a string body as given on Node 20's fetch, and leaves the body used (a second read is refused, as after fetch)", async () => {
    const request = post('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    // If this fails after a Node upgrade, undici no longer shows its state: the simulator still
    // works (through arrayBuffer()), only a simulated call with a Request costs more.
    expect(takeHeldBody(request)).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(request.bodyUsed).toBe(true);
    await expect(request.text()).rejects.toThrow(TypeError);
    expect(takeHeldBody(request)).toBeUndefined();
  });

  it.runIf(heldOnThisNode)("takes a bytes body as bytes of its own: reading a clone that shares them afterwards leaves them whole", async () => {
    const request = post(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    const clone = request.clone();
    const held = takeHeldBody(request);
    expect(held).toBeInstanceOf(Uint8Array);
    expect(await clone.text()).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(new TextDecoder().decode(held as Uint8Array)).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });

  it("never takes bytes a sibling's read has emptied: a clone read after its original, a Request rebuilt from one", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const original = post(new TextEncoder().encode(body));
    const clone = original.clone();
    await original.text();
    const rebuilt = new Request(post(new TextEncoder().encode(body)), { headers: { "x-test": "1" } });
    await new Promise((resolve) => setTimeout(resolve, 0)); // undici pipes the old body into the new one
    for (const request of [clone, rebuilt]) {
      const held = takeHeldBody(request);
      const text = held === undefined ? await request.text() : typeof held === "string" ? held : new TextDecoder().decode(held);
      expect(text).toBe(body);
    }
  });

  it.runIf(heldOnThisNode)("holds a string with lone surrogates as the stream would give it (replaced when the Request was built)", async () => {
    const body = '{"text":"\uD800"}';
    expect(takeHeldBody(post(body))).toBe(await post(body).text());
    expect(await post(body).text()).toBe('{"text":"\uFFFD"}');
  });

  it("gives undefined, leaving the body unread, for a streamed body, a locked or used one, a Blob, and no body", async () => {
    const streamed = post(new Blob(["{}"]).stream(), { duplex: "half" } as RequestInit);
    const locked = post("{}");
    const reader = locked.body!.getReader();
    const used = post("{}");
    await used.text();
    const blob = post(new Blob(["{}"]));
    const empty = new Request(URL_, { method: "POST" });
    for (const request of [streamed, locked, used, blob, empty]) expect(takeHeldBody(request)).toBeUndefined();
    expect(streamed.bodyUsed).toBe(false);
    expect(blob.bodyUsed).toBe(false);
    expect(await blob.text()).toBe("{}");
    reader.releaseLock();
  });

  it("gives undefined for a Request-like object of another fetch implementation (no state it can read)", () => {
    const foreign = { bodyUsed: false, method: "POST", url: URL_, headers: new Headers(), arrayBuffer: async () => new ArrayBuffer(0) } as unknown as Request;
    expect(takeHeldBody(foreign)).toBeUndefined();
  });
});

describe("the simulator reading a Request's body", () => {
  const call = (id: number, text: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}}}`;

  it("serves the same call whichever way the body is read: held text, a stream, and lone surrogates replaced as a server would read them", async () => {
    const server = await memoryMock({ tools: { echo: (call) => ({ returns: `echo: ${String(call.arguments.text)}` }) } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const session = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    const held = new Request(URL_, { method: "POST", headers: session, body: call(1, "held") });
    const streamed = new Request(URL_, { method: "POST", headers: session, body: new Blob([call(2, "streamed")]).stream(), duplex: "half" } as RequestInit);
    const surrogate = new Request(URL_, { method: "POST", headers: session, body: call(3, "\uD800") });
    const texts = [];
    for (const request of [held, streamed, surrogate]) {
      const simulation = await sim.startRequest(request);
      const completion = await simulation.awaitCompletion(2000);
      texts.push((completion!.terminalMessage!.result as { content: Array<{ text: string }> }).content[0]!.text);
      expect(request.bodyUsed).toBe(true);
    }
    expect(texts).toEqual(["echo: held", "echo: streamed", "echo: \uFFFD"]);
    expect(server.calls.map((c) => c.arguments)).toEqual([{ text: "held" }, { text: "streamed" }, { text: "\uFFFD" }]);
    // The recorder saw the same text the mock read.
    expect(
      sim.recorder.messages.filter((m) => m.method === "tools/call" && m.direction === "outgoing").map((m) => (m.content as unknown as { params: { arguments: unknown } }).params.arguments),
    ).toEqual([{ text: "held" }, { text: "streamed" }, { text: "\uFFFD" }]);
  });

  it.runIf(heldOnThisNode)("on Node 20 takes a string body without reading its stream (arrayBuffer() is never called)", async () => {
    const server = await memoryMock({ tools: { echo: (call) => ({ returns: `echo: ${String(call.arguments.text)}` }) } });
    const sim = simulator(server);
    const sessionId = await openSession(sim);
    const request = new Request(URL_, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
      body: call(1, "held"),
    });
    Object.defineProperty(request, "arrayBuffer", { value: () => Promise.reject(new Error("the body was read through its stream")) });
    const completion = await (await sim.startRequest(request)).awaitCompletion(2000);
    expect(completion?.terminalMessage?.result).toEqual({ content: [{ type: "text", text: "echo: held" }] });
    expect(request.bodyUsed).toBe(true);
  });

  it("refuses a Request whose body was used, as fetch does, with the Request's own TypeError", async () => {
    const server = await memoryMock({ tools: { echo: { returns: "ok" } } });
    const sim = simulator(server);
    const request = post(call(1, "once"));
    await (await sim.startRequest(request)).awaitCompletion(2000);
    await expect(sim.startRequest(request)).rejects.toThrow(TypeError);
    await expect(sim.startRequest(request)).rejects.toThrow(/unusable/i);
  });
});
