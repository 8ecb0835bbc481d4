/**
 * The stdio wire: in the same process on a pair of PassThrough streams, then for real: the
 * official SDK `Client` with `StdioClientTransport` spawning `mcp-testkit mock --stdio`, and raw
 * child processes to check the bytes on stdout.
 */
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { McpTestkitError, mockMcp, type MockMcpOptions } from "../../src/index.js";
import type { StdioEndReason, StdioWireOptions } from "../../src/wire/stdio.js";
import type { StdioMockOptions } from "../../src/mock/mock-mcp.js";
import { CLI, collect, delay, EXAMPLES, exited, REPO, scenarioFile, scratchFile, startCli, until, useCli } from "../cli/support.js";
import { closedAfterEach } from "../support/closed-after-each.js";

useCli();

type Json = Record<string, any>;

const { servers, clients } = closedAfterEach();

const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "stdio-test", version: "1.0.0" } },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const PING = { jsonrpc: "2.0", id: "after", method: "ping" };
const call = (id: number | string, name: string, args: Json = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** The client end of an in-process stdio wire: what the mock wrote, line by line. */
class Peer {
  readonly lines: string[] = [];
  readonly ends: StdioEndReason[] = [];
  readonly outputEnded: Promise<void>;
  private buffered = "";
  private waiters = new Set<() => void>();

  constructor(
    readonly input: PassThrough,
    readonly output: PassThrough,
  ) {
    output.setEncoding("utf8");
    output.on("data", (text: string) => {
      this.buffered += text;
      const parts = this.buffered.split("\n");
      this.buffered = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of this.waiters) wake();
    });
    this.outputEnded = new Promise((resolve) => output.once("end", () => resolve()));
  }

  send(message: unknown): void {
    this.input.write(`${JSON.stringify(message)}\n`);
  }

  /** The lines that are JSON (a raw step may write others). */
  get messages(): Json[] {
    return this.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Json];
      } catch {
        return [];
      }
    });
  }

  /** The first message written (so far or later) that `match` accepts. */
  async next(match: (message: Json) => boolean, timeoutMs = 3000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message within ${timeoutMs} ms; got:\n${this.lines.join("\n")}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  reply(id: unknown): Promise<Json> {
    return this.next((message) => message.id === id && !("method" in message));
  }

  async initialize(): Promise<void> {
    this.send(INITIALIZE);
    await this.reply("init");
    this.send(INITIALIZED);
  }
}

async function serveOnStreams(options: MockMcpOptions, stdio: Omit<StdioWireOptions, "input" | "output" | "onEnd"> = {}) {
  const peer = new Peer(new PassThrough(), new PassThrough());
  const stdioOptions: StdioMockOptions = {
    ...options,
    transport: "stdio",
    stdio: { ...stdio, input: peer.input, output: peer.output, onEnd: (reason) => peer.ends.push(reason) },
  };
  const server = await mockMcp(stdioOptions);
  servers.add(server);
  return { server, peer };
}

describe("the stdio wire in process", () => {
  it("tells session:open to listeners added after mockMcp() resolved: the session opens when the client first speaks", async () => {
    const { server, peer } = await serveOnStreams({ tools: { search: { returns: "found" } } });
    const events: string[] = [];
    server.on("session:open", (event) => void events.push(`open ${event.wire}`));
    server.on("session:close", (event) => void events.push(`close ${event.outcome}`));
    await peer.initialize();
    expect(events).toEqual(["open stdio"]);
    peer.input.end();
    await until(() => events.length === 2, "the session's close");
    expect(events).toEqual(["open stdio", "close disconnected"]);
  });

  it("a client that never speaks opened no session: closing the mock tells of none", async () => {
    const { server } = await serveOnStreams({ tools: { search: { returns: "found" } } });
    const events: string[] = [];
    server.on("session:open", () => void events.push("open"));
    server.on("session:close", () => void events.push("close"));
    await server.close();
    expect(events).toEqual([]);
  });

  it("answers each request with one line, accepts \\r\\n and ignores empty lines", async () => {
    const { server, peer } = await serveOnStreams({ tools: { search: { returns: "found" } } });
    peer.input.write(`${JSON.stringify(INITIALIZE)}\r\n\n\r\n   \n`);
    expect((await peer.reply("init")).result.serverInfo).toEqual({ name: "mcp-testkit", version: "0.1.0" });
    peer.input.write(`${JSON.stringify(INITIALIZED)}\r\n${JSON.stringify(call(1, "search", { q: "bug" }))}\r\n`);
    expect((await peer.reply(1)).result).toEqual({ content: [{ type: "text", text: "found" }] });
    await delay(20);
    expect(peer.lines).toHaveLength(2);
    expect(server.calls.map((c) => [c.tool, c.arguments, c.outcome])).toEqual([["search", { q: "bug" }, "result"]]);
    expect(server.messages.map((m) => ("method" in m ? m.method : "response"))).toEqual(["initialize", "notifications/initialized", "tools/call"]);
  });

  it("answers a line that is not JSON with -32700 and carries on", async () => {
    const { peer } = await serveOnStreams({ tools: { ping_me: { returns: "pong" } } });
    peer.input.write("this is not json\n");
    const error = await peer.next((message) => "error" in message);
    expect(error).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(error.error.message).toMatch(/^Parse error: /);
    await peer.initialize();
    peer.send(call(2, "ping_me"));
    expect((await peer.reply(2)).result.content[0].text).toBe("pong");
  });

  it("answers a line nested deeper than any MCP message with -32600 and carries on; the records stay writable", async () => {
    const { server, peer } = await serveOnStreams({ tools: { ping_me: { returns: "pong" } } });
    await peer.initialize();
    peer.input.write(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}}\n`);
    const error = await peer.next((message) => "error" in message);
    expect(error).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("more than 512 levels deep") } });
    peer.send(call(4, "ping_me"));
    expect((await peer.reply(4)).result.content[0].text).toBe("pong");
    expect(() => JSON.stringify(server.messages)).not.toThrow();
  });

  it("answers a request whose id is an integer beyond 2^53 with -32600 naming it, id null, and carries on", async () => {
    const { peer } = await serveOnStreams({ tools: { ping_me: { returns: "pong" } } });
    await peer.initialize();
    peer.input.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n');
    const error = await peer.next((message) => "error" in message);
    expect(error).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          "Invalid Request: the id 9007199254740993 is an integer beyond 2^53 that cannot be echoed exactly (read as a JSON number it becomes 9007199254740992, which the client never sent); use a smaller number or a string id",
      },
    });
    peer.send(call(4, "ping_me"));
    expect((await peer.reply(4)).result.content[0].text).toBe("pong");
  });

  it("reassembles lines split across chunks, several lines per chunk, and UTF-8 split mid-character", async () => {
    const { peer, server } = await serveOnStreams({ tools: { echo: (c) => ({ returns: String(c.arguments.text) }) } });
    await peer.initialize();
    const text = `${JSON.stringify(call(1, "echo", { text: "Zürich ☀" }))}\n${JSON.stringify(call(2, "echo", { text: "二" }))}\n`;
    const bytes = Buffer.from(text, "utf8");
    const cut = bytes.indexOf(Buffer.from("☀")) + 1; // inside the three bytes of ☀
    peer.input.write(bytes.subarray(0, 10));
    peer.input.write(bytes.subarray(10, cut));
    await delay(5);
    peer.input.write(bytes.subarray(cut));
    expect((await peer.reply(1)).result.content[0].text).toBe("Zürich ☀");
    expect((await peer.reply(2)).result.content[0].text).toBe("二");
    expect(server.calls.map((c) => c.arguments.text)).toEqual(["Zürich ☀", "二"]);
  });

  it("rejects a line over the cap with one -32600 reply as soon as it crosses the cap, then reads on", async () => {
    const { peer } = await serveOnStreams({ tools: { ok: { returns: "still here" } } }, { maxLineBytes: 1024 });
    await peer.initialize();
    peer.input.write("x".repeat(600));
    await delay(20);
    expect(peer.messages.filter((message) => "error" in message)).toEqual([]);
    peer.input.write("x".repeat(600)); // past the cap, still no newline: answered now, not buffered
    const error = await peer.next((message) => "error" in message);
    expect(error).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: a message line is longer than 1024 bytes; it was discarded. Send one JSON-RPC message per line, under the limit." },
    });
    peer.input.write(`${"y".repeat(50_000)}\n${JSON.stringify(call(7, "ok"))}\n`);
    expect((await peer.reply(7)).result.content[0].text).toBe("still here");
    expect(peer.messages.filter((message) => "error" in message)).toHaveLength(1);
  });

  it("accepts a line of exactly the cap", async () => {
    const { peer } = await serveOnStreams({ tools: { ok: { returns: "fits" } } }, { maxLineBytes: 200 });
    await peer.initialize();
    const line = JSON.stringify(call(3, "ok", { pad: "" }));
    peer.input.write(`${JSON.stringify(call(3, "ok", { pad: "p".repeat(200 - line.length) }))}\n`);
    expect((await peer.reply(3)).result.content[0].text).toBe("fits");
  });

  it("sends server-initiated messages as lines: list_changed after setTool", async () => {
    const { server, peer } = await serveOnStreams({ tools: { old: { returns: "old" } } });
    await peer.initialize();
    await server.setTool("fresh", { returns: "new" });
    expect(await peer.next((message) => message.method === "notifications/tools/list_changed")).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await peer.reply(2)).result.tools.map((tool: Json) => tool.name)).toEqual(["old", "fresh"]);
  });

  it("carries a server request (sampling) and its answer during a call", async () => {
    const { server, peer } = await serveOnStreams({
      tools: {
        summarize: async (c) => {
          const answer = await c.sample({ messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 50 });
          return { returns: `model said: ${(answer.content as Json).text}` };
        },
      },
    });
    await peer.initialize();
    peer.send(call(1, "summarize"));
    const request = await peer.next((message) => message.method === "sampling/createMessage");
    peer.send({ jsonrpc: "2.0", id: request.id, result: { role: "assistant", content: { type: "text", text: "short" }, model: "test-model" } });
    expect((await peer.reply(1)).result.content[0].text).toBe("model said: short");
    expect(server.calls[0]!.exchanges.map((e) => e.method)).toEqual(["sampling/createMessage"]);
  });

  it("writes a raw step's bytes as one line", async () => {
    const { peer } = await serveOnStreams({ tools: { broken: { raw: '{"jsonrpc":"2.0","id":1,"result":' } } });
    await peer.initialize();
    peer.send(call(1, "broken"));
    peer.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await peer.reply(2);
    expect(peer.lines).toContain('{"jsonrpc":"2.0","id":1,"result":');
  });

  it("drops the connection on a disconnect step: output ends, pending calls end disconnected, later input is ignored", async () => {
    const { server, peer } = await serveOnStreams({ tools: { wait: { hang: true }, cut: { disconnect: true } } });
    await peer.initialize();
    peer.send(call(1, "wait"));
    await server.waitForCalls(1, { tool: "wait" });
    peer.send(call(2, "cut"));
    await peer.outputEnded;
    expect(peer.ends).toEqual(["dropped"]);
    expect(server.calls.map((c) => [c.tool, c.outcome])).toEqual([
      ["wait", "disconnected"],
      ["cut", "disconnected"],
    ]);
    expect(server.callsTo("wait")[0]!.reason).toBe("the mock dropped the connection (disconnect step)");
    peer.send(call(3, "wait"));
    await delay(20);
    expect(server.calls).toHaveLength(2);
    await server.close(); // resolves although the wire already ended
    expect(peer.ends).toEqual(["dropped"]);
  });

  it("ends the session when the input ends: a hung call ends disconnected and the output ends", async () => {
    const { server, peer } = await serveOnStreams({ tools: { wait: { hang: true } } });
    await peer.initialize();
    peer.send(call(1, "wait"));
    await server.waitForCalls(1);
    peer.input.end();
    await peer.outputEnded;
    expect(peer.ends).toEqual(["input-ended"]);
    expect(server.calls[0]).toMatchObject({ outcome: "disconnected", reason: "the client closed the connection (stdin ended)" });
    await server.close();
  });

  it("still answers a last line without a newline, then ends", async () => {
    const { peer } = await serveOnStreams({ tools: { last: { returns: "answered" } } });
    await peer.initialize();
    peer.input.end(JSON.stringify(call(9, "last")));
    await peer.outputEnded;
    expect(peer.messages.find((message) => message.id === 9)?.result.content[0].text).toBe("answered");
  });

  it("close() cancels pending calls and ends the output without calling onEnd", async () => {
    const { server, peer } = await serveOnStreams({ tools: { wait: { hang: true } } });
    await peer.initialize();
    peer.send(call(1, "wait"));
    await server.waitForCalls(1);
    await server.close();
    await peer.outputEnded;
    expect(server.calls[0]!.outcome).toBe("cancelled");
    expect(peer.ends).toEqual([]);
  });

  it("ends the wire when writing to the client fails", async () => {
    const { server, peer } = await serveOnStreams({ tools: { wait: { hang: true } } });
    await peer.initialize();
    peer.send(call(1, "wait"));
    await server.waitForCalls(1);
    peer.output.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await delay(20);
    expect(peer.ends).toEqual(["output-failed"]);
    expect(server.calls[0]!.outcome).toBe("disconnected");
  });

  it("rejects a cap that is not a positive whole number", async () => {
    const options: StdioMockOptions = { transport: "stdio", stdio: { input: new PassThrough(), output: new PassThrough(), maxLineBytes: 0 } };
    await expect(mockMcp(options)).rejects.toThrow(McpTestkitError);
    await expect(mockMcp(options)).rejects.toThrow("[mcp-testkit] stdio.maxLineBytes must be a whole number of bytes, 1 or more, got 0.");
  });
});

/** An SDK client on `mcp-testkit mock --stdio <scenario>`, closed after the test. */
async function connect(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "--stdio", ...args], cwd: REPO, stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "stdio-sdk-test", version: "1.0.0" });
  clients.add(client);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

const ISSUE_TRACKER = join(EXAMPLES, "issue-tracker.json");

describe("mcp-testkit mock --stdio with the SDK's StdioClientTransport", () => {
  it("serves the tools, resources and prompts of a scenario, with failures on the chosen calls", async () => {
    const { client, stderr } = await connect([ISSUE_TRACKER]);
    expect(client.getServerVersion()).toEqual({ name: "issue-tracker-mock", version: "1.0.0" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search_issues", "get_issue", "add_comment"]);

    const first = await client.callTool({ name: "search_issues", arguments: { query: "crash" } });
    expect(JSON.parse((first.content as Json[])[0]!.text)).toEqual([
      { id: 1, title: "Crash on start", state: "open" },
      { id: 2, title: "Slow search", state: "open" },
    ]);
    const second = client.callTool({ name: "search_issues", arguments: { query: "crash" } });
    await expect(second).rejects.toThrow(McpError);
    await expect(second).rejects.toMatchObject({ code: -32000, message: expect.stringContaining("rate_limited") });

    expect((await client.callTool({ name: "get_issue", arguments: { id: 1 } })).isError).toBeFalsy();
    const locked = await client.callTool({ name: "get_issue", arguments: { id: 2 } });
    expect(locked).toEqual({ content: [{ type: "text", text: "issue 2 is locked: you need triage rights to read it" }], isError: true });

    const labels = await client.readResource({ uri: "tracker://labels" });
    expect(JSON.parse((labels.contents[0] as { text: string }).text)).toEqual(["bug", "feature", "needs-triage"]);
    const prompt = await client.getPrompt({ name: "triage", arguments: {} });
    expect(prompt.messages[0]!.role).toBe("user");

    expect(stderr()).toContain(`mcp-testkit mock: serving ${ISSUE_TRACKER} over stdio`);
    expect(stderr()).toContain('search_issues #1 {"query":"crash"} → protocol-error -32000 rate_limited');
  });

  it("drops the connection on a disconnect step: the client sees the connection close", async () => {
    const { client, transport } = await connect([ISSUE_TRACKER]);
    const closed = new Promise<void>((resolve) => (client.onclose = () => resolve()));
    const pid = transport.pid!;
    await client.callTool({ name: "add_comment", arguments: { id: 1, body: "one" } });
    await client.callTool({ name: "add_comment", arguments: { id: 1, body: "two" } });
    await expect(client.callTool({ name: "add_comment", arguments: { id: 1, body: "three" } })).rejects.toThrow(/Connection closed/);
    await closed;
    expect(() => process.kill(pid, 0)).toThrow(); // the process is gone
  });

  it("passes on notifications a step sends, such as tools/list_changed", async () => {
    const module = scratchFile("notifying.mjs", `export default { tools: { evolve: async (call) => { call.notify("notifications/tools/list_changed"); return { returns: "evolved" }; } } };\n`);
    const { client } = await connect([module]);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    expect((await client.callTool({ name: "evolve", arguments: {} })).content).toEqual([{ type: "text", text: "evolved" }]);
    await changed;
  });
});

describe("mcp-testkit mock --stdio, byte for byte", () => {
  const lines = [
    INITIALIZE,
    INITIALIZED,
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    call(2, "search_issues", { query: "crash" }),
    call(3, "search_issues", { query: "crash" }),
    call(4, "no_such_tool"),
    { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "tracker://labels" } },
  ].map((message) => JSON.stringify(message));

  it("writes only JSON-RPC lines on stdout (people's lines go to stderr), answers junk with -32700 and exits when stdin closes", async () => {
    const record = scratchFile("record.json");
    const child = startCli(["mock", "--stdio", ISSUE_TRACKER, "--record", record]);
    const output = collect(child);
    child.stdin.write(`${lines.slice(0, 4).join("\n")}\n`);
    child.stdin.write("this line is not JSON\n");
    child.stdin.write(`${lines.slice(4).join("\n")}\n`);
    // Wait for every answer before closing stdin, so none is cut off by the close.
    await until(() => output.stdout.split("\n").filter(Boolean).length >= 7, "seven answers on stdout");
    child.stdin.end();
    const result = await exited(child, output);

    expect(result.code).toBe(0);
    expect(result.stdout.endsWith("\n")).toBe(true);
    const written = result.stdout
      .split("\n")
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Json);
    expect(written.every((message) => message.jsonrpc === "2.0")).toBe(true);
    expect(written.map((message) => message.id).sort()).toEqual([1, 2, 3, 4, 5, "init", null].sort());
    expect(written.find((message) => message.id === null)?.error.code).toBe(-32700);
    expect(written.find((message) => message.id === 3)?.error).toEqual({ code: -32000, message: "rate_limited", data: { retryAfterMs: 1000 } });
    expect(written.find((message) => message.id === 4)?.error.code).toBe(-32602);

    const stderrLines = result.stderr.split("\n").filter(Boolean);
    expect(stderrLines[0]).toBe(`mcp-testkit mock: serving ${ISSUE_TRACKER} over stdio`);
    expect(stderrLines.filter((line) => / #\d+ /.test(line))).toEqual([
      expect.stringMatching(/^search_issues #0 \{"query":"crash"\} → result \(\d+ ms\)$/),
      expect.stringMatching(/^search_issues #1 \{"query":"crash"\} → protocol-error -32000 rate_limited \(\d+ ms\)$/),
      expect.stringMatching(/^no_such_tool #0 \{\} → unknown-tool -32602 Unknown tool: no_such_tool \(\d+ ms\)$/),
    ]);
    expect(stderrLines).toContain("mcp-testkit mock: stopped (stdin closed)");
    expect(stderrLines.at(-1)).toBe(`mcp-testkit mock: wrote 3 calls and 7 messages to ${record}`);

    const saved = JSON.parse(readFileSync(record, "utf8")) as { calls: Json[]; messages: Json[] };
    expect(saved.calls.map((c) => [c.tool, c.index, c.arguments, c.outcome])).toEqual([
      ["search_issues", 0, { query: "crash" }, "result"],
      ["search_issues", 1, { query: "crash" }, "protocol-error"],
      ["no_such_tool", 0, {}, "unknown-tool"],
    ]);
    expect(saved.calls[1]!.response).toEqual({ error: { code: -32000, message: "rate_limited", data: { retryAfterMs: 1000 } } });
    expect(saved.messages.map((message) => message.method)).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call", "tools/call", "resources/read"]);
  });

  it("keeps a scenario module's console.log off stdout", async () => {
    const module = scratchFile(
      "chatty.mjs",
      'console.log("loading the scenario");\nexport default { tools: { chatty: () => { console.log("inside a step"); console.info("info too"); return { returns: "quiet" }; } } };\n',
    );
    const child = startCli(["mock", "--stdio", module]);
    const output = collect(child);
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify(call(1, "chatty"))}\n`);
    await until(() => output.stdout.includes('"id":1'), "the answer to the call");
    child.stdin.end();
    const result = await exited(child, output);
    expect(
      result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual(["init", 1]);
    expect(result.stderr).toContain("loading the scenario\n");
    expect(result.stderr).toContain("inside a step\ninfo too\n");
  });

  it("exits promptly when stdin closes while a call hangs, and records that call as disconnected", async () => {
    const scenario = scenarioFile("hang.json", { tools: { wait: { hang: true } } });
    const record = scratchFile("hang-record.json");
    const child = startCli(["mock", "--stdio", scenario, "--record", record]);
    const output = collect(child);
    // Lines are handled in order: once the ping after the call is answered, the call is in flight.
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify(INITIALIZED)}\n${JSON.stringify(call(1, "wait"))}\n${JSON.stringify(PING)}\n`);
    await until(() => output.stdout.includes('"id":"after"'), "the answer to the ping");
    child.stdin.end();
    // The bound only guards a hang: the mock exits by itself (code 0, not a signal) when stdin ends.
    const result = await exited(child, output, 10_000);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stderr).toMatch(/wait #0 \{\} → disconnected: the client closed the connection \(stdin ended\) \(\d+ ms\)/);
    const saved = JSON.parse(readFileSync(record, "utf8")) as { calls: Json[] };
    expect(saved.calls).toMatchObject([{ tool: "wait", outcome: "disconnected" }]);
  });

  it("stops cleanly on SIGTERM and still writes the record", async () => {
    const scenario = scenarioFile("term.json", { tools: { wait: { hang: true } } });
    const record = scratchFile("term-record.json");
    const child = startCli(["mock", "--stdio", scenario, "--record", record]);
    const output = collect(child);
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify(call(1, "wait"))}\n${JSON.stringify(PING)}\n`);
    await until(() => output.stdout.includes('"id":"after"'), "the answer to the ping");
    child.kill("SIGTERM");
    const result = await exited(child, output, 5000);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("mcp-testkit mock: stopped (SIGTERM)");
    const saved = JSON.parse(readFileSync(record, "utf8")) as { calls: Json[] };
    expect(saved.calls).toMatchObject([{ tool: "wait", outcome: "cancelled" }]);
  });
});
