/**
 * Names a client sends are looked up among the mock's own entries only. A name that every
 * JavaScript object inherits (`constructor`, `toString`, `__proto__`, ...) is an unknown name like
 * any other: the answer is the method's usual error or an empty completion, never -32603, a
 * malformed result, or a value borrowed from `Object.prototype`. One table per method that looks
 * a client's name up, driven through the official SDK client.
 */
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { PROTOTYPE_NAMES } from "../fuzz/arbitraries.js";
import { connect, mock, request, useCleanup } from "./support.js";

useCleanup();

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("expected a rejection, but the promise resolved");
}

const scenario = {
  tools: { echo: (call: { arguments: Record<string, unknown> }) => ({ returns: { keys: Object.keys(call.arguments) } }) },
  prompts: {
    greet: {
      arguments: [{ name: "name", required: true }],
      messages: [{ role: "user" as const, content: "Hi {{name}} {{constructor}} {{toString}}" }],
      complete: { name: ["Ada"] },
    },
  },
  resources: { "repo://{owner}/{name}": { text: "{owner}/{name} {constructor}", complete: { owner: ["octo"] } } },
};

describe.each(PROTOTYPE_NAMES)("the name %j", (name) => {
  it("completion/complete: as a prompt argument or a template variable it has no completions; as a ref it is unknown (-32602)", async () => {
    const client = await connect(await mock(scenario));
    const forPrompt = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name, value: "" } });
    expect(forPrompt.completion).toEqual({ values: [], total: 0, hasMore: false });
    const forTemplate = await client.complete({ ref: { type: "ref/resource", uri: "repo://{owner}/{name}" }, argument: { name, value: "" } });
    expect(forTemplate.completion).toEqual({ values: [], total: 0, hasMore: false });
    expect((await rejection(client.complete({ ref: { type: "ref/prompt", name }, argument: { name: "name", value: "" } }))).code).toBe(-32602);
    expect((await rejection(client.complete({ ref: { type: "ref/resource", uri: name }, argument: { name: "owner", value: "" } }))).code).toBe(-32602);
  });

  it("tools/call: an unknown tool (-32602, listing the tools); as an argument key it reaches the step as the client's own key", async () => {
    const client = await connect(await mock(scenario));
    const unknown = await client.callTool({ name, arguments: {} }).catch((error: { code: number; message: string }) => error);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining(`Unknown tool: ${name}`) });
    // JSON.parse makes "__proto__" an own key, as a client's JSON does.
    const args = JSON.parse(`{${JSON.stringify(name)}: 1}`) as Record<string, unknown>;
    const result = await client.callTool({ name: "echo", arguments: args });
    expect(result.structuredContent ?? JSON.parse((result.content as [{ text: string }])[0].text)).toEqual({ keys: [name] });
  });

  it("prompts/get: an unknown prompt (-32602); an inherited name neither fills a required argument nor a {{placeholder}}", async () => {
    const client = await connect(await mock(scenario));
    expect((await rejection(client.getPrompt({ name }))).code).toBe(-32602);
    const server = await mock({ prompts: { p: { arguments: [{ name, required: true }], messages: [{ role: "user", content: `x={{${name}}}` }] } } });
    const other = await connect(server);
    const missing = await rejection(other.getPrompt({ name: "p", arguments: {} }));
    expect(missing).toMatchObject({ code: -32602, message: expect.stringContaining(`needs the argument ${name}`) });
    const filled = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(filled.messages[0]!.content).toEqual({ type: "text", text: "Hi Ada {{constructor}} {{toString}}" });
  });

  it("resources/read and resources/subscribe: an unknown resource (-32002); a template's text keeps {placeholders} it has no variable for", async () => {
    const client = await connect(await mock(scenario));
    expect((await rejection(client.readResource({ uri: name }))).code).toBe(-32002);
    expect((await rejection(client.subscribeResource({ uri: name }))).code).toBe(-32002);
    const read = await client.readResource({ uri: "repo://octo/api" });
    expect(read.contents).toEqual([{ uri: "repo://octo/api", mimeType: "text/plain", text: "octo/api {constructor}" }]);
  });

  it("as a method, a logging level or a protocol version: -32601, -32602, and the mock's own version", async () => {
    const server = await mock(scenario);
    expect((await request(server, name)).error.code).toBe(-32601);
    expect((await request(server, "logging/setLevel", { level: name })).error.code).toBe(-32602);
    const initialized = await request(server, "initialize", { protocolVersion: name, capabilities: {}, clientInfo: { name: "x", version: "0" } });
    expect(initialized.result.protocolVersion).toBe("2025-11-25");
  });
});

it("over HTTP, header names that live on Object.prototype change nothing", async () => {
  const server = await mockMcp({ tools: { echo: { returns: "ok" } } });
  try {
    const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json" };
    for (const name of PROTOTYPE_NAMES) if (name !== "__proto__") headers[name.toLowerCase()] = "x";
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "0" } } };
    const answer = await fetch(server.url!, { method: "POST", headers, body: JSON.stringify(init) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    await answer.text();
  } finally {
    await server.close();
  }
});
