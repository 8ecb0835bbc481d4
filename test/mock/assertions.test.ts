/**
 * Assertions on what the agent did: `assertCalled`, `assertNotCalled`, `assertCalledInOrder`,
 * `waitForCalls`, and the partial matcher `matches()` that `with` uses. Failures are node's
 * `AssertionError`, and their messages list the calls that did happen.
 */
import { AssertionError } from "node:assert";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { matches, firstDifference, mockMcp, AssertionError as ExportedAssertionError, type MockMcpServer } from "../../src/index.js";
import { connect, delay, mock, useCleanup } from "./support.js";

useCleanup();

/** A mock whose tools all answer, after `calls` were made by an SDK client, in this order. */
async function afterCalls(calls: [string, Record<string, unknown>?][]): Promise<MockMcpServer> {
  const names = [...new Set(calls.map(([name]) => name)), "search_issues", "get_issue", "add_comment", "delete_repo"];
  const server = await mock({ tools: Object.fromEntries(names.map((name) => [name, { returns: "ok" }])) });
  const client = await connect(server);
  for (const [name, args] of calls) await client.callTool({ name, arguments: args });
  return server;
}

/** The AssertionError `run` throws (fails the test when it does not throw one). */
function failure(run: () => unknown): AssertionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AssertionError);
    return error as AssertionError;
  }
  throw new Error("expected an AssertionError, but nothing was thrown");
}

describe("assertCalled", () => {
  it("passes when the tool was called at least once, and returns the calls", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "bug" }],
      ["get_issue", { id: 1 }],
      ["search_issues", { query: "crash" }],
    ]);
    const calls = server.assertCalled("search_issues");
    expect(calls.map((call) => call.arguments)).toEqual([{ query: "bug" }, { query: "crash" }]);
    expect(ExportedAssertionError).toBe(AssertionError);
  });

  it("fails with the seed's message when the count is wrong", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "bug", limit: 10 }],
      ["search_issues", { query: "crash" }],
    ]);
    const error = failure(() => server.assertCalled("search_issues", { times: 3 }));
    expect(error.message).toBe('Expected "search_issues" to be called 3 times, but it was called 2 times.\nCalls:\n  #0 {"query":"bug","limit":10}\n  #1 {"query":"crash"}');
    expect(error.actual).toBe(2);
    expect(error.expected).toBe(3);
    expect(server.assertCalled("search_issues", { times: 2 })).toHaveLength(2);
  });

  it("says 1 time, not 1 times", async () => {
    const server = await afterCalls([["get_issue", { id: 1 }]]);
    expect(failure(() => server.assertCalled("get_issue", { times: 2 })).message).toBe('Expected "get_issue" to be called 2 times, but it was called 1 time.\nCalls:\n  #0 {"id":1}');
    const twice = await afterCalls([
      ["get_issue", { id: 1 }],
      ["get_issue", { id: 2 }],
    ]);
    expect(failure(() => twice.assertCalled("get_issue", { times: 1 })).message).toBe('Expected "get_issue" to be called 1 time, but it was called 2 times.\nCalls:\n  #0 {"id":1}\n  #1 {"id":2}');
  });

  it("fails when the tool was never called, listing the other calls", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "bug" }],
      ["get_issue", { id: 7 }],
    ]);
    expect(failure(() => server.assertCalled("add_comment")).message).toBe(
      'Expected "add_comment" to be called, but it was never called.\nCalls to other tools:\n  search_issues #0 {"query":"bug"}\n  get_issue #0 {"id":7}',
    );
    const empty = await afterCalls([]);
    expect(failure(() => empty.assertCalled("add_comment")).message).toBe('Expected "add_comment" to be called, but it was never called.\nNo tool was called.');
    expect(failure(() => empty.assertCalled("add_comment", { times: 1 })).message).toBe('Expected "add_comment" to be called 1 time, but it was called 0 times.\nNo tool was called.');
  });

  it("a name close to a tool that was called is named as the likely typo", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "bug" }],
      ["search_issues", { query: "crash" }],
    ]);
    expect(failure(() => server.assertCalled("search_issue")).message).toBe(
      'Expected "search_issue" to be called, but it was never called; did you mean "search_issues"? It was called 2 times.\nCalls to other tools:\n  search_issues #0 {"query":"bug"}\n  search_issues #1 {"query":"crash"}',
    );
  });

  it("refuses an unknown option (plain JS would pass an assertion that checks less than it says)", async () => {
    const server = await afterCalls([["get_issue", { id: 1 }]]);
    expect(() => server.assertCalled("get_issue", { time: 1 } as never)).toThrow(
      '[mcp-testkit] assertCalled("get_issue", options) has unknown option "time"; did you mean "times"? It takes { times?, with? }.',
    );
    expect(() => server.assertCalled("get_issue", { colour: 1 } as never)).toThrow('has unknown option "colour". It takes { times?, with? }.');
  });

  it("times: 0 passes only when the tool was not called", async () => {
    const server = await afterCalls([["get_issue", { id: 1 }]]);
    expect(server.assertCalled("search_issues", { times: 0 })).toEqual([]);
    expect(failure(() => server.assertCalled("get_issue", { times: 0 })).message).toBe('Expected "get_issue" to be called 0 times, but it was called 1 time.\nCalls:\n  #0 {"id":1}');
  });

  it("with: matches deeply and partially; extra keys are fine", async () => {
    const server = await afterCalls([
      ["search_issues", { repo: "acme/api", query: "bug", filters: { state: "open", labels: ["p1", "ui"] } }],
      ["search_issues", { repo: "acme/web", query: "crash" }],
    ]);
    expect(server.assertCalled("search_issues", { with: { repo: "acme/api" } })).toHaveLength(1);
    expect(server.assertCalled("search_issues", { with: { filters: { state: "open" } } })).toHaveLength(1);
    expect(server.assertCalled("search_issues", { with: { filters: { labels: ["p1", "ui"] } } })).toHaveLength(1);
    expect(server.assertCalled("search_issues", { with: { query: /bug|crash/ } })).toHaveLength(2);
    expect(server.assertCalled("search_issues", { with: {} })).toHaveLength(2);
  });

  it("with: a failure shows, under each call, where its arguments first differ", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "crash", repo: "acme/api" }],
      ["search_issues", { query: "bug", repo: "acme/web" }],
    ]);
    const error = failure(() => server.assertCalled("search_issues", { with: { query: /bug/i, repo: "acme/api" } }));
    expect(error.message).toBe(
      'Expected "search_issues" to be called with {"query":/bug/i,"repo":"acme/api"}, but no call matched.\n' +
        "Calls:\n" +
        '  #0 {"query":"crash","repo":"acme/api"}\n' +
        '      at $.query: expected /bug/i, got "crash"\n' +
        '  #1 {"query":"bug","repo":"acme/web"}\n' +
        '      at $.repo: expected "acme/api", got "acme/web"',
    );
  });

  it("with and times together count only the matching calls", async () => {
    const server = await afterCalls([
      ["get_issue", { id: 1 }],
      ["get_issue", { id: 2 }],
      ["get_issue", { id: 1 }],
    ]);
    expect(server.assertCalled("get_issue", { with: { id: 1 }, times: 2 })).toHaveLength(2);
    expect(failure(() => server.assertCalled("get_issue", { with: { id: 2 }, times: 2 })).message).toBe(
      'Expected "get_issue" to be called 2 times with {"id":2}, but it was called 1 time with matching arguments.\n' +
        "Calls:\n" +
        '  #0 {"id":1}\n' +
        "      at $.id: expected 2, got 1\n" +
        '  #1 {"id":2}\n' +
        '  #2 {"id":1}\n' +
        "      at $.id: expected 2, got 1",
    );
  });

  it("with: nested paths, array items and odd keys are named in the failure", async () => {
    const server = await afterCalls([["add_comment", { issue: { labels: [{ name: "bug" }, { name: "ui" }] }, "x-trace": "1" }]]);
    expect(failure(() => server.assertCalled("add_comment", { with: { issue: { labels: [{ name: "bug" }, { name: "p1" }] } } })).message).toBe(
      'Expected "add_comment" to be called with {"issue":{"labels":[{"name":"bug"},{"name":"p1"}]}}, but no call matched.\n' +
        "Calls:\n" +
        '  #0 {"issue":{"labels":[{"name":"bug"},{"name":"ui"}]},"x-trace":"1"}\n' +
        '      at $.issue.labels[1].name: expected "p1", got "ui"',
    );
    expect(failure(() => server.assertCalled("add_comment", { with: { "x-trace": "2" } })).message).toContain('      at $["x-trace"]: expected "2", got "1"');
    expect(failure(() => server.assertCalled("add_comment", { with: { issue: { labels: [{ name: "bug" }] } } })).message).toContain(
      '      at $.issue.labels: expected [{"name":"bug"}], got [{"name":"bug"},{"name":"ui"}]',
    );
    expect(failure(() => server.assertCalled("add_comment", { with: { missing: 1 } })).message).toContain("      at $.missing: expected 1, got undefined");
  });

  it("with: asymmetric matchers work and are shown as Jest and Vitest print them", async () => {
    const server = await afterCalls([["get_issue", { id: 7, title: "Crash on start", tags: ["a", "b"] }]]);
    expect(server.assertCalled("get_issue", { with: { id: expect.any(Number), title: expect.stringContaining("Crash") } })).toHaveLength(1);
    expect(server.assertCalled("get_issue", { with: { tags: expect.arrayContaining(["b"]) } })).toHaveLength(1);
    expect(failure(() => server.assertCalled("get_issue", { with: { id: expect.any(String) } })).message).toBe(
      'Expected "get_issue" to be called with {"id":Any<String>}, but no call matched.\nCalls:\n  #0 {"id":7,"title":"Crash on start","tags":["a","b"]}\n      at $.id: expected Any<String>, got 7',
    );
    expect(failure(() => server.assertCalled("get_issue", { with: { title: expect.stringContaining("Hang") } })).message).toBe(
      'Expected "get_issue" to be called with {"title":StringContaining "Hang"}, but no call matched.\nCalls:\n  #0 {"id":7,"title":"Crash on start","tags":["a","b"]}\n      at $.title: expected StringContaining "Hang", got "Crash on start"',
    );
  });

  it("shows RegExps with quotes and backslashes as written, and argument strings that look like markers as strings", async () => {
    const server = await afterCalls([["search_issues", { query: "__regexp__/x/", note: "__matcher__Any<String>" }]]);
    expect(failure(() => server.assertCalled("search_issues", { with: { query: /say "hi"\s/ } })).message).toBe(
      'Expected "search_issues" to be called with {"query":/say "hi"\\s/}, but no call matched.\n' +
        "Calls:\n" +
        '  #0 {"query":"__regexp__/x/","note":"__matcher__Any<String>"}\n' +
        '      at $.query: expected /say "hi"\\s/, got "__regexp__/x/"',
    );
  });
});

describe("assertNotCalled", () => {
  it("passes when the tool was not called", async () => {
    const server = await afterCalls([["search_issues", { query: "bug" }]]);
    expect(() => server.assertNotCalled("delete_repo")).not.toThrow();
    expect(() => server.assertNotCalled("never_defined")).not.toThrow();
  });

  it("fails listing the calls", async () => {
    const server = await afterCalls([["delete_repo", { repo: "acme/api" }], ["search_issues"], ["delete_repo", { repo: "acme/web" }]]);
    const error = failure(() => server.assertNotCalled("delete_repo"));
    expect(error.message).toBe('Expected "delete_repo" not to be called, but it was called 2 times.\nCalls:\n  #0 {"repo":"acme/api"}\n  #1 {"repo":"acme/web"}');
    expect([error.actual, error.expected]).toEqual([2, 0]);
  });

  it("counts unknown-tool and failed calls too: the agent did call it", async () => {
    const server = await mock({ tools: { t: { throws: "no" } } });
    const client = await connect(server);
    await client.callTool({ name: "t" }).catch(() => undefined);
    await client.callTool({ name: "ghost" }).catch(() => undefined);
    expect(failure(() => server.assertNotCalled("ghost")).message).toBe('Expected "ghost" not to be called, but it was called 1 time.\nCalls:\n  #0 {}');
    expect(failure(() => server.assertNotCalled("t")).message).toBe('Expected "t" not to be called, but it was called 1 time.\nCalls:\n  #0 {}');
  });
});

describe("assertCalledInOrder", () => {
  it("passes when the tools were called in this order, other calls in between", async () => {
    const server = await afterCalls([["search_issues"], ["delete_repo"], ["get_issue"], ["search_issues"], ["add_comment"]]);
    expect(() => server.assertCalledInOrder("search_issues", "get_issue", "add_comment")).not.toThrow();
    expect(() => server.assertCalledInOrder("get_issue", "search_issues")).not.toThrow();
    expect(() => server.assertCalledInOrder("search_issues", "search_issues")).not.toThrow();
    expect(() => server.assertCalledInOrder()).not.toThrow();
  });

  it("fails when a tool came too early, listing every call in order", async () => {
    const server = await afterCalls([
      ["get_issue", { id: 1 }],
      ["search_issues", { query: "bug" }],
    ]);
    expect(failure(() => server.assertCalledInOrder("search_issues", "get_issue")).message).toBe(
      'Expected tools to be called in order "search_issues" → "get_issue", but "get_issue" was not called after "search_issues" #0.\n' +
        "Calls, in order:\n" +
        '  get_issue #0 {"id":1}\n' +
        '  search_issues #0 {"query":"bug"}',
    );
  });

  it("fails when a tool was never called, and when one call is needed twice", async () => {
    const server = await afterCalls([["search_issues", { query: "bug" }]]);
    expect(failure(() => server.assertCalledInOrder("search_issues", "add_comment")).message).toBe(
      'Expected tools to be called in order "search_issues" → "add_comment", but "add_comment" was never called.\nCalls, in order:\n  search_issues #0 {"query":"bug"}',
    );
    expect(failure(() => server.assertCalledInOrder("search_issues", "search_issues")).message).toBe(
      'Expected tools to be called in order "search_issues" → "search_issues", but "search_issues" was not called after "search_issues" #0.\nCalls, in order:\n  search_issues #0 {"query":"bug"}',
    );
    const empty = await afterCalls([]);
    expect(failure(() => empty.assertCalledInOrder("a")).message).toBe('Expected tools to be called in order "a", but "a" was never called.\nNo tool was called.');
  });
});

describe("waitForCalls", () => {
  it("resolves at once when the calls are there already", async () => {
    const server = await afterCalls([["search_issues"], ["get_issue"]]);
    expect((await server.waitForCalls(2)).map((call) => call.tool)).toEqual(["search_issues", "get_issue"]);
    expect(await server.waitForCalls(0)).toHaveLength(2);
  });

  it("resolves once an agent in the background has made them", async () => {
    const server = await mock({ tools: { search_issues: { returns: "ok" }, other: {} } });
    const client = await connect(server);
    const waiting = server.waitForCalls(3, { tool: "search_issues", timeoutMs: 2_000 });
    void (async () => {
      for (const q of ["a", "b"]) await client.callTool({ name: "search_issues", arguments: { q } });
      await client.callTool({ name: "other" });
      await delay(10);
      await client.callTool({ name: "search_issues", arguments: { q: "c" } });
    })();
    const calls = await waiting;
    expect(calls.map((call) => call.arguments.q)).toEqual(["a", "b", "c"]);
    expect(calls.every((call) => call.tool === "search_issues")).toBe(true);
  });

  it("resolves when the call starts, before it ends (a hanging call counts)", async () => {
    const server = await mock({ tools: { t: { hang: true } } });
    const client = await connect(server);
    const waiting = server.waitForCalls(1, { timeoutMs: 1_000 });
    void client.callTool({ name: "t" }).catch(() => undefined);
    const [call] = await waiting;
    expect(call.outcome).toBe("pending");
  });

  it("with ended: true, resolves when the calls end, over a real HTTP connection", async () => {
    const server = await mockMcp({ tools: { slow: { delayMs: 150, returns: "done" }, hangs: { hang: true } } });
    const client = new Client({ name: "agent", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      void client.callTool({ name: "slow" });
      void client.callTool({ name: "slow" });
      const started = await server.waitForCalls(2, { timeoutMs: 2_000 });
      expect(started.map((call) => call.outcome)).toEqual(["pending", "pending"]);
      const ended = await server.waitForCalls(2, { ended: true, timeoutMs: 2_000 });
      expect(ended.map((call) => [call.outcome, call.response])).toEqual([
        ["result", { result: { content: [{ type: "text", text: "done" }] } }],
        ["result", { result: { content: [{ type: "text", text: "done" }] } }],
      ]);

      // A cancelled call has ended too; a hanging one has not, and the timeout says so.
      const abort = new AbortController();
      const cancelled = client.callTool({ name: "hangs" }, undefined, { signal: abort.signal }).catch(() => "aborted");
      void client.callTool({ name: "hangs" }).catch(() => undefined);
      await server.waitForCalls(2, { tool: "hangs", timeoutMs: 2_000 });
      abort.abort("the agent gave up");
      expect(await cancelled).toBe("aborted");
      const [call] = await server.waitForCalls(1, { tool: "hangs", ended: true, timeoutMs: 2_000 });
      expect(call!.outcome).toBe("cancelled");
      await expect(server.waitForCalls(2, { tool: "hangs", ended: true, timeoutMs: 50 })).rejects.toThrow(
        /^Timed out after 50 ms waiting for 2 calls to "hangs" to end; 1 ended\.\nCalls:\n(.|\n)*  hangs #0 \{\} → cancelled\n  hangs #1 \{\} → pending$/,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("times out with an AssertionError listing the calls there were", async () => {
    const server = await afterCalls([
      ["search_issues", { query: "bug" }],
      ["get_issue", { id: 3 }],
    ]);
    const started = Date.now();
    const error = await server.waitForCalls(2, { tool: "search_issues", timeoutMs: 30 }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toBe(
      'Timed out after 30 ms waiting for 2 calls to "search_issues"; got 1.\nCalls:\n  search_issues #0 {"query":"bug"} → result\n  get_issue #0 {"id":3} → result',
    );
    const none = await afterCalls([]);
    await expect(none.waitForCalls(1, { timeoutMs: 10 })).rejects.toThrow("Timed out after 10 ms waiting for 1 tool calls; got 0.\nNo tool was called.");
    // A tool the mock does not have and nobody called: likely a typo, and the timeout says so.
    await expect(server.waitForCalls(1, { tool: "search_isues", timeoutMs: 10 })).rejects.toThrow(
      'Timed out after 10 ms waiting for 1 calls to "search_isues"; got 0. The mock has no tool "search_isues" and none was called; did you mean "search_issues"?\nCalls:',
    );
  });
});

describe("matches()", () => {
  const table: [string, unknown, unknown, boolean][] = [
    ["equal primitives", 1, 1, true],
    ["different primitives", 1, 2, false],
    ["a number is not its string", 1, "1", false],
    ["null matches null", null, null, true],
    ["null is not an empty object", null, {}, false],
    ["extra keys are fine", { a: 1, b: 2 }, { a: 1 }, true],
    ["a missing key fails", { a: 1 }, { a: 1, b: 2 }, false],
    ["nested objects match partially", { a: { b: { c: 1, d: 2 } } }, { a: { b: { c: 1 } } }, true],
    ["an empty pattern matches any object", { a: 1 }, {}, true],
    ["an empty pattern does not match an array", [1], {}, false],
    ["arrays match item by item", [1, 2, 3], [1, 2, 3], true],
    ["array order matters", [1, 2], [2, 1], false],
    ["array length matters (shorter)", [1, 2, 3], [1, 2], false],
    ["array length matters (longer)", [1], [1, 2], false],
    ["array items match partially", [{ id: 1, x: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }], true],
    ["an array is not an object pattern", { 0: "a" }, ["a"], false],
    ["a RegExp tests a string", "Crash on start", /crash/i, true],
    ["a RegExp fails a non-matching string", "hang", /crash/, false],
    ["a RegExp does not test a number", 42, /42/, false],
    ["a global RegExp gives the same answer twice (1)", "aa", /a/g, true],
    ["a global RegExp gives the same answer twice (2)", "aa", /a/g, true],
    ["asymmetric: any(String)", "x", expect.any(String), true],
    ["asymmetric: any(String) on a number", 1, expect.any(String), false],
    ["asymmetric: anything", { deep: 1 }, { deep: expect.anything() }, true],
    ["asymmetric: anything is not undefined", {}, { deep: expect.anything() }, false],
    ["asymmetric: objectContaining", { a: { b: 1, c: 2 } }, { a: expect.objectContaining({ b: 1 }) }, true],
    ["asymmetric inside an array", ["x", 2], [expect.any(String), expect.any(Number)], true],
    ["NaN matches NaN", NaN, NaN, true],
  ];

  it.each(table)("%s", (_label, actual, expected, result) => {
    expect(matches(actual, expected)).toBe(result);
  });

  it("firstDifference names the path of the first mismatch", () => {
    expect(firstDifference({ a: [{ b: 1 }, { b: 2 }] }, { a: [{ b: 1 }, { b: 3 }] })).toEqual({ path: "$.a[1].b", expected: 3, actual: 2 });
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(firstDifference("x", { a: 1 })).toEqual({ path: "$", expected: { a: 1 }, actual: "x" });
  });
});

describe("failure messages over a long or capped record", () => {
  it("list the first 20 calls and count the rest, so a tool called often makes a readable failure", async () => {
    const server = await afterCalls(Array.from({ length: 25 }, (_, n) => ["search_issues", { page: n }] as [string, Record<string, unknown>]));
    const error = failure(() => server.assertCalled("search_issues", { times: 1 }));
    expect(error.message).toMatch(/called 25 times/);
    expect(error.message).toContain('#19 {"page":19}');
    expect(error.message).not.toContain("#20 {");
    expect(error.message).toContain("… and 5 more (in server.calls)");
    const order = failure(() => server.assertCalledInOrder("search_issues", "get_issue"));
    expect(order.message).toContain("… and 5 more");
  });

  it("list the first 20 calls to other tools and count the rest, when the tool itself was never called", async () => {
    const calls = Array.from({ length: 23 }, (_, n) => [n % 2 === 0 ? "search_issues" : "get_issue", { n }] as [string, Record<string, unknown>]);
    const server = await afterCalls(calls);
    // Each tool numbers its own calls: search_issues #0, get_issue #0, search_issues #1, ...
    const lines = calls.slice(0, 20).map(([tool, args], n) => `  ${tool} #${Math.floor(n / 2)} ${JSON.stringify(args)}`);
    const section = `Calls to other tools:\n${lines.join("\n")}\n  … and 3 more (in server.calls)`;
    expect(failure(() => server.assertCalled("add_comment")).message).toBe(`Expected "add_comment" to be called, but it was never called.\n${section}`);
    expect(failure(() => server.assertCalled("add_comment", { times: 1 })).message).toBe(`Expected "add_comment" to be called 1 time, but it was called 0 times.\n${section}`);
    // 20 is the cap, not a count to reach: exactly 20 other calls are all listed, with no "more".
    const twenty = await afterCalls(calls.slice(0, 20));
    expect(failure(() => twenty.assertCalled("add_comment")).message).toBe(`Expected "add_comment" to be called, but it was never called.\nCalls to other tools:\n${lines.join("\n")}`);
  });

  it("say when calls fell off the record (recordLimit), that they are not counted, and how to keep them", async () => {
    const server = await mock({ recordLimit: 3, tools: { search_issues: { returns: "ok" } } });
    const client = await connect(server);
    for (let n = 0; n < 5; n++) await client.callTool({ name: "search_issues", arguments: { page: n } });
    const error = failure(() => server.assertCalled("search_issues", { times: 5 }));
    expect(error.message).toMatch(/called 5 times, but it was called 3 times/);
    expect(error.message).toContain("the record keeps the newest 3 calls; 2 older calls fell off it and are not counted here");
    expect(error.message).toContain("mockMcp({ recordLimit: Infinity })");
    expect(failure(() => server.assertNotCalled("search_issues")).message).toContain("2 older calls fell off");
    const tiny = await mock({ recordLimit: 1, tools: { search_issues: { returns: "ok" } } });
    const tinyClient = await connect(tiny);
    for (let n = 0; n < 2; n++) await tinyClient.callTool({ name: "search_issues", arguments: {} });
    expect(failure(() => tiny.assertCalled("search_issues", { times: 2 })).message).toContain("the record keeps the newest 1 call; 1 older call fell off it and is not counted here");
    // A record that keeps nothing says so; the note also comes with the other assertions.
    const none = await mock({ recordLimit: 0, tools: { search_issues: { returns: "ok" }, get_issue: { returns: "ok" } } });
    await (await connect(none)).callTool({ name: "search_issues", arguments: {} });
    expect(failure(() => none.assertCalled("search_issues")).message).toContain("the record keeps no calls; 1 older call fell off it and is not counted here");
    expect(failure(() => none.assertCalledInOrder("search_issues", "get_issue")).message).toContain("the record keeps no calls; 1 older call fell off");
    // A record that dropped nothing says nothing about it.
    server.reset();
    await client.callTool({ name: "search_issues", arguments: {} });
    expect(failure(() => server.assertCalled("search_issues", { times: 2 })).message).not.toContain("fell off");
  });
});

describe("waitForCalls with arguments it cannot use", () => {
  it("rejects a mistyped option, a bad count or timeout, naming what it takes", async () => {
    const server = await afterCalls([["search_issues"]]);
    await expect(server.waitForCalls(1, { timeout: 100 } as never)).rejects.toThrow(
      'waitForCalls()\'s options has unknown key "timeout"; did you mean "timeoutMs"? It takes "tool", "timeoutMs", "ended".',
    );
    await expect(server.waitForCalls(1.5)).rejects.toThrow("waitForCalls(): the count must be a whole number >= 0, got number 1.5.");
    await expect(server.waitForCalls("2" as never)).rejects.toThrow('the count must be a whole number >= 0, got "2"');
    await expect(server.waitForCalls(1, { timeoutMs: Number.NaN })).rejects.toThrow('waitForCalls()\'s options: "timeoutMs" must be a number of ms from 0 to 2147483647, got number NaN.');
    await expect(server.waitForCalls(1, { timeoutMs: Infinity })).rejects.toThrow('"timeoutMs" must be a number of ms from 0 to 2147483647, got number Infinity.');
    await expect(server.waitForCalls(1, { timeoutMs: 2 ** 31 })).rejects.toThrow("got number 2147483648.");
    await expect(server.waitForCalls(1, { timeoutMs: -5 })).rejects.toThrow('"timeoutMs" must be a number of ms from 0 to 2147483647, got number -5.');
    await expect(server.waitForCalls(1, { tool: 7 } as never)).rejects.toThrow('"tool" must be a string, got number 7');
    await expect(server.waitForCalls(1, "fast" as never)).rejects.toThrow("options must be an object { tool, timeoutMs, ended }");
    // Good arguments still work after the bad ones.
    expect(await server.waitForCalls(1, { tool: "search_issues", timeoutMs: 100 })).toHaveLength(1);
  });
});
