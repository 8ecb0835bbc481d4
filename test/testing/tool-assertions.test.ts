/**
 * The kit's tool assertions against a server the kit does not make: the SDK's own low-level
 * `Server`, whose `tools/list` is written here to break paging as a real server can.
 */
import { AssertionError } from "node:assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { assertToolExists, listAllTools } from "../../src/testing/tool-assertions.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const part of open.splice(0)) await part.close();
});

/** More `tools/list` requests than any test here needs: past it the server refuses, so a client that loops fails instead of hanging. */
const MAX_ASKED = 50;

/** An SDK client connected in memory to an SDK server whose `tools/list` is `answer`. */
async function clientOf(answer: (cursor: string | undefined) => ListToolsResult): Promise<{ client: Client; asked: (string | undefined)[] }> {
  const asked: (string | undefined)[] = [];
  const server = new Server({ name: "broken-pager", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    asked.push(request.params?.cursor);
    if (asked.length > MAX_ASKED) throw new Error(`tools/list asked ${asked.length} times: the client is looping`);
    return answer(request.params?.cursor);
  });
  const client = new Client({ name: "kit-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  open.push(client, server);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, asked };
}

describe("assertToolExists against a server whose pages never end", () => {
  it("fails with an AssertionError naming the repeated cursor, after two pages, instead of looping forever", async () => {
    // Page 1 has "a" and cursor "again"; every later page has "b" and the same cursor again.
    const { client, asked } = await clientOf((cursor) => (cursor === undefined ? { tools: [tool("a")], nextCursor: "again" } : { tools: [tool("b")], nextCursor: "again" }));
    const error = await assertToolExists(client, "c").then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as AssertionError).message).toBe(
      'tools/list: the server returned nextCursor "again" a second time, so the pages would never end. ' +
        "The tools could not all be listed (2 pages read, 2 tools (a, b)); the server's paging is broken: fix its nextCursor.",
    );
    expect((error as AssertionError).operator).toBe("assertToolExists");
    expect(asked).toEqual([undefined, "again"]);
  });

  it("still lists every tool of a server whose cursors do end", async () => {
    const pages: Record<string, ListToolsResult> = { start: { tools: [tool("a")], nextCursor: "2" }, "2": { tools: [tool("b")], nextCursor: "3" }, "3": { tools: [tool("c")] } };
    const { client, asked } = await clientOf((cursor) => pages[cursor ?? "start"]!);
    expect((await listAllTools(client)).map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(await assertToolExists(client, "c")).toMatchObject({ name: "c" });
    expect(asked).toEqual([undefined, "2", "3", undefined, "2", "3"]);
  });
});
