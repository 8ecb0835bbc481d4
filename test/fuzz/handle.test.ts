/**
 * Fuzzing `MockMcpServer.handle()`: sequences of hostile messages, each answered in bounded time
 * with valid JSON-RPC, a bounded record, and a mock that still serves a normal call afterwards.
 */
import { describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
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

/** Runs `work` on a fresh mock of the fuzz scenario, closed afterwards whatever happens. */
async function withMock(work: (server: MockMcpServer) => Promise<void>): Promise<void> {
  const server = await mockMcp(fuzzScenario());
  try {
    await work(server);
  } finally {
    await server.close();
  }
}

/** Sends each text through handle(), in order, and judges each answer (the version an initialize settles on judges the rest). */
async function expectEachAnswered(server: MockMcpServer, texts: string[]): Promise<void> {
  let version = "2025-11-25";
  for (const text of texts) {
    const { value: reply, ms } = await timed(() => within(server.handle(text), ANSWER_BOUND_MS * 2, "handle()"));
    // Only a hang guard, far above a normal answer: a runaway regex blocks the event loop, so no timer could catch it.
    expect(ms, `handle() blocked for ${Math.round(ms)} ms on ${text.slice(0, 80)}`).toBeLessThan(ANSWER_BOUND_MS);
    const message = parsedOrText(text);
    expectValidAnswer(message, reply, version);
    version = negotiatedVersion(message, reply, version);
  }
}

describe("fuzz: handle()", () => {
  it.prop([fc.array(hostileText, { minLength: 1, maxLength: 25 })], budget(150, 6))(
    "every hostile message is answered in bounded time with valid JSON-RPC, and a normal call works afterwards",
    (texts) =>
      withMock(async (server) => {
        await expectEachAnswered(server, texts);
        expect(server.calls.length).toBeLessThanOrEqual(RECORD_LIMIT);
        expect(server.messages.length).toBeLessThanOrEqual(RECORD_LIMIT);
        const normal = await server.handle(JSON.stringify({ jsonrpc: "2.0", id: "after", method: "tools/call", params: { name: "weather", arguments: { city: "Oslo" } } }));
        expect(JSON.parse(normal!)).toMatchObject({ id: "after", result: { content: [{ type: "text", text: "Sunny in Oslo" }] } });
      }),
    testTimeout(6),
  );

  it.prop([fc.array(wellFormedRequest, { minLength: 5, maxLength: 20 })], budget(100, 5))(
    "requests with hostile names and values in their params get a result the schema accepts, or a JSON-RPC error that is not internal",
    (requests) =>
      withMock((server) =>
        expectEachAnswered(
          server,
          requests.map((request) => JSON.stringify(request)),
        ),
      ),
    testTimeout(5),
  );

  it.prop([nameInPlace], budget(200, 3))(
    "a hostile name wherever a method takes a client's name gets a result the schema accepts, or an ordinary JSON-RPC error",
    (request) => withMock((server) => expectEachAnswered(server, [JSON.stringify(request)])),
    testTimeout(3),
  );

  it.prop([uriRecipe(40_000)], budget(100, 8))(
    "a long URI is read, or refused, without blocking the event loop",
    (recipe) => withMock((server) => expectEachAnswered(server, [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: buildUri(recipe) } })])),
    testTimeout(8),
  );

  it("a long stream of hostile messages on one mock keeps its record within recordLimit and its heap within a bound", { timeout: testTimeout(10) }, () =>
    withMock(async (server) => {
      const texts = fc.sample(hostileText, { numRuns: LONG_RUN ? 50_000 : 5_000, seed: 42 });
      const heapBefore = process.memoryUsage().heapUsed;
      for (const text of texts) await within(server.handle(text), ANSWER_BOUND_MS, "handle()");
      expect(server.calls.length).toBeLessThanOrEqual(RECORD_LIMIT);
      expect(server.messages.length).toBe(RECORD_LIMIT);
      expect(server.recordStats.droppedMessages).toBeGreaterThan(0);
      // Without --expose-gc the heap is only roughly measurable; an unbounded record of this stream would be far above.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    }),
  );
});
