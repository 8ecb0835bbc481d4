/**
 * The mock's log (`mockMcp({ logger })`): one place for every line the mock writes for people,
 * so a test can capture them (or silence them) and a tool can route them. Default: stderr.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpTestkitError, mockMcp, type McpFakeBlock, type McpObserver } from "../../src/index.js";
import { FAKE_LOG_ENV } from "../../src/mock/fakes-binding.js";
import { connect, mock, useCleanup } from "../mock/support.js";
import { serve, until, useCleanup as useHttpCleanup } from "../wire/support/http.js";

useCleanup();
useHttpCleanup();
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** One fake: weather in Oslo; any other city is a mismatch, with an MCP-FAKE line when asked for. */
const fixtures: McpFakeBlock = { scope: "shared", tools: [{ name: "weather", calls: [{ args: { city: "Oslo" }, result: "snow" }] }] };
/** What the mismatch says, to the client and on its MCP-FAKE line. */
const MISMATCH =
  'mcp-testkit MCP fake mismatch: tool "weather" was called with arguments that match no declared fake (no test id or context). Received {"city":"Bergen"}. Declared: code#1:weather#0 {"city":"Oslo"}.';

/** A logger that throws `thrown` on every line. */
const throwing = (thrown: unknown) => () => {
  throw thrown;
};

/** A logger that keeps what it is given, as a test would. */
function capture(): { logger: (level: "error" | "warn" | "info", line: string) => void; lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  return { lines, logger: (level, line) => void lines.push([level, line]) };
}

describe("the mock's log", () => {
  it('takes the "warn" unknown-tool line instead of stderr', async () => {
    const stderr = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { logger, lines } = capture();
    const server = await mock({ tools: { search: { returns: "ok" } }, onUnknownTool: "warn", logger });
    const client = await connect(server);
    await expect(client.callTool({ name: "serch" })).rejects.toThrow("Unknown tool: serch");
    expect(lines).toEqual([["warn", 'mcp-testkit: tools/call for unknown tool "serch" (tools: search); answered -32602. Add the tool, or set onUnknownTool.']]);
    expect(stderr).not.toHaveBeenCalled();
  });

  it("takes the report of a listener that threw, once", async () => {
    const { logger, lines } = capture();
    const server = await mock({ tools: { echo: { returns: "hi" } }, logger });
    server.on("call:end", () => {
      throw new Error("listener bug");
    });
    const client = await connect(server);
    for (let i = 0; i < 2; i++) expect((await client.callTool({ name: "echo" })).content).toEqual([{ type: "text", text: "hi" }]);
    expect(lines).toEqual([["warn", 'mcp-testkit: a "call:end" listener threw (listener bug); the client was not affected. Later throws from this listener are not reported.']]);
  });

  it("writes nothing for a fake's failure unless asked: the client's error says what failed, and the journal keeps it", async () => {
    const written = [vi.spyOn(console, "error").mockImplementation(() => undefined), vi.spyOn(console, "warn").mockImplementation(() => undefined), vi.spyOn(process.stderr, "write")];
    const mine = capture();
    const server = await mock({ fixtures, logger: mine.logger });
    const client = await connect(server);
    const failure = await client.callTool({ name: "weather", arguments: { city: "Bergen" } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    // What the MCP-FAKE line said, the client is told: the rule broken, what came, what was declared.
    expect((failure as Error).message).toBe(`MCP error -32602: ${MISMATCH}`);
    expect(server.fakes.journal.entries().at(-1)?.response).toMatchObject({ error: { message: MISMATCH }, mcpFake: { outcome: "mismatch" } });
    expect(mine.lines).toEqual([]);
    for (const spy of written) expect(spy).not.toHaveBeenCalled();
  });

  it("fakesOptions.log: true writes each fake failure to the mock's log, as the client's error says it", async () => {
    const mine = capture();
    const server = await mock({ fixtures, logger: mine.logger, fakesOptions: { log: true } });
    const client = await connect(server);
    await expect(client.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow(MISMATCH);
    expect(mine.lines).toEqual([["error", `MCP-FAKE: ${MISMATCH}`]]);
  });

  it(`${FAKE_LOG_ENV}=1 turns the lines on when fakesOptions.log is not given; log: false keeps them off`, async () => {
    vi.stubEnv(FAKE_LOG_ENV, "1");
    const on = capture();
    const client = await connect(await mock({ fixtures, logger: on.logger }));
    await expect(client.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow(MISMATCH);
    expect(on.lines).toEqual([["error", `MCP-FAKE: ${MISMATCH}`]]);

    const off = capture();
    const quiet = await connect(await mock({ fixtures, logger: off.logger, fakesOptions: { log: false } }));
    await expect(quiet.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow(MISMATCH);
    expect(off.lines).toEqual([]);
  });

  it("fakesOptions.logger takes every MCP-FAKE line, and the mock's log none of them", async () => {
    const mock2 = capture();
    const fakes = capture();
    const other = await mock({ fixtures, logger: mock2.logger, fakesOptions: { logger: fakes.logger } });
    const client2 = await connect(other);
    await expect(client2.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow();
    expect(fakes.lines).toEqual([["error", `MCP-FAKE: ${MISMATCH}`]]);
    expect(mock2.lines).toEqual([]);
  });

  it("still warns of a shadowed entry at load, unasked: a fixture that can never answer is a mistake to fix", async () => {
    const { logger, lines } = capture();
    const shadowed: McpFakeBlock = {
      scope: "shared",
      tools: [
        {
          name: "weather",
          calls: [
            { anyArgs: true, result: "any" },
            { args: { city: "Oslo" }, result: "snow" },
          ],
        },
      ],
    };
    await mock({ fixtures: shadowed, logger });
    expect(lines).toEqual([["warn", expect.stringMatching(/^MCP-FAKE: warning: code#1:weather#1 is shadowed/)]]);
  });

  it("takes observer diagnostics, unless observe.onDiagnostic is given", async () => {
    const thrower: McpObserver = {
      name: "audit",
      requestDidFinish: () => {
        throw new Error("observer bug");
      },
    };
    const { logger, lines } = capture();
    const server = await mock({ tools: { echo: { returns: "hi" } }, observers: [thrower], logger });
    const client = await connect(server);
    await client.callTool({ name: "echo" });
    await until(() => lines.length > 0, 2000, "the diagnostic");
    expect(lines[0]![0]).toBe("warn");
    expect(lines[0]![1]).toMatch(/^mcp-testkit: .*audit/);

    const own: unknown[] = [];
    const quiet = capture();
    const other = await mock({ tools: { echo: { returns: "hi" } }, observers: [thrower], observe: { onDiagnostic: (diagnostic) => own.push(diagnostic) }, logger: quiet.logger });
    await (await connect(other)).callTool({ name: "echo" });
    await until(() => own.length > 0, 2000, "the diagnostic");
    expect(quiet.lines).toEqual([]);
  });

  it("takes the line of a mounted handler whose body failed after its head went out (the client sees a cut)", async () => {
    const { logger, lines } = capture();
    const server = await serve({ logger });
    let pulls = 0;
    // The first chunk at once (so the head goes out with it), the failure a little later.
    const fail = () => new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error("upstream reset")), 30));
    server.mount("/feed", () => new Response(new ReadableStream({ pull: (controller) => (pulls++ === 0 ? controller.enqueue(new TextEncoder().encode("first,")) : fail()) })));
    const response = await fetch(`${new URL(server.url).origin}/feed`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/terminated/);
    await until(() => lines.length > 0, 2000, "the log line");
    expect(lines).toEqual([["warn", "mcp-testkit: the response body of the handler mounted at /feed failed after its head was sent (upstream reset); the connection was cut."]]);
  });

  it("a logger that throws changes nothing a client gets, and its line goes to stderr with a note, once", async () => {
    const stderr = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const server = await mock({
      tools: { search: { returns: "ok" } },
      onUnknownTool: "warn",
      logger: throwing(new Error("logger bug")),
    });
    const client = await connect(server);
    for (let i = 0; i < 2; i++) await expect(client.callTool({ name: "serch" })).rejects.toThrow("Unknown tool: serch");
    expect((await client.callTool({ name: "search" })).content).toEqual([{ type: "text", text: "ok" }]);
    const written = stderr.mock.calls.map(([line]) => String(line));
    expect(written).toHaveLength(2);
    expect(written[0]).toBe(
      'mcp-testkit: tools/call for unknown tool "serch" (tools: search); answered -32602. Add the tool, or set onUnknownTool. (the mock\'s logger threw: logger bug; its lines go to stderr when it throws)',
    );
    expect(written[1]).toBe('mcp-testkit: tools/call for unknown tool "serch" (tools: search); answered -32602. Add the tool, or set onUnknownTool.');
  });

  it("a logger that throws something with no toString is contained too", async () => {
    const stderr = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const server = await mock({
      tools: { search: { returns: "ok" } },
      onUnknownTool: "warn",
      logger: throwing(Object.create(null)),
    });
    const client = await connect(server);
    await expect(client.callTool({ name: "serch" })).rejects.toThrow("Unknown tool: serch");
    expect(String(stderr.mock.calls[0]![0])).toMatch(/answered -32602\. Add the tool, or set onUnknownTool\. \(the mock's logger threw: \[object Object\]; its lines go to stderr when it throws\)$/);
  });

  it("fakesOptions.logger that throws is contained the same way: its MCP-FAKE line goes to stderr", async () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const server = await mock({
      fixtures,
      fakesOptions: {
        logger: throwing(new Error("fakes logger bug")),
      },
    });
    const client = await connect(server);
    await expect(client.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow();
    expect((await client.callTool({ name: "weather", arguments: { city: "Oslo" } })).content).toEqual([{ type: "text", text: "snow" }]);
    const written = stderr.mock.calls.map(([line]) => String(line));
    expect(written.some((line) => line.startsWith("MCP-FAKE:") && line.includes("weather") && line.includes("the mock's logger threw: fakes logger bug"))).toBe(true);
  });

  it("options given as undefined fall back to the mock's log", async () => {
    const thrower: McpObserver = {
      requestDidFinish: () => {
        throw new Error("observer bug");
      },
    };
    const { logger, lines } = capture();
    const server = await mock({ fixtures, observers: [thrower], observe: { onDiagnostic: undefined }, fakesOptions: { logger: undefined, log: true }, logger });
    const client = await connect(server);
    await expect(client.callTool({ name: "weather", arguments: { city: "Bergen" } })).rejects.toThrow();
    await until(() => lines.some(([, line]) => line.startsWith("mcp-testkit:")), 2000, "the diagnostic");
    expect(lines.some(([, line]) => line.startsWith("MCP-FAKE:"))).toBe(true);
  });

  it("must be a function: anything else is refused, saying what it got", async () => {
    const refused = mockMcp({ transport: "memory", logger: "stderr" as never });
    await expect(refused).rejects.toThrow(McpTestkitError);
    await expect(refused).rejects.toThrow('"logger" must be a function (level, line) => void, got "stderr".');
    await expect(mockMcp({ transport: "memory", fakesOptions: { logger: "stderr" as never } })).rejects.toThrow('"fakesOptions.logger" must be a function (level, line) => void, got "stderr".');
    await expect(mockMcp({ transport: "memory", fakesOptions: { log: "yes" as never } })).rejects.toThrow(
      `"fakesOptions.log" must be true (write fake failures to the mock's log) or false, got "yes".`,
    );
  });
});
