/** Loading fixture files and directories: names relative to the directory, reloads, LLM fixtures ignored. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFakes, FixtureLoadError, McpFakesAddError } from "../../src/fakes/index.js";
import { retryBlock } from "./retry-block.js";

const root = mkdtempSync(join(tmpdir(), "mcp-testkit-fakes-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const retry = {
  fixtures: [{ match: { userMessage: "open a refund ticket", hasToolResult: false }, response: { toolCalls: [{ name: "create_ticket", arguments: { title: "Refund" } }] } }],
  mcpFakes: retryBlock,
};
const travel = {
  mcpFakes: [
    { scope: { testId: "travel › book trip" }, mount: "/mcp/flights", tools: [{ name: "search_flights", calls: [{ anyArgs: true, result: "UA 100 departs 09:00" }] }] },
    { scope: { testId: "travel › book trip" }, mount: "/mcp/hotels", tools: [{ name: "book_hotel", calls: [{ args: { city: "Paris" }, result: "HOTEL-7" }] }] },
  ],
};

const idsOf = (fakes: ReturnType<typeof createFakes>, testId: string) => fakes.inspect({ testId }).mounts.flatMap((m) => m.blocks.flatMap((b) => b.tools.flatMap((t) => t.entries.map((e) => e.id))));

describe("a fixtures directory", () => {
  const dir = join(root, "fixtures");
  write(dir, "tickets/retry.json", retry);
  write(dir, "multi/travel.json", travel);
  write(dir, "llm-only.json", { fixtures: [] });
  write(dir, "notes.txt", "not a fixture");

  it("names each file by its path relative to the directory, and serves the document's examples", () => {
    const notes: string[] = [];
    const fakes = createFakes({ logger: (level, line) => notes.push(`${level} ${line}`) });
    expect(fakes.loadDir(dir)).toEqual({ warnings: [], added: 3 });
    expect(idsOf(fakes, "tickets › retry on timeout")).toEqual(["tickets/retry.json:first-try", "tickets/retry.json:retry"]);
    expect(idsOf(fakes, "travel › book trip")).toEqual(["multi/travel.json[0]:search_flights#0", "multi/travel.json[1]:book_hotel#0"]);

    const who = { testId: "tickets › retry on timeout" };
    const first = fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who });
    expect(first).toMatchObject({ kind: "answer", entryId: "tickets/retry.json:first-try", result: { isError: true, content: [{ type: "text", text: "upstream timeout" }] } });
    expect(fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who })).toMatchObject({ kind: "answer", result: { content: [{ text: "TICKET-42" }] } });
    expect(fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who })).toMatchObject({ kind: "error", code: "MCP_FAKE_EXHAUSTED" });

    // Each mount serves only its own block.
    const trip = { testId: "travel › book trip" };
    expect(fakes.answer({ tool: "search_flights", arguments: { to: "CDG" }, identity: trip, mount: "/mcp/flights" })).toMatchObject({
      kind: "answer",
      result: { content: [{ text: "UA 100 departs 09:00" }] },
    });
    expect(fakes.answer({ tool: "book_hotel", arguments: { city: "Paris" }, identity: trip, mount: "/mcp/flights" })).toEqual({ kind: "pass" });
    expect(fakes.answer({ tool: "book_hotel", arguments: { city: "Paris" }, identity: trip, mount: "/mcp/hotels" })).toMatchObject({ kind: "answer", entryId: "multi/travel.json[1]:book_hotel#0" });

    // The LLM fixtures are ignored, with one note for the whole load; the exhausted call is logged.
    expect(notes).toEqual([
      'info MCP-FAKE: note: the LLM "fixtures" arrays of llm-only.json, tickets/retry.json are ignored; only "mcpFakes" is read.',
      expect.stringMatching(/^error MCP-FAKE: mcp-testkit MCP fake exhausted: tool "create_ticket"/),
    ]);
  });

  it("loading the same file again adds its blocks again, with @2 and @3", () => {
    const fakes = createFakes();
    const path = join(dir, "tickets/retry.json");
    fakes.loadFile(path, "tickets/retry.json");
    fakes.loadFile(path, "tickets/retry.json");
    fakes.loadFile(path, "tickets/retry.json");
    expect(idsOf(fakes, "tickets › retry on timeout")).toEqual([
      "tickets/retry.json:first-try",
      "tickets/retry.json:retry",
      "tickets/retry.json@2:first-try",
      "tickets/retry.json@2:retry",
      "tickets/retry.json@3:first-try",
      "tickets/retry.json@3:retry",
    ]);
    expect(
      createFakes().loadFiles([
        { path: join(dir, "multi/travel.json"), name: "multi/travel.json" },
        { path: join(dir, "multi/travel.json"), name: "multi/travel.json" },
      ]).added,
    ).toBe(4);
  });

  it("a single file is named by its path as given", () => {
    const fakes = createFakes();
    fakes.loadFile(join(dir, "tickets/retry.json"));
    expect(idsOf(fakes, "tickets › retry on timeout")[0]).toBe(`${join(dir, "tickets/retry.json")}:first-try`);
  });

  it("clear() removes every block and restarts the numbering", () => {
    const fakes = createFakes();
    fakes.loadFile(join(dir, "tickets/retry.json"), "r.json");
    fakes.loadFile(join(dir, "tickets/retry.json"), "r.json");
    expect(fakes.clear()).toBe(2);
    fakes.loadFile(join(dir, "tickets/retry.json"), "r.json");
    expect(idsOf(fakes, "tickets › retry on timeout")[0]).toBe("r.json:first-try");
  });
});

describe("bad files fail the whole load, after every file is checked", () => {
  const dir = join(root, "bad");
  write(dir, "a-broken.json", "{ not json");
  write(dir, "b-array.json", [1, 2]);
  write(dir, "c-noscope.json", { mcpFakes: { tools: [] } });
  write(dir, "d-good.json", retry);

  it("lists every problem with its file, and adds nothing", () => {
    const fakes = createFakes();
    let error: unknown;
    try {
      fakes.loadDir(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpFakesAddError);
    const problems = (error as McpFakesAddError).errors.map((e) => [e.rule, e.file]);
    expect(problems).toEqual([
      ["mcp-fakes/bad-json", "a-broken.json"],
      ["mcp-fakes/bad-file", "b-array.json"],
      ["mcp-fakes/bad-scope", "c-noscope.json"],
    ]);
    // Where the file stops being JSON, as an editor shows it: line, column, the line and a caret.
    expect((error as McpFakesAddError).errors[0].message).toMatch(/a-broken\.json: is not valid JSON: .* at line 1, column 3\n {2}1 \| \{ not json\n {4}\| {3}\^$/);
    // Each error carries its rule as its code, and its words without the prefix.
    const first = (error as McpFakesAddError).errors[0]!;
    expect(first.code).toBe("mcp-fakes/bad-json");
    expect(first.message).toBe(`[mcp-testkit] ${first.detail}`);
    expect(fakes.inspect().mounts).toEqual([]);
  });

  it("a missing file is a FixtureLoadError that names it", () => {
    expect(() => createFakes().loadFile(join(dir, "missing.json"), "missing.json")).toThrow(FixtureLoadError);
    expect(() => createFakes().loadFile(join(dir, "missing.json"), "missing.json")).toThrow(/missing\.json: cannot be read/);
  });

  it("an entry id already loaded on the mount is refused, naming the file and the entry", () => {
    const fakes = createFakes();
    fakes.load({ scope: "shared", tools: [{ name: "a", calls: [{ anyArgs: true, result: "1" }] }] });
    // A file whose name looks like a code block id collides with it.
    const path = write(dir, "../dupe/x.json", { mcpFakes: { scope: "shared", tools: [{ name: "a", calls: [{ anyArgs: true, result: "1" }] }] } });
    let error: FixtureLoadError | undefined;
    try {
      fakes.loadFile(path, "code#1");
    } catch (e) {
      error = e as FixtureLoadError;
    }
    expect(error?.toJSON()).toEqual({
      name: "FixtureLoadError",
      rule: "mcp-fakes/duplicate-id",
      file: "code#1",
      blockId: "code#1",
      entryId: "code#1:a#0",
      message: 'code#1, block code#1: entry id "code#1:a#0" is already loaded on mount /mcp; entry ids are unique per mount, so give this entry another "id"',
    });
  });
});
