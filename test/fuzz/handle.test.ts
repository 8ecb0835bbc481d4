/**
 * Fuzzing `MockMcpServer.handle()`: sequences of hostile messages, each answered in bounded time
 * with valid JSON-RPC, a bounded record, and a mock that still serves a normal call afterwards.
 */
import { describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { mockMcp } from "../../src/index.js";
import { buildUri, hostileText, nameInPlace, uriRecipe, wellFormedRequest } from "./arbitraries.js";
import { ANSWER_BOUND_MS, timed, within } from "./bounds.js";
import { budget, LONG_RUN, testTimeout } from "./budget.js";
import { expectValidAnswer, fuzzScenario, negotiatedVersion, RECORD_LIMIT } from "./scenario.js";

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe("fuzz: handle()", () => {
  it.prop([fc.array(hostileText, { minLength: 1, maxLength: 25 })], budget(150, 6))(
    "every hostile message is answered in bounded time with valid JSON-RPC, and a normal call works afterwards",
    async (texts) => {
      const server = await mockMcp(fuzzScenario());
      try {
        let version = "2025-11-25";
        for (const text of texts) {
          const { value: reply, ms } = await timed(() => within(server.handle(text), ANSWER_BOUND_MS * 2, "handle()"));
          expect(ms, `handle() blocked for ${Math.round(ms)} ms on ${text.slice(0, 80)}`).toBeLessThan(ANSWER_BOUND_MS);
          const message = parsedOrText(text);
          expectValidAnswer(message, reply, version);
          version = negotiatedVersion(message, reply, version);
        }
        expect(server.calls.length).toBeLessThanOrEqual(RECORD_LIMIT);
        expect(server.messages.length).toBeLessThanOrEqual(RECORD_LIMIT);
        const normal = await server.handle(JSON.stringify({ jsonrpc: "2.0", id: "after", method: "tools/call", params: { name: "weather", arguments: { city: "Oslo" } } }));
        expect(JSON.parse(normal!)).toMatchObject({ id: "after", result: { content: [{ type: "text", text: "Sunny in Oslo" }] } });
      } finally {
        await server.close();
      }
    },
    testTimeout(6),
  );

  it.prop([fc.array(wellFormedRequest, { minLength: 5, maxLength: 20 })], budget(100, 5))(
    "requests with hostile names and values in their params get a result the schema accepts, or a JSON-RPC error that is not internal",
    async (requests) => {
      const server = await mockMcp(fuzzScenario());
      try {
        let version = "2025-11-25";
        for (const request of requests) {
          const reply = await within(server.handle(JSON.stringify(request)), ANSWER_BOUND_MS, `${String(request.method)}`);
          expectValidAnswer(request, reply, version);
          version = negotiatedVersion(request, reply, version);
        }
      } finally {
        await server.close();
      }
    },
    testTimeout(5),
  );

  it.prop([nameInPlace], budget(200, 3))(
    "a hostile name wherever a method takes a client's name gets a result the schema accepts, or an ordinary JSON-RPC error",
    async (request) => {
      const server = await mockMcp(fuzzScenario());
      try {
        expectValidAnswer(request, await within(server.handle(JSON.stringify(request)), ANSWER_BOUND_MS, String(request.method)), "2025-11-25");
      } finally {
        await server.close();
      }
    },
    testTimeout(3),
  );

  it.prop([uriRecipe(40_000)], budget(100, 8))(
    "a long URI is read, or refused, without blocking the event loop",
    async (recipe) => {
      const uri = buildUri(recipe);
      const server = await mockMcp(fuzzScenario());
      try {
        const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } });
        const { value: reply, ms } = await timed(() => server.handle(text));
        expect(ms, `resources/read of a ${uri.length}-character URI (${uri.slice(0, 40)}…) took ${Math.round(ms)} ms`).toBeLessThan(ANSWER_BOUND_MS);
        expectValidAnswer(JSON.parse(text), reply, "2025-11-25");
      } finally {
        await server.close();
      }
    },
    testTimeout(8),
  );

  it("a long stream of hostile messages on one mock keeps its record within recordLimit and its heap within a bound", { timeout: testTimeout(10) }, async () => {
    const server = await mockMcp(fuzzScenario());
    const count = LONG_RUN ? 50_000 : 5_000;
    const texts = fc.sample(hostileText, { numRuns: count, seed: 42 });
    const heapBefore = process.memoryUsage().heapUsed;
    try {
      for (const text of texts) await within(server.handle(text), ANSWER_BOUND_MS, "handle()");
      expect(server.calls.length).toBeLessThanOrEqual(RECORD_LIMIT);
      expect(server.messages.length).toBe(RECORD_LIMIT);
      expect(server.recordStats.droppedMessages).toBeGreaterThan(0);
      // Without --expose-gc the heap is only roughly measurable; an unbounded record of this stream would be far above.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});
