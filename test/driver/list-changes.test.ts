/**
 * The driver follows list changes in 2026-07-28 (`followListChanges`, on by default): with the
 * first list it opens one `subscriptions/listen` for the lists the server says change, so a
 * `list_changed` makes the cached list stale and reaches `notifications`, as a legacy session's
 * does; `close()` cancels the subscription (the mock sees it cancelled, not dropped). Against our
 * mock in memory, over Streamable HTTP and over stdio, an SDK v2 server over HTTP, and servers
 * that refuse or ignore the subscription; and a close() that still ends everything when the
 * subscription itself will not close.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { useSdkV2Http } from "../support/sdk-v2-http.js";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { mcpAttach, mcpConnect, mcpShell, RequestTimeoutError, type McpDriver } from "../../src/driver/index.js";
import { expectNoProcessLeft, useDrivers } from "./support.js";
import { until } from "../observe/support.js";

const track = useDrivers();
const LISTED_CHANGE = "notifications/tools/list_changed";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const fixture = (name: string) => `"${process.execPath}" "${fileURLToPath(new URL(`./servers/${name}`, import.meta.url))}"`;
/** tools/list kept for a minute, so only a list change can make it stale. */
const cached = { cache: { methods: { "tools/list": { ttlMs: 60_000, cacheScope: "public" as const } } } };

const sentMethods = (app: McpDriver) => app.messages.filter((record) => record.direction === "outgoing" && "method" in record.content).map((record) => (record.content as { method: string }).method);
const toolNames = async (app: McpDriver) => (await app.getTools()).map((tool) => tool.name).sort();

/** The mock's listen streams that ended, with why. */
function listenEnds(mock: MockMcpServer): string[] {
  const ends: string[] = [];
  mock.on("stream:close", (event) => {
    if (event.kind === "listen") ends.push(event.reason);
  });
  return ends;
}

describe("against our mock in memory", () => {
  it("the first list opens one subscription for the lists that change; a list_changed makes the cached list stale", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } }, prompts: { greet: { messages: [{ role: "user", content: "Hi" }] } } });
    await using app = mcpAttach(mock.connectInMemory());
    expect(app.listChangeSubscription).toBeUndefined();
    expect(await toolNames(app)).toEqual(["one"]);
    // The listen went out before the list, and was acknowledged before the list came back.
    expect(sentMethods(app)).toEqual(["server/discover", "subscriptions/listen", "tools/list"]);
    const subscription = app.listChangeSubscription!;
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
    expect(await toolNames(app)).toEqual(["one"]);
    expect(sentMethods(app).filter((method) => method === "tools/list")).toHaveLength(1);

    await mock.setTool("two", { returns: 2 });
    const notification = await app.waitForNotification(LISTED_CHANGE);
    expect(notification.params?._meta).toEqual({ [SUBSCRIPTION_ID]: subscription.id });
    expect(await toolNames(app)).toEqual(["one", "two"]);
    expect(sentMethods(app).filter((method) => method === "tools/list")).toHaveLength(2);
    // One subscription for every list: prompts reuse it.
    await app.getPrompts();
    expect(sentMethods(app).filter((method) => method === "subscriptions/listen")).toHaveLength(1);
    expect(app.problems).toEqual([]);
  });

  it("close() cancels the subscription: the mock sees it cancelled, and nothing is left open", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } } });
    const ends = listenEnds(mock);
    const app = track(mcpAttach(mock.connectInMemory()));
    await app.getTools();
    const subscription = app.listChangeSubscription!;
    await app.close();
    expect(await subscription.ended).toEqual({ by: "client" });
    expect(ends).toEqual(["request_cancelled"]);
    expect(mock.endSubscriptions()).toBe(0);
  });

  it("a subscription the server ends is opened again with the next list fetched", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } } });
    await using app = mcpAttach(mock.connectInMemory());
    await app.getTools();
    const first = app.listChangeSubscription!;
    expect(mock.endSubscriptions()).toBe(1);
    expect(await first.ended).toMatchObject({ by: "server" });
    expect(app.listChangeSubscription).toBeUndefined();
    // A change made while nothing followed the lists: the cached list is stale, so the next
    // fetch (no refresh asked) sees it and opens a new subscription.
    await mock.setTool("two", { returns: 2 });
    expect(await toolNames(app)).toEqual(["one", "two"]);
    expect(app.listChangeSubscription).toBeDefined();
    expect(app.listChangeSubscription).not.toBe(first);
    await mock.setTool("three", { returns: 3 });
    await app.waitForNotification(LISTED_CHANGE);
    expect((await toolNames(app)).sort()).toEqual(["one", "three", "two"]);
  });

  it("followListChanges: false opens none (the cached list stays until its ttlMs); nor does the legacy era, which has its session", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } } });
    await using off = mcpAttach(mock.connectInMemory(), { followListChanges: false });
    expect(await toolNames(off)).toEqual(["one"]);
    await mock.setTool("two", { returns: 2 });
    expect(await toolNames(off)).toEqual(["one"]);
    expect(sentMethods(off)).toEqual(["server/discover", "tools/list"]);
    expect(off.listChangeSubscription).toBeUndefined();

    await using legacy = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    expect(await toolNames(legacy)).toEqual(["one", "two"]);
    await mock.setTool("three", { returns: 3 });
    await legacy.waitForNotification(LISTED_CHANGE);
    expect(await toolNames(legacy)).toEqual(["one", "three", "two"]);
    expect(sentMethods(legacy)).not.toContain("subscriptions/listen");
  });

  it("a server whose capabilities promise no list changes gets no subscription; a bad option is refused", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } }, capabilities: { tools: {} } });
    await using app = mcpAttach(mock.connectInMemory());
    expect((await app.initialize()).capabilities).toEqual({ tools: {} });
    await app.getTools();
    expect(sentMethods(app)).toEqual(["server/discover", "tools/list"]);
    expect(() => mcpAttach(mock.connectInMemory(), { followListChanges: "yes" as never })).toThrow(/followListChanges must be true or false, got string/);
  });
});

describe("against our mock over Streamable HTTP and stdio", () => {
  it("HTTP: the subscription is a stream of its own; a change is followed; close() closes it (cancelled)", async () => {
    await using mock = await mockMcp({ ...cached, tools: { one: { returns: 1 } } });
    const ends = listenEnds(mock);
    const app = track(mcpConnect(mock.url));
    expect(await toolNames(app)).toEqual(["one"]);
    await mock.setTool("two", { returns: 2 });
    await app.waitForNotification(LISTED_CHANGE);
    expect(await toolNames(app)).toEqual(["one", "two"]);
    await app.close();
    // The server learns of a closed stream when its socket says so.
    await until(() => ends.length > 0, "the mock to see the listen stream end");
    expect(ends).toEqual(["request_cancelled"]);
    expect(mock.endSubscriptions()).toBe(0);
  });

  it("stdio: a tool that adds a tool; the list follows; close() cancels the subscription and the mock exits cleanly", async () => {
    const app = track(mcpShell(fixture("list-changing-mock.mjs")));
    expect(await toolNames(app)).toEqual(["grow"]);
    expect((await app.callTool("grow")).getTextContent()).toBe("grew");
    await app.waitForNotification(LISTED_CHANGE);
    expect(await toolNames(app)).toEqual(["grow", "grown"]);
    const subscription = app.listChangeSubscription!;
    await app.close();
    expect(await subscription.ended).toEqual({ by: "client" });
    // The driver told the server it cancelled the listen before closing stdin.
    const cancelled = app.messages.find((record) => record.direction === "outgoing" && (record.content as { method?: string }).method === "notifications/cancelled");
    expect((cancelled?.content as { params?: { requestId?: unknown } } | undefined)?.params?.requestId).toBe(subscription.id);
    expect(app.exitCode).toBe(0);
  });
});

describe("against servers that do not follow through", () => {
  it("-32601 for subscriptions/listen: the list still comes, the failure is kept, and it is not asked again", async () => {
    const app = track(mcpShell(`${fixture("modern-listen-refused.mjs")} refuse`));
    expect(await toolNames(app)).toEqual(["requests"]);
    expect(app.listChangeFailure?.message).toMatch(/-32601/);
    await app.getTools({ refresh: true });
    expect(sentMethods(app).filter((method) => method === "subscriptions/listen")).toHaveLength(1);
    await app.close();
  });

  it("no acknowledgement: the first list waits at most requestTimeout, then the listen is cancelled", async () => {
    // The same deadline also bounds the handshake's server/discover probe, so it leaves room for a
    // loaded machine: at a few hundred ms the probe can miss it and the driver falls back to legacy.
    const app = track(mcpShell(`${fixture("modern-listen-refused.mjs")} silent`, { requestTimeout: 2_000 }));
    expect(await toolNames(app)).toEqual(["requests"]);
    expect(app.listChangeFailure).toBeInstanceOf(RequestTimeoutError);
    expect(app.listChangeFailure?.message).toMatch(/was not acknowledged within 2000 ms/);
    // The server heard the cancel of the listen it never answered.
    expect((await app.callTool("requests")).getTextContent()).toMatch(/subscriptions\/listen,tools\/list,notifications\/cancelled/);
    await app.close();
  });
});

/** The timers holding this process open (an unref'd one does not count). */
const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

/** What `promise` did within `ms`: "settled", or "pending" (the test's own timer is cleared either way). */
async function within(promise: Promise<unknown>, ms: number): Promise<"settled" | "pending"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise.then(() => "settled" as const), new Promise<"pending">((resolve) => (timer = setTimeout(() => resolve("pending"), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe("close() when the subscription will not close", () => {
  // A real subscription's close settles at once: the session rejects its aborted request on the
  // spot. So, to reach the driver's guard, the live subscription's close is replaced (the server,
  // the process and the listen request on the wire stay real).
  // The rejecting close is given a long timeout: a timer of its left running would outlast the check.
  it.each([
    { how: "rejects", timeoutMs: 10_000, close: () => Promise.reject(new Error("the subscription could not close")) },
    { how: "never settles", timeoutMs: 400, close: () => new Promise<never>(() => undefined) },
  ])("a subscription close that $how: close($timeoutMs) still resolves, the server exits 0, and no process or timer is left", async ({ how, timeoutMs, close }) => {
    const timersBefore = activeTimers();
    const app = track(mcpShell(fixture("list-changing-mock.mjs")));
    expect(await toolNames(app)).toEqual(["grow"]);
    const subscription = app.listChangeSubscription!;
    expect(await subscription.acknowledged).toMatchObject({ toolsListChanged: true });
    const subscriptionClose = vi.spyOn(subscription, "close").mockImplementation(close);

    const started = performance.now();
    expect(await within(app.close(timeoutMs), 5000)).toBe("settled");
    const elapsed = performance.now() - started;
    expect(subscriptionClose).toHaveBeenCalledTimes(1);
    // A close that never settles is waited for up to the timeout, and no longer; a rejection ends the wait at once.
    if (how === "never settles") expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 10);
    // That a rejection ends the wait at once shows in within(…, 5000) above: its close timeout is 10 s.
    expect(app.exitCode).toBe(0);
    expect(app.closeError).toBeUndefined();
    // The listen request itself still ended, with the connection.
    expect(await within(subscription.ended, 1000)).toBe("settled");
    await expectNoProcessLeft(app.pid);
    await until(() => activeTimers() <= timersBefore, `the active timers to be back to the ${timersBefore} before the driver`);
  });
});

describe("against a server built with the official SDK v2 (over HTTP)", () => {
  const startSdkV2 = useSdkV2Http();

  it("its notify.toolsChanged() reaches the driver through the subscription; close() ends it", async () => {
    const { url, handler } = await startSdkV2();
    const server = { url };
    const app = track(mcpConnect(server.url));
    expect(await toolNames(app)).toEqual(["add", "confirm"]);
    const subscription = app.listChangeSubscription!;
    expect(await subscription.acknowledged).toMatchObject({ toolsListChanged: true });
    handler.notify.toolsChanged();
    const notification = await app.waitForNotification(LISTED_CHANGE);
    expect(notification.params?._meta).toMatchObject({ [SUBSCRIPTION_ID]: subscription.id });
    expect(app.problems).toEqual([]);
    await app.close();
    expect(await subscription.ended).toEqual({ by: "client" });
  });
});
