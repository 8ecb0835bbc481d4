/** The control API under /__mcp-testkit/ (and /__aimock/), driven with web Requests and once over node:http. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createFakes, isControlPath } from "../../src/fakes/index.js";
import { mockMcp } from "../../src/index.js";
import { retryBlock } from "./retry-block.js";

const BASE = "http://127.0.0.1:4000";
const pingBlock = { scope: "shared", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "pong" }] }] };

async function send(fakes: ReturnType<typeof createFakes>, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const request = new Request(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const response = await fakes.handleControl(request);
  return { status: response.status, json: (await response.json()) as any, headers: response.headers };
}

describe("POST /__mcp-testkit/fixtures", () => {
  it("adds an mcpFakes body (ids control-api#n), answers 200 with mcpFakesAdded, and GET fakes lists it", async () => {
    const fakes = createFakes();
    expect(await send(fakes, "POST", "/__mcp-testkit/fixtures", { mcpFakes: [retryBlock, pingBlock] })).toMatchObject({ status: 200, json: { added: 0, mcpFakesAdded: 2, warnings: [] } });
    const who = { testId: "tickets › retry on timeout" };
    fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: who });

    const listing = await send(fakes, "GET", `/__mcp-testkit/fakes?testId=${encodeURIComponent(who.testId)}`);
    expect(listing.status).toBe(200);
    expect(listing.json.testId).toBe(who.testId);
    expect(listing.json.context).toBeNull();
    const [retry, shared] = listing.json.mounts[0].blocks;
    expect(retry).toMatchObject({ blockId: "control-api#1[0]", mount: "/mcp", evicted: false, undeclaredTools: "allow" });
    expect(retry.tools[0].entries.map((e: { id: string; consumed: boolean }) => [e.id, e.consumed])).toEqual([
      ["control-api#1[0]:first-try", true],
      ["control-api#1[0]:retry", false],
    ]);
    expect(shared.blockId).toBe("control-api#1[1]");

    // The document's path works too, and a second add is control-api#2.
    expect((await send(fakes, "GET", "/__aimock/mcp/fakes?mount=/other")).json.mounts).toEqual([]);
    await send(fakes, "POST", "/__aimock/fixtures", { mcpFakes: { scope: "shared", tools: [{ name: "x", calls: [{ anyArgs: true, result: "1" }] }] } });
    expect(fakes.inspect().mounts[0].blocks.map((b) => b.blockId)).toEqual(["control-api#1[1]", "control-api#2"]);
  });

  it("answers 400 Validation failed with every problem and adds nothing", async () => {
    const fakes = createFakes();
    const response = await send(fakes, "POST", "/__mcp-testkit/fixtures", { mcpFakes: [pingBlock, { tools: [] }, { scope: "shared", undeclaredTools: "deny", tools: [] }] });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe("Validation failed");
    expect(response.json.details.map((d: { rule: string; blockId: string }) => [d.rule, d.blockId])).toEqual([
      ["mcp-fakes/bad-scope", "control-api#1[1]"],
      ["mcp-fakes/shared-deny", "control-api#1[2]"],
    ]);
    expect(response.json.details[0].message).toMatch(/^the control API, block 1/);
    expect(fakes.inspect().mounts).toEqual([]);
  });

  it("returns shadowed-entry warnings with a 200", async () => {
    const response = await send(createFakes(), "POST", "/__mcp-testkit/fixtures", {
      mcpFakes: {
        scope: "shared",
        tools: [
          {
            name: "t",
            calls: [
              { anyArgs: true, result: "any" },
              { args: { a: 1 }, result: "exact" },
            ],
          },
        ],
      },
    });
    expect(response).toMatchObject({ status: 200, json: { mcpFakesAdded: 1, warnings: [{ entryId: "control-api#1:t#1" }] } });
  });

  it("accepts LLM fixtures alone (ignored, added 0)", async () => {
    const notes: string[] = [];
    const fakes = createFakes({ logger: (_l, line) => notes.push(line) });
    expect(await send(fakes, "POST", "/__mcp-testkit/fixtures", { fixtures: [] })).toMatchObject({ status: 200, json: { added: 0, mcpFakesAdded: 0 } });
    expect(notes[0]).toContain("ignored");
  });

  it.each([
    ["{ not json", 400, "MCP_CONTROL_BAD_JSON"],
    [{ something: 1 }, 400, "MCP_CONTROL_BAD_BODY"],
    [[pingBlock], 400, "MCP_CONTROL_BAD_BODY"],
  ])("a bad body %j is %i %s", async (body, status, code) => {
    expect(await send(createFakes(), "POST", "/__mcp-testkit/fixtures", body)).toMatchObject({ status, json: { code } });
  });
});

describe("reset, clear, journal, health", () => {
  async function loaded() {
    const fakes = createFakes({ health: () => ({ tools: 3 }) });
    await send(fakes, "POST", "/__mcp-testkit/fixtures", { mcpFakes: pingBlock });
    for (const testId of ["A", "B"]) fakes.answer({ tool: "ping", identity: { testId } });
    fakes.answer({ tool: "ping", identity: { testId: "A" } });
    return fakes;
  }

  it("GET journal filters by testId, outcome, method and pages with limit and offset", async () => {
    const fakes = await loaded();
    expect((await send(fakes, "GET", "/__mcp-testkit/journal")).json).toHaveLength(3);
    const a = await send(fakes, "GET", "/__aimock/journal?testId=A&service=mcp");
    expect(a.json.map((e: { response: { mcpFake: { outcome: string } } }) => e.response.mcpFake.outcome)).toEqual(["answered", "exhausted"]);
    expect((await send(fakes, "GET", "/__mcp-testkit/journal?outcome=failed")).json).toHaveLength(1);
    expect((await send(fakes, "GET", "/__mcp-testkit/journal?method=tools/call&limit=1&offset=2")).json.map((e: { seq: number }) => e.seq)).toEqual([3]);
    expect((await send(fakes, "GET", "/__mcp-testkit/journal?service=llm")).json).toEqual([]);
  });

  it.each([
    ["/__mcp-testkit/journal?outcome=great", "?outcome= must be one of answered, mismatch, exhausted, not_declared, evicted, failed"],
    ["/__mcp-testkit/journal?limit=ten", '?limit= must be a whole number, received "ten".'],
    ["/__mcp-testkit/journal?testid=A", "Unknown query parameter ?testid=; this route takes ?testId="],
    ["/__mcp-testkit/fakes?testId=a&testId=b", "Duplicate ?testId= query parameter: 2 values sent, expected one."],
  ])("GET %s is 400 MCP_CONTROL_BAD_QUERY", async (path, error) => {
    const response = await send(await loaded(), "GET", path);
    expect(response.status).toBe(400);
    expect(response.json.code).toBe("MCP_CONTROL_BAD_QUERY");
    expect(response.json.error).toContain(error);
  });

  it("POST reset with a testId restarts that test id; without, everything (blocks stay); DELETE fixtures removes blocks", async () => {
    const fakes = await loaded();
    expect(await send(fakes, "POST", "/__mcp-testkit/reset", { testId: "A" })).toMatchObject({ status: 200, json: { reset: { testId: "A" } } });
    expect(fakes.answer({ tool: "ping", identity: { testId: "A" } }).kind).toBe("answer");
    expect(fakes.answer({ tool: "ping", identity: { testId: "B" } }).kind).toBe("error");
    expect(await send(fakes, "POST", "/__mcp-testkit/reset?testId=B")).toMatchObject({ json: { reset: { testId: "B" } } });
    expect(fakes.answer({ tool: "ping", identity: { testId: "B" } }).kind).toBe("answer");
    expect(await send(fakes, "POST", "/__mcp-testkit/reset")).toMatchObject({ status: 200, json: { reset: "all" } });
    expect(fakes.journal.size).toBe(0);
    expect(await send(fakes, "POST", "/__mcp-testkit/reset", { testId: 5 })).toMatchObject({ status: 400, json: { code: "MCP_CONTROL_BAD_BODY" } });
    expect(await send(fakes, "DELETE", "/__mcp-testkit/fixtures")).toMatchObject({ status: 200, json: { removed: 1 } });
    expect(fakes.answer({ tool: "ping" }).kind).toBe("pass");
  });

  it("GET health reports the fakes and the engine's fields", async () => {
    expect(await send(await loaded(), "GET", "/__mcp-testkit/health")).toMatchObject({ status: 200, json: { status: "ok", tools: 3, fakes: { mounts: ["/mcp"], blocks: 1, entries: 1, journal: 3 } } });
  });
});

describe("routing", () => {
  it("an unknown route is 404 listing the routes; a wrong method is 405 with Allow", async () => {
    const fakes = createFakes();
    const missing = await send(fakes, "GET", "/__mcp-testkit/nope");
    expect(missing).toMatchObject({ status: 404, json: { code: "MCP_CONTROL_NOT_FOUND" } });
    expect(missing.json.error).toContain("POST|DELETE /__mcp-testkit/fixtures");
    const wrong = await send(fakes, "PUT", "/__mcp-testkit/fixtures");
    expect(wrong).toMatchObject({ status: 405, json: { code: "MCP_CONTROL_METHOD_NOT_ALLOWED" } });
    expect(wrong.headers.get("allow")).toBe("POST, DELETE");
    expect(isControlPath("/__mcp-testkit/journal")).toBe(true);
    expect(isControlPath("/mcp")).toBe(false);
  });

  it("refuses a body over the limit with 413, at the mock's router, before the control API reads it", async () => {
    const mock = await mockMcp({});
    const body = JSON.stringify({ mcpFakes: "x".repeat(6 * 1024 * 1024) });
    for (const path of ["/__mcp-testkit/fixtures", "/__aimock/fixtures"]) {
      const response = await mock.fetch(new Request(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body }));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ code: "MCP_CONTROL_BODY_TOO_LARGE", error: "The body is over 5242880 bytes; the control API reads at most 5242880." });
    }
    expect(mock.fakes.inspect().mounts).toEqual([]);
    await mock.close();
  });
});

describe("over a real HTTP server", () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("works from another process's point of view: load with POST, read with GET", async () => {
    const fakes = createFakes();
    // A tiny node:http → Request adapter, for this test only (the wire has its own).
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await fakes.handleControl(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, ...(body && { body }) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(await response.text());
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const added = await fetch(`${url}/__mcp-testkit/fixtures`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mcpFakes: retryBlock }) });
    expect([added.status, await added.json()]).toEqual([200, { added: 0, mcpFakesAdded: 1, warnings: [] }]);
    fakes.answer({ tool: "create_ticket", arguments: { title: "Refund" }, identity: { testId: "tickets › retry on timeout" } });
    const journal = await fetch(`${url}/__mcp-testkit/journal?testId=${encodeURIComponent("tickets › retry on timeout")}`);
    expect(((await journal.json()) as Array<{ response: { mcpFake: unknown } }>)[0].response.mcpFake).toEqual({ outcome: "answered", entryId: "control-api#1:first-try" });
  });
});
