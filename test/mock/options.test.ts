/**
 * `mockMcp()` from plain JavaScript, where TypeScript checks nothing: a misspelt option, a
 * resource or prompt key nobody reads, or a value of the wrong kind fails at once with the
 * closest known name, instead of a mock that quietly serves something else.
 */
import { describe, expect, it } from "vitest";
import { McpTestkitError, mockMcp } from "../../src/index.js";
import { MOCK_OPTION_KINDS } from "../../src/mock/option-checks.js";
import { connect, mock, useCleanup } from "./support.js";

useCleanup();

async function refusal(options: unknown): Promise<string> {
  try {
    const server = await mockMcp(options as never);
    await server.close();
  } catch (error) {
    expect(error).toBeInstanceOf(McpTestkitError);
    // What it says is data too: the words without the prefix, and no advice beyond them.
    expect(error).toMatchObject({ message: `[mcp-testkit] ${(error as McpTestkitError).detail}`, hints: [] });
    return (error as Error).message;
  }
  throw new Error("expected mockMcp() to refuse these options");
}

describe("top-level options", () => {
  it.each([
    [{ tool: { t: { returns: 1 } } }, 'has unknown key "tool"; did you mean "tools"?'],
    [{ serverinfo: { name: "x", version: "1" } }, 'has unknown key "serverinfo"; did you mean "serverInfo"?'],
    [{ transport: "memory", ports: 1 }, 'has unknown key "ports"; did you mean "port"?'],
  ])("a typo in %j is refused with the closest option", async (options, expected) => {
    const message = await refusal({ transport: "memory", ...options });
    expect(message).toContain(`[mcp-testkit] mockMcp() options ${expected}`);
    expect(message).toContain('mockMcp() takes "tools", "resources", "prompts", "serverInfo"');
  });

  it("names every unknown key, and suggests only for the near ones", async () => {
    const message = await refusal({ transport: "memory", tool: {}, zzzzzz: 1 });
    expect(message).toMatch(/^\[mcp-testkit\] mockMcp\(\) options has unknown keys "tool" \(did you mean "tools"\?\), "zzzzzz"\. mockMcp\(\) takes /);
  });

  it.each([
    [{ instructions: 5 }, '"instructions" must be a string, got number 5.'],
    [{ serverInfo: { name: "x" } }, '"serverInfo" must be { name: string, version: string }, got {"name":"x"}.'],
    [{ getStream: "no" }, '"getStream" must be true or false, got "no".'],
    [{ allowedOrigins: "http://app.test" }, '"allowedOrigins" must be a list of strings, got "http://app.test".'],
    [{ responseMode: "xml" }, '"responseMode" must be "json" or "sse", got "xml".'],
    [{ http: true }, '"http" may only be false'],
    [{ port: 70000 }, '"port" must be a port number from 0 to 65535'],
    [{ maxBodyBytes: 1.5 }, '"maxBodyBytes" must be a whole number of bytes, 0 or more (the largest POST body the MCP endpoint reads), got number 1.5.'],
    [{ maxBodyBytes: -1 }, '"maxBodyBytes" must be a whole number of bytes, 0 or more'],
  ])("a value of the wrong kind, %j, is refused", async (options, expected) => {
    expect(await refusal({ transport: "memory", ...options })).toContain(expected);
  });

  it("options that are not an object are refused", async () => {
    expect(await refusal([])).toBe('[mcp-testkit] mockMcp() takes an options object such as { tools: { search: { returns: "found" } } }, got an array.');
  });

  it("the list of known options covers every option and the kit's options pass through", async () => {
    // The table is typed by the option interfaces, so this mainly guards against a row removed by mistake.
    expect(Object.keys(MOCK_OPTION_KINDS)).toEqual(expect.arrayContaining(["tools", "serverInfo", "recordLimit", "responseMode", "allowedHosts", "transport", "port", "stdio"]));
    const server = await mock({ serverInfo: { name: "acme", version: "1.0.0" }, pageSize: 5, recordLimit: 10, instructions: "hi", tools: { t: { returns: "ok" } } });
    const client = await connect(server);
    expect(client.getServerVersion()).toEqual({ name: "acme", version: "1.0.0" });
    expect(await client.callTool({ name: "t" })).toEqual({ content: [{ type: "text", text: "ok" }] });
  });
});

describe("resources", () => {
  it.each([
    [{ "notes://a": { txt: "x" } }, 'Resource "notes://a" has unknown key "txt"; did you mean "text"? It takes "name", "title", "description"'],
    [{ "notes://a": { text: 5 } }, 'Resource "notes://a": "text" must be a string, got number 5.'],
    [{ "notes://a": { text: "x", mimeType: 1 } }, 'Resource "notes://a": "mimeType" must be a string, got number 1.'],
    [{ today: "Ship the docs." }, 'Resource "today": the key must be an absolute URI with a scheme, such as "notes://today"'],
    [{ "notes://to day": "x" }, 'Resource "notes://to day": the key must be an absolute URI'],
    [{ "{day}": "x" }, 'Resource "{day}": the key must be an absolute URI template with a scheme'],
    [{ "notes://a": { text: "x", complete: { day: ["mon"] } } }, 'Resource "notes://a": "complete" works only on a URI template'],
    [{ "notes://{day}": { complete: { day: "mon" } } }, 'Resource "notes://{day}": "complete.day" must be a list of strings or a function'],
  ])("%j is refused", async (resources, expected) => {
    expect(await refusal({ transport: "memory", resources })).toContain(`[mcp-testkit] ${expected}`);
  });

  it("setResource() refuses the same way", async () => {
    const server = await mock();
    await expect(server.setResource("notes://a", { descripton: "x" } as never)).rejects.toThrow('Resource "notes://a" has unknown key "descripton"; did you mean "description"?');
  });
});

describe("prompts", () => {
  it.each([
    [{ greet: { mesages: [] } }, 'Prompt "greet" has unknown key "mesages"; did you mean "messages"?'],
    [{ greet: { arguments: [{ name: "who", requird: true }] } }, 'Prompt "greet" argument 1 has unknown key "requird"; did you mean "required"?'],
    [{ greet: { arguments: [{ name: "who", required: "yes" }] } }, 'Prompt "greet" argument 1: "required" must be true or false, got "yes".'],
    [{ greet: { messages: [{ role: "system", content: "x" }] } }, 'Prompt "greet" message 1: "role" must be "user" or "assistant", got "system".'],
    [{ greet: { messages: [{ role: "user", text: "x" }] } }, 'Prompt "greet" message 1 has unknown key "text". It takes "role", "content".'],
    [{ greet: { messages: "hi" } }, 'Prompt "greet": "messages" must be a list of { role, content } or a function (args) => messages, got "hi".'],
  ])("%j is refused", async (prompts, expected) => {
    expect(await refusal({ transport: "memory", prompts })).toContain(`[mcp-testkit] ${expected}`);
  });

  it("a well-formed prompt still serves", async () => {
    const server = await mock({ prompts: { greet: { arguments: [{ name: "who", required: true }], messages: (args) => [{ role: "user", content: `hi ${args.who}` }] } } });
    const client = await connect(server);
    const result = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "hi Ada" } }]);
  });
});
