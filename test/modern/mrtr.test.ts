/**
 * MRTR in the engine, through `handle()` (the direct wire): input rounds, retries resuming the
 * same step, the requestState's integrity (tampered, stale, another call's), a missing answer
 * asked again, a capability the client did not declare, expiry, and scripted `inputRequired`
 * steps for raw control.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { MODERN, modernMeta } from "./support.js";

const open: MockMcpServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

async function direct(options: MockMcpOptions) {
  const server = await mockMcp({ transport: "memory", ...options });
  open.push(server);
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = { elicitation: {}, sampling: {}, roots: {} }) => {
    const text = await server.handle(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities }) } }));
    return JSON.parse(text!) as { id: number; result?: Record<string, any>; error?: { code: number; message: string; data?: any } };
  };
  return { server, send };
}

const nameSchema = { type: "object", properties: { name: { type: "string" } } };
const greet = async (call: { elicit(p: Record<string, unknown>): Promise<Record<string, unknown>> }) => {
  const answer = await call.elicit({ message: "Name?", requestedSchema: nameSchema });
  return { returns: `hello ${(answer.content as { name: string }).name}` };
};

describe("MRTR rounds", () => {
  it("answers input_required with the ask and a signed requestState; the retry resumes the step", async () => {
    const { server, send } = await direct({ tools: { greet } });
    const first = await send("tools/call", { name: "greet", arguments: { a: 1 } });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create", params: { message: "Name?" } } } });
    expect(first.result!.requestState).toMatch(/^mtk1\.[\w-]+\.[\w-]+$/);
    expect(first.result).not.toHaveProperty("ttlMs");
    expect(server.calls[0]!.outcome).toBe("pending");
    const retry = await send("tools/call", {
      name: "greet",
      arguments: { a: 1 },
      requestState: first.result!.requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } },
    });
    expect(retry.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hello Ada" }] });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ outcome: "result", requestId: first.id, protocolVersion: MODERN, exchanges: [{ method: "elicitation/create", result: { action: "accept" } }] });
  });

  it("several rounds, one call", async () => {
    const { server, send } = await direct({
      tools: {
        two: async (call) => {
          const a = await call.elicit({ message: "first", requestedSchema: nameSchema });
          const b = await call.sample({ messages: [], maxTokens: 1 });
          return { returns: `${a.action}+${(b.content as { text: string }).text}` };
        },
      },
    });
    const one = await send("tools/call", { name: "two" });
    const two = await send("tools/call", { name: "two", requestState: one.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: {} } } });
    expect(Object.keys(two.result!.inputRequests)).toEqual(["sampling-2"]);
    const three = await send("tools/call", {
      name: "two",
      requestState: two.result!.requestState,
      inputResponses: { "sampling-2": { role: "assistant", content: { type: "text", text: "x" }, model: "m" } },
    });
    expect(three.result!.content).toEqual([{ type: "text", text: "accept+x" }]);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.exchanges.map((e) => e.method)).toEqual(["elicitation/create", "sampling/createMessage"]);
  });

  it("a missing answer is asked again (with a new state); extra answers are ignored", async () => {
    const { send } = await direct({ tools: { greet } });
    const first = await send("tools/call", { name: "greet" });
    const again = await send("tools/call", { name: "greet", requestState: first.result!.requestState, inputResponses: { unrelated: { action: "accept" } } });
    expect(again.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    expect(again.result!.requestState).not.toBe(first.result!.requestState);
    const done = await send("tools/call", { name: "greet", requestState: again.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Bo" } } } });
    expect(done.result!.content).toEqual([{ type: "text", text: "hello Bo" }]);
  });
});

describe("asks given up by the step (AskOptions.signal)", () => {
  it("an ask given up before its round is due leaves the round; the others go out", async () => {
    const { server, send } = await direct({
      tools: {
        pick: async (call) => {
          const giveUp = new AbortController();
          const roots = call.listRoots({ signal: giveUp.signal }).then(
            () => "roots",
            (error: Error) => error.message,
          );
          giveUp.abort();
          const answer = await call.elicit({ message: "Name?", requestedSchema: nameSchema });
          return { returns: `${await roots} / ${answer.action}` };
        },
      },
    });
    const first = await send("tools/call", { name: "pick" });
    expect(Object.keys(first.result!.inputRequests)).toEqual(["elicitation-2"]);
    const done = await send("tools/call", { name: "pick", requestState: first.result!.requestState, inputResponses: { "elicitation-2": { action: "decline" } } });
    expect(done.result!.content).toEqual([{ type: "text", text: "The client did not answer roots/list: the step gave the request up (its signal aborted) before the client answered / decline" }]);
    expect(server.calls[0]!.exchanges).toMatchObject([
      { method: "roots/list", error: { code: -32000 } },
      { method: "elicitation/create", result: { action: "decline" } },
    ]);
  });

  it("an ask given up after its round went out: the step goes on, and the retry gets its answer, its input response ignored", async () => {
    const { server, send } = await direct({
      tools: {
        patient: async (call) => {
          const giveUp = new AbortController();
          const asked = call.elicit({ message: "Name?", requestedSchema: nameSchema }, { signal: giveUp.signal });
          setTimeout(() => giveUp.abort(), 20);
          return {
            returns: await asked.then(
              () => "answered",
              () => "went on without it",
            ),
          };
        },
      },
    });
    const first = await send("tools/call", { name: "patient" });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    await expect.poll(() => server.calls[0]!.exchanges[0]!.error?.message).toContain("the step gave the request up");
    const retry = await send("tools/call", { name: "patient", requestState: first.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } } });
    expect(retry.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "went on without it" }] });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.outcome).toBe("result");
    expect(server.calls[0]!.exchanges).toHaveLength(1);
    expect(server.calls[0]!.exchanges[0]).not.toHaveProperty("result");
  });

  it("a new ask under a given-up ask's key is not answered by the late answer meant for the old one: it goes out in the next round", async () => {
    const { server, send } = await direct({
      tools: {
        rephrase: async (call) => {
          const giveUp = new AbortController();
          const first = call.elicit({ message: "Old question?", requestedSchema: nameSchema }, { key: "q", signal: giveUp.signal });
          setTimeout(() => giveUp.abort(), 20);
          await first.catch(() => undefined);
          const second = await call.elicit({ message: "New question?", requestedSchema: nameSchema }, { key: "q" });
          return { returns: `new: ${(second.content as { name: string }).name}` };
        },
      },
    });
    const first = await send("tools/call", { name: "rephrase" });
    expect(first.result!.inputRequests).toMatchObject({ q: { params: { message: "Old question?" } } });
    await expect.poll(() => server.calls[0]!.exchanges.length).toBe(2);
    const late = await send("tools/call", { name: "rephrase", requestState: first.result!.requestState, inputResponses: { q: { action: "accept", content: { name: "for the old one" } } } });
    expect(late.result).toMatchObject({ resultType: "input_required", inputRequests: { q: { params: { message: "New question?" } } } });
    const done = await send("tools/call", { name: "rephrase", requestState: late.result!.requestState, inputResponses: { q: { action: "accept", content: { name: "for the new one" } } } });
    expect(done.result!.content).toEqual([{ type: "text", text: "new: for the new one" }]);
    expect(server.calls[0]!.exchanges).toMatchObject([
      { params: { message: "Old question?" }, error: { code: -32000 } },
      { params: { message: "New question?" }, result: { content: { name: "for the new one" } } },
    ]);
  });

  it("an ask whose signal already aborted joins no round, and does not take an answer the request already carries", async () => {
    const { server, send } = await direct({
      tools: {
        early: async (call) => {
          const skipped = await call.elicit({ message: "Skipped?", requestedSchema: nameSchema }, { key: "q", signal: AbortSignal.abort() }).then(
            () => "answered",
            (error: Error) => error.message,
          );
          const given = await call.elicit({ message: "Given?", requestedSchema: nameSchema }, { key: "q" });
          return { returns: `${skipped} / ${given.action}` };
        },
      },
    });
    const done = await send("tools/call", { name: "early", inputResponses: { q: { action: "decline" } } });
    expect(done.result!.content).toEqual([
      { type: "text", text: "The client did not answer elicitation/create: the step gave the request up (its signal aborted) before the client answered / decline" },
    ]);
    expect(server.calls[0]!.exchanges).toMatchObject([{ error: { code: -32000 } }, { result: { action: "decline" } }]);
  });

  it("an ask the step did not wait for is dropped when the call answers: a later abort changes nothing", async () => {
    const giveUp = new AbortController();
    let failure = "";
    const { server, send } = await direct({
      tools: {
        hasty: (call) => {
          void call.elicit({ message: "Never mind", requestedSchema: nameSchema }, { signal: giveUp.signal }).catch((error: Error) => (failure = error.message));
          return { returns: "done" };
        },
      },
    });
    const done = await send("tools/call", { name: "hasty" });
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "done" }] });
    await expect.poll(() => failure).toBe("The client did not answer elicitation/create: the tool call ended before the client answered");
    const recorded = structuredClone(server.calls[0]!.exchanges);
    giveUp.abort();
    expect(server.calls[0]!.exchanges).toEqual(recorded);
    expect(recorded[0]).toMatchObject({ error: { message: "the tool call ended before the client answered" } });
  });
});

describe("requestState faults (the client's)", () => {
  it("a tampered state → -32602 saying it failed its integrity check", async () => {
    const { server, send } = await direct({ tools: { greet } });
    const first = await send("tools/call", { name: "greet" });
    const state: string = first.result!.requestState;
    const [prefix, payload, signature] = state.split(".");
    const forged = JSON.parse(Buffer.from(payload!, "base64url").toString());
    forged.round = 7;
    const tampered = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${signature}`;
    const reply = await send("tools/call", { name: "greet", requestState: tampered, inputResponses: { "elicitation-1": { action: "accept", content: { name: "x" } } } });
    expect(reply.error).toMatchObject({ code: -32602, data: { problem: "tampered" } });
    expect(reply.error!.message).toMatch(/requestState failed its integrity check/);
    expect(server.calls[0]!.outcome).toBe("pending");
  });

  it("a state used twice is stale; a state not ours is malformed; another call's state is a mismatch", async () => {
    const { send } = await direct({ tools: { greet } });
    const first = await send("tools/call", { name: "greet", arguments: { n: 1 } });
    const answers = { "elicitation-1": { action: "accept", content: { name: "x" } } };
    await send("tools/call", { name: "greet", arguments: { n: 1 }, requestState: first.result!.requestState, inputResponses: answers });
    const twice = await send("tools/call", { name: "greet", arguments: { n: 1 }, requestState: first.result!.requestState, inputResponses: answers });
    expect(twice.error).toMatchObject({ code: -32602, data: { problem: "stale" } });
    const foreign = await send("tools/call", { name: "greet", requestState: "opaque-from-elsewhere" });
    expect(foreign.error).toMatchObject({ code: -32602, data: { problem: "malformed" } });
    const second = await send("tools/call", { name: "greet", arguments: { n: 2 } });
    const other = await send("tools/call", { name: "greet", arguments: { n: 3 }, requestState: second.result!.requestState, inputResponses: answers });
    expect(other.error).toMatchObject({ code: -32602, data: { problem: "mismatch" } });
    // It says what differs: the arguments (of the same tool), not "another call".
    expect(other.error!.message).toBe(
      'Invalid params for tools/call: requestState was issued for a call of tool "greet" with other arguments: a retry must repeat the original request\'s arguments exactly',
    );
  });

  it("reset() makes every parked call's state stale and ends the call", async () => {
    const { server, send } = await direct({ tools: { greet } });
    const first = await send("tools/call", { name: "greet" });
    const call = server.calls[0]!;
    server.reset();
    expect(call).toMatchObject({ outcome: "cancelled", reason: expect.stringMatching(/reset or closed/) });
    const retry = await send("tools/call", { name: "greet", requestState: first.result!.requestState, inputResponses: {} });
    expect(retry.error).toMatchObject({ code: -32602, data: { problem: "stale" } });
  });

  it("non-string requestState or inputResponses → -32602", async () => {
    const { send } = await direct({ tools: { greet } });
    expect((await send("tools/call", { name: "greet", requestState: 5 })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/"requestState" must be the string/) });
    const first = await send("tools/call", { name: "greet" });
    expect((await send("tools/call", { name: "greet", requestState: first.result!.requestState, inputResponses: [] })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/"inputResponses" must be an object/),
    });
  });

  it("an ask the client did not declare → -32021 with requiredCapabilities", async () => {
    const { server, send } = await direct({ tools: { greet } });
    const reply = await send("tools/call", { name: "greet" }, {});
    expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(reply.error!.message).toMatch(/asks the client for elicitation, which its clientCapabilities in _meta do not declare/);
    expect(server.calls[0]!.outcome).toBe("protocol-error");
  });

  it("an elicitation needs its mode declared: URL mode elicitation.url, form mode elicitation.form or the empty elicitation {}", async () => {
    const visit = async (call: { elicit(p: Record<string, unknown>): Promise<Record<string, unknown>> }) => {
      const answer = await call.elicit({ mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e1" });
      return { returns: `url: ${String(answer.action)}` };
    };
    const { send } = await direct({ tools: { visit, greet } });
    for (const formOnly of [{ elicitation: {} }, { elicitation: { form: {} } }]) {
      const refused = await send("tools/call", { name: "visit" }, formOnly);
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });
      expect(refused.error!.message).toContain('tool "visit" asks the client for elicitation.url, which its clientCapabilities in _meta do not declare');
    }
    expect((await send("tools/call", { name: "visit" }, { elicitation: { url: {} } })).result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "elicitation-1": { params: { mode: "url" } } },
    });
    // A client that declared URL mode alone cannot fill a form.
    expect((await send("tools/call", { name: "greet" }, { elicitation: { url: {} } })).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect((await send("tools/call", { name: "greet" }, { elicitation: { form: {}, url: {} } })).result).toMatchObject({ resultType: "input_required" });
  });

  it("a round that asks for a form and a URL names both modes the client lacks, so one fix is enough", async () => {
    const both = async (call: { elicit(p: Record<string, unknown>): Promise<Record<string, unknown>> }) => {
      await Promise.all([call.elicit({ message: "Name?", requestedSchema: nameSchema }), call.elicit({ mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e2" })]);
      return { returns: "done" };
    };
    const { send } = await direct({ tools: { both } });
    expect((await send("tools/call", { name: "both" }, {})).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {}, url: {} } } } });
    expect((await send("tools/call", { name: "both" }, { elicitation: { url: {} } })).error).toMatchObject({ data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect((await send("tools/call", { name: "both" }, { elicitation: { form: {}, url: {} } })).result).toMatchObject({ resultType: "input_required" });
  });

  it("ping to the client has no MRTR form: the step's ping rejects with a message saying so", async () => {
    const { send } = await direct({
      tools: {
        pinger: async (call) => {
          try {
            await call.ping();
            return { returns: "pinged" };
          } catch (error) {
            return { returns: (error as Error).message };
          }
        },
      },
    });
    const reply = await send("tools/call", { name: "pinger" });
    expect(reply.result!.content[0].text).toMatch(/ping cannot be sent to a client in protocol version 2026-07-28/);
  });
});

describe("scripted inputRequired steps (raw control)", () => {
  it("sends the given inputRequests and requestState as they are; the retry is the next step", async () => {
    const { server, send } = await direct({ tools: { raw: [{ inputRequired: { inputRequests: { k: { method: "roots/list" } }, requestState: "my-own-state" } }, { returns: "after" }] } });
    const first = await send("tools/call", { name: "raw" });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { k: { method: "roots/list" } }, requestState: "my-own-state" });
    const retry = await send("tools/call", { name: "raw", requestState: "my-own-state", inputResponses: { k: { roots: [] } } });
    expect(retry.result!.content).toEqual([{ type: "text", text: "after" }]);
    expect(server.calls.map((call) => call.index)).toEqual([0, 1]);
  });

  it("in a legacy session the same step is an error naming the revision, while a 2026-07-28 request gets its input_required", async () => {
    const { server, send } = await direct({ tools: { raw: { inputRequired: { requestState: "s" } } } });
    await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
    const legacy = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "raw" } })))!);
    expect(legacy.result).toBeUndefined();
    expect(legacy.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Tool "raw" answered \{ inputRequired \}, which only protocol version 2026-07-28 can carry; this request speaks 2025-11-25\. Ask through call\.elicit\(\)/),
    });
    const modern = await send("tools/call", { name: "raw" });
    expect(modern.result).toMatchObject({ resultType: "input_required", requestState: "s" });
    expect(server.calls.map((call) => [call.protocolVersion, call.outcome])).toEqual([
      ["2025-11-25", "protocol-error"],
      [MODERN, "result"],
    ]);
  });

  it("a malformed inputRequired step is refused at mockMcp()", async () => {
    await expect(mockMcp({ transport: "memory", tools: { bad: { inputRequired: {} } } })).rejects.toThrow(/"inputRequired" must be \{ inputRequests\?: .*at least one of them/);
  });
});

describe("a client that never retries", () => {
  it("after inputTimeoutMs the call ends cancelled and its state is expired", async () => {
    const { server, send } = await direct({ tools: { greet }, inputTimeoutMs: 30 });
    const first = await send("tools/call", { name: "greet" });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled", reason: expect.stringMatching(/did not retry within 30 ms/) });
    const late = await send("tools/call", { name: "greet", requestState: first.result!.requestState, inputResponses: {} });
    expect(late.error).toMatchObject({ code: -32602, data: { problem: "expired" } });
  });

  it("a retry in the very millisecond its state expires is told it expired, whether the expiry timer ran first or not", async () => {
    // Only the timer and the clock are faked: the mock's own scheduling runs as usual.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const { server, send } = await direct({ tools: { greet }, inputTimeoutMs: 100 });
      const expired = { code: -32602, message: expect.stringContaining("requestState expired: the request was given up; send tools/call again without requestState"), data: { problem: "expired" } };

      const first = await send("tools/call", { name: "greet" });
      await vi.advanceTimersByTimeAsync(100);
      expect(server.calls[0]).toMatchObject({ outcome: "cancelled", reason: expect.stringMatching(/did not retry within 100 ms/) });
      expect((await send("tools/call", { name: "greet", requestState: first.result!.requestState, inputResponses: {} })).error).toMatchObject(expired);

      const second = await send("tools/call", { name: "greet" });
      vi.setSystemTime(Date.now() + 100); // the clock reaches the expiry; its timer has not run yet
      expect((await send("tools/call", { name: "greet", requestState: second.result!.requestState, inputResponses: {} })).error).toMatchObject(expired);
      expect(server.calls[1]).toMatchObject({ outcome: "cancelled", reason: expect.stringMatching(/did not retry within 100 ms/) });

      const third = await send("tools/call", { name: "greet" });
      await vi.advanceTimersByTimeAsync(99);
      const inTime = await send("tools/call", { name: "greet", requestState: third.result!.requestState, inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } } });
      expect(inTime.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hello Ada" }] });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a bad inputTimeoutMs is refused, and so is one longer than a timer can hold", async () => {
    await expect(mockMcp({ transport: "memory", inputTimeoutMs: 0 })).rejects.toThrow('"inputTimeoutMs" must be a whole number of ms from 1 to 2147483647, got number 0.');
    await expect(mockMcp({ transport: "memory", inputTimeoutMs: 3e9 })).rejects.toThrow('"inputTimeoutMs" must be a whole number of ms from 1 to 2147483647, got number 3000000000.');
    const longest = await mockMcp({ transport: "memory", inputTimeoutMs: 2 ** 31 - 1 });
    open.push(longest);
    expect(longest.calls).toEqual([]);
  });
});

describe("keys, answers given up front, prompts", () => {
  it("asks can be named; a call that already carries matching inputResponses (no requestState) is answered at once", async () => {
    const { server, send } = await direct({ tools: { named: async (call) => ({ returns: String((await call.elicit({ message: "?", requestedSchema: nameSchema }, { key: "user_name" })).action) }) } });
    const first = await send("tools/call", { name: "named" });
    expect(Object.keys(first.result!.inputRequests)).toEqual(["user_name"]);
    const upfront = await send("tools/call", { name: "named", inputResponses: { user_name: { action: "decline" }, extra: { ignored: true } } });
    expect(upfront.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "decline" }] });
    expect(server.calls[1]!.exchanges).toEqual([expect.objectContaining({ method: "elicitation/create", result: { action: "decline" } })]);
  });

  it("two asks of one round with the same key: the second is refused", async () => {
    const { send } = await direct({
      tools: {
        twice: async (call) => {
          const [, second] = await Promise.allSettled([call.elicit({ message: "a" }, { key: "k" }), call.elicit({ message: "b" }, { key: "k" })]);
          return { returns: second.status === "rejected" ? (second.reason as Error).message : "no" };
        },
      },
    });
    const first = await send("tools/call", { name: "twice" });
    const done = await send("tools/call", { name: "twice", requestState: first.result!.requestState, inputResponses: { k: { action: "accept", content: {} } } });
    expect(done.result!.content[0].text).toMatch(/share the key "k"; keys must be unique within a request/);
  });

  it("a prompt's messages function may ask for input (raw control) and sees the retry's inputResponses", async () => {
    const { send } = await direct({
      prompts: {
        ctx: {
          messages: (_args, request) =>
            request.inputResponses?.c
              ? [{ role: "user", content: `ctx ${JSON.stringify(request.inputResponses.c)}` }]
              : { inputRequired: { inputRequests: { c: { method: "elicitation/create", params: { message: "context?" } } } } },
        },
      },
    });
    const first = await send("prompts/get", { name: "ctx" });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { c: { method: "elicitation/create" } } });
    const second = await send("prompts/get", { name: "ctx", inputResponses: { c: { action: "accept" } } });
    expect(second.result).toMatchObject({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: 'ctx {"action":"accept"}' } }] });
  });

  it("a resource's read function may ask for input too, and sees the client's capabilities", async () => {
    const { send } = await direct({
      resources: {
        "secret://{name}": {
          read: (_uri, variables, request) =>
            request.inputResponses?.pin
              ? `the ${variables.name} secret`
              : {
                  inputRequired: {
                    inputRequests: { pin: { method: "elicitation/create", params: { message: `PIN for ${variables.name}? (elicitation: ${request.clientCapabilities.elicitation !== undefined})` } } },
                  },
                },
        },
      },
    });
    const first = await send("resources/read", { uri: "secret://vault" });
    expect(first.result).toEqual({
      resultType: "input_required",
      inputRequests: { pin: { method: "elicitation/create", params: { message: "PIN for vault? (elicitation: true)" } } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-testkit", version: "0.1.0" } },
    });
    const second = await send("resources/read", { uri: "secret://vault", inputResponses: { pin: { action: "accept", content: { pin: "1234" } } } });
    expect(second.result).toMatchObject({ resultType: "complete", contents: [{ uri: "secret://vault", text: "the vault secret" }], ttlMs: 0, cacheScope: "private" });
  });

  it("a prompt asking for input in a legacy session is an error naming the revision", async () => {
    const server = await mockMcp({ transport: "memory", prompts: { ctx: { messages: () => ({ inputRequired: { requestState: "s" } }) } } });
    open.push(server);
    await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
    const reply = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "ctx" } })))!);
    expect(reply.error).toMatchObject({ code: -32603, message: "Prompt ctx asked for input (inputRequired), which only protocol version 2026-07-28 can carry; this request speaks 2025-11-25" });
  });
});
