/**
 * `toHaveBeenCalledTool` on a mock from `mockMcp()`: the mock's own `assertCalled` rules and
 * messages, as a matcher with `.not` and diffs.
 */
import { describe, expect, it } from "vitest";
import "../../src/matchers/vitest.js";
import { failure, mock, sdkDriver, useCleanup } from "./support.js";

useCleanup();

async function calledServer() {
  const server = await mock({ tools: { search: { returns: "found" }, fetch: { returns: "ok" }, unused: { returns: "x" } } });
  const driver = await sdkDriver(server);
  await driver.callTool("search", { query: "bug", limit: 10 });
  await driver.callTool("search", { query: "crash" });
  await driver.callTool("fetch", { id: 7 });
  return server;
}

describe("toHaveBeenCalledTool", () => {
  it("passes for a called tool, with times and partial arguments", async () => {
    const server = await calledServer();
    expect(server).toHaveBeenCalledTool("search");
    expect(server).toHaveBeenCalledTool("search", { times: 2 });
    expect(server).toHaveBeenCalledTool("search", { with: { query: "bug" } });
    expect(server).toHaveBeenCalledTool("search", { times: 1, with: { query: /cr/ } });
    expect(server).toHaveBeenCalledTool("unused", { times: 0 });
  });

  it("fails with the mock's message listing the calls", async () => {
    const server = await calledServer();
    const never = await failure(() => expect(server).toHaveBeenCalledTool("unused"));
    expect(never.message).toBe(
      'Expected "unused" to be called, but it was never called.\nCalls to other tools:\n  search #0 {"query":"bug","limit":10}\n  search #1 {"query":"crash"}\n  fetch #0 {"id":7}',
    );
    expect(never.hasDiff).toBe(false);
  });

  it("gives a diff of the counts for times", async () => {
    const server = await calledServer();
    const failed = await failure(() => expect(server).toHaveBeenCalledTool("search", { times: 3 }));
    expect(failed.message).toBe('Expected "search" to be called 3 times, but it was called 2 times.\nCalls:\n  #0 {"query":"bug","limit":10}\n  #1 {"query":"crash"}');
    expect(failed.actual).toBe(2);
    expect(failed.expected).toBe(3);
  });

  it("gives a diff of the arguments for a tool called once", async () => {
    const server = await calledServer();
    const failed = await failure(() => expect(server).toHaveBeenCalledTool("fetch", { with: { id: 8 } }));
    expect(failed.message).toBe('Expected "fetch" to be called with {"id":8}, but no call matched.\nCalls:\n  #0 {"id":7}\n      at $.id: expected 8, got 7');
    expect(failed.actual).toEqual({ id: 7 });
    expect(failed.expected).toEqual({ id: 8 });
  });

  it("works with .not", async () => {
    const server = await calledServer();
    expect(server).not.toHaveBeenCalledTool("unused");
    expect(server).not.toHaveBeenCalledTool("search", { times: 1 });
    expect(server).not.toHaveBeenCalledTool("search", { with: { query: "typo" } });
    const failed = await failure(() => expect(server).not.toHaveBeenCalledTool("search"));
    expect(failed.message).toBe('Expected "search" not to be called, but it was called 2 times.\nCalls:\n  #0 {"query":"bug","limit":10}\n  #1 {"query":"crash"}');
    const withArgs = await failure(() => expect(server).not.toHaveBeenCalledTool("search", { times: 1, with: { query: "crash" } }));
    expect(withArgs.message).toBe('Expected "search" not to be called 1 time with {"query":"crash"}, but it was called 1 time with matching arguments.\nCalls:\n  #1 {"query":"crash"}');
  });

  it("lists at most 20 calls under .not, as the mock's own messages do", async () => {
    const server = await mock({ tools: { search: { returns: "found" } } });
    const driver = await sdkDriver(server);
    for (let n = 0; n < 23; n++) await driver.callTool("search", { n });
    const failed = await failure(() => expect(server).not.toHaveBeenCalledTool("search"));
    expect(failed.message).toContain('  #19 {"n":19}');
    expect(failed.message).not.toContain("#20 {");
    expect(failed.message).toContain("… and 3 more (in server.calls)");
  });

  it("sees calls made after the assertion's mock was created (it reads the record each time)", async () => {
    const server = await mock({ tools: { later: { returns: "x" } } });
    expect(server).not.toHaveBeenCalledTool("later");
    await (await sdkDriver(server)).callTool("later");
    expect(server).toHaveBeenCalledTool("later", { times: 1 });
  });

  it("throws for bad options", async () => {
    const server = await calledServer();
    expect(() => expect(server).toHaveBeenCalledTool("search", { times: -1 })).toThrow("[mcp-testkit] toHaveBeenCalledTool(): times must be a whole number of calls (0 or more); got -1.");
    // @ts-expect-error "args" is not an option
    expect(() => expect(server).toHaveBeenCalledTool("search", { args: {} })).toThrow('toHaveBeenCalledTool() takes options { times?, with? }; unknown option "args".');
    // @ts-expect-error "tims" is not an option
    expect(() => expect(server).toHaveBeenCalledTool("search", { tims: 2 })).toThrow('toHaveBeenCalledTool() takes options { times?, with? }; unknown option "tims"; did you mean "times"?');
    // @ts-expect-error with is an object
    expect(() => expect(server).toHaveBeenCalledTool("search", { with: "bug" })).toThrow("with must be an object of expected arguments");
  });

  it("lets an unexpected error from assertCalled through", () => {
    const broken = {
      calls: [],
      assertCalled: () => {
        throw new RangeError("record is gone");
      },
    };
    expect(() => expect(broken).toHaveBeenCalledTool("search")).toThrow(RangeError);
  });
});
