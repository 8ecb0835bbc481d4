/**
 * A step is described once (src/formats/step.ts): a bad step gets the same words whether it is
 * a tool's step in mockMcp() or a fixture call's step, and a step that one accepts the other
 * accepts too (less `repeat` and `inputRequired`, which a fixture refuses with its reason).
 */
import { describe, expect, it } from "vitest";
import { FixtureLoadError, mockMcp } from "../../src/index.js";

async function problemOf(options: Record<string, unknown>): Promise<string | undefined> {
  try {
    const server = await mockMcp({ transport: "memory", ...options } as never);
    await server.close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const asTool = (step: unknown) => problemOf({ tools: { t: step } });
const asFixture = (step: unknown) => problemOf({ fixtures: { scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step }] }] } });

describe("one description of a step, read by the mock and by the fixture loader", () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["a flag that is not a boolean", { disconnect: 1 }, ': "disconnect" must be true or false, got number 1.'],
    ["two answers", { toolError: "a", raw: "b" }, ' gives "toolError" and "raw"; a step gives one answer.'],
    ["a delay a timer cannot hold", { delayMs: 2 ** 31 }, ': "delayMs" must be a number of ms from 0 to 2147483647, got number 2147483648.'],
    [
      "stream hints of the wrong shape",
      { returns: 1, stream: { mode: "sse", retryMs: -1 } },
      ': "stream" must be { mode?: "json" | "sse", closeAfterEvents?: whole number, retryMs?: whole number of ms }, got an object.',
    ],
    [
      "an ask of an unknown method",
      { asks: [{ method: "roots/lst" }] },
      ': asks[0]: "method" must be one of "ping", "sampling/createMessage", "elicitation/create", "roots/list" (the requests a server makes of its client), got "roots/lst"; did you mean "roots/list"?',
    ],
    [
      "a broadcast item with a stray key",
      { broadcast: [{ method: "notifications/tools/list_changed", parms: {} }] },
      ': broadcast[0] has unknown key "parms"; did you mean "params"? A broadcast notification takes "method" and "params".',
    ],
    ["a throws without a message", { throws: { code: 1 } }, ': "throws" must be a message string or { code?: integer, message: string, data? }, got an object.'],
  ];
  for (const [what, step, words] of bad) {
    it(`${what}: the same words in both`, async () => {
      expect(await asTool(step)).toBe(`[mcp-testkit] Tool "t"'s step${words}`);
      expect(await asFixture(step)).toContain(`tools[0].calls[0].step: the step${words}`);
    });
  }

  it("a step both accept loads in both", async () => {
    const step = {
      content: [{ type: "text", text: "a" }],
      structuredContent: { a: 1 },
      delayMs: 1,
      stream: { mode: "sse" },
      broadcast: [{ method: "notifications/resources/updated", params: { uri: "notes://a" } }],
    };
    expect(await asTool(step)).toBeUndefined();
    expect(await asFixture(step)).toBeUndefined();
  });

  it("a fixture refuses repeat and inputRequired, saying why, where a tool's script takes them", async () => {
    expect(await asTool({ returns: "a", repeat: 2 })).toBeUndefined();
    expect(await asFixture({ returns: "a", repeat: 2 })).toContain('"repeat" has no meaning in a fake: an entry answers one call');
    expect(await asTool({ inputRequired: { requestState: "s" } })).toBeUndefined();
    const refused = await asFixture({ inputRequired: { requestState: "s" } });
    expect(refused).toContain('"inputRequired" is not available in a fake');
    await expect(mockMcp({ transport: "memory", fixtures: { scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step: { repeat: 2 } }] }] } as never })).rejects.toBeInstanceOf(
      FixtureLoadError,
    );
  });
});
