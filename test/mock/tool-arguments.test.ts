/**
 * `tools/call` with `arguments` that are not an object. Step functions and matchers always see
 * an object (`{}` for these), so the README's `call.arguments.city` works on any input; the
 * value as sent stays on the call record as `rawArguments`, so a test can catch the client
 * that sent it.
 */
import { describe, expect, it } from "vitest";
import { mock, request, useCleanup } from "./support.js";

useCleanup();

const weather = (call: { arguments: Record<string, unknown> }) => (call.arguments.city === "Paris" ? { returns: { tempC: 21 } } : { toolError: `Unknown city: ${String(call.arguments.city)}` });

describe.each([
  ["null", null],
  ["a string", "Paris"],
  ["an array", ["Paris"]],
  ["a number", 5],
  ["false", false],
])("arguments that are %s", (_label, sent) => {
  it("reach the step function as {} (the call answers as for no arguments), and the record keeps what was sent", async () => {
    const server = await mock({ tools: { get_weather: weather } });
    const reply = await request(server, "tools/call", { name: "get_weather", arguments: sent });
    expect(reply.result).toEqual({ content: [{ type: "text", text: "Unknown city: undefined" }], isError: true });
    const [call] = server.callsTo("get_weather");
    expect(call).toMatchObject({ arguments: {}, rawArguments: sent, outcome: "tool-error" });
    server.assertCalled("get_weather", { times: 1, with: {} });
  });

  it("a step function can tell, from rawArguments on its call", async () => {
    const server = await mock({ tools: { strict: (call) => ("rawArguments" in call ? { toolError: `arguments must be an object, got ${JSON.stringify(call.rawArguments)}` } : { returns: "ok" }) } });
    const reply = await request(server, "tools/call", { name: "strict", arguments: sent });
    expect(reply.result.content[0].text).toBe(`arguments must be an object, got ${JSON.stringify(sent)}`);
  });
});

it("object arguments (or none) leave no rawArguments on the record", async () => {
  const server = await mock({ tools: { get_weather: weather } });
  await request(server, "tools/call", { name: "get_weather", arguments: { city: "Paris" } });
  await request(server, "tools/call", { name: "get_weather" });
  const [paris, none] = server.callsTo("get_weather");
  expect(paris!.arguments).toEqual({ city: "Paris" });
  expect(none!.arguments).toEqual({});
  expect("rawArguments" in paris! || "rawArguments" in none!).toBe(false);
});
