/**
 * `driver.traffic.on("message")`: every message the driver sends and receives, as it goes, in
 * the shape of a mock's `message` event seen from the client: over HTTP with the POST's headers
 * (credentials redacted) and the status and headers of the response an answer came on.
 */
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { mcpConnect, mcpShell, type DriverMessageEvent } from "../../src/driver/index.js";
import { everythingCommand, useDrivers } from "./support.js";

const track = useDrivers();
const TOKEN = "s3cret-bearer-token-91ad";

/** Direction and method, or the id an answer answers. */
const line = (event: DriverMessageEvent) => {
  const message = event.message as { method?: string; id?: unknown };
  return `${event.direction} ${message.method ?? `answer to ${String(message.id)}`}`;
};

describe("the driver's message tap", () => {
  it("over HTTP: what went out with the POST's headers, redacted, and each answer with its response's status", async () => {
    await using mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
    const app = track(mcpConnect(mock.url, { headers: { Authorization: `Bearer ${TOKEN}`, "X-Test-Id": "tap > driver" }, versionNegotiation: "legacy" }));
    const events: DriverMessageEvent[] = [];
    app.traffic.on("message", (event) => events.push(event));
    expect((await app.callTool("echo")).getTextContent()).toBe("hi");

    const sent = events.find((event) => line(event) === "out tools/call")!;
    const callId = (sent.message as { id: number }).id;
    const answer = events.find((event) => line(event) === `in answer to ${callId}`)!;
    expect(events.map(line)).toEqual(expect.arrayContaining(["out initialize", "out notifications/initialized", "out tools/call", `in answer to ${callId}`]));
    expect(sent.http).toMatchObject({ method: "POST", path: "/mcp" });
    expect(sent.http!.headers).toMatchObject({ authorization: "[redacted]", "x-test-id": "tap > driver", "mcp-session-id": expect.any(String) });
    expect(answer.http).toMatchObject({ status: 200, headers: { "content-type": expect.stringContaining("application/json") } });
    expect(answer.message).toMatchObject({ result: { content: [{ type: "text", text: "hi" }] } });
    for (const event of [sent, answer]) {
      expect(event).toMatchObject({ wire: "http", testId: "tap > driver", protocolVersion: "2025-11-25", sessionId: expect.any(String) });
      expect(event.at).toBeGreaterThan(0);
    }
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("over stdio, with a real server: both ways, in order, with no HTTP facts", async () => {
    const app = track(mcpShell(everythingCommand, { versionNegotiation: "legacy", requestTimeout: 15_000 }));
    const events: DriverMessageEvent[] = [];
    const stop = app.traffic.on("message", (event) => events.push(event));
    const echoed = await app.callTool("echo", { message: "tapped" });
    expect(echoed.getTextContent()).toContain("tapped");
    stop();
    await app.ping();

    const call = events.findIndex((event) => line(event) === "out tools/call");
    const callId = (events[call]!.message as { id: number }).id;
    expect(events.map(line).slice(0, 3)).toEqual(["out initialize", "in answer to " + String((events[0]!.message as { id: number }).id), "out notifications/initialized"]);
    expect(events.findIndex((event) => line(event) === `in answer to ${callId}`)).toBeGreaterThan(call);
    expect(events.every((event) => event.wire === "stdio" && event.http === undefined)).toBe(true);
    expect(events.at(-1)!.protocolVersion).toBe(app.protocolVersion);
    // Listening stopped before the ping: it is not there.
    expect(events.some((event) => line(event) === "out ping")).toBe(false);
  });

  it("refuses an event other than message", () => {
    // Nothing is sent until the first request, so no server needs to listen there.
    const app = track(mcpConnect("http://127.0.0.1:9/mcp"));
    expect(() => app.traffic.on("messages" as "message", () => undefined)).toThrow(/the one event is "message"/);
  });
});
