/**
 * The JSON Schema shipped for scenario files (`schemas/scenario.schema.json`, for `$schema` in
 * editors) and the loader agree: every example scenario is valid for both, and each broken
 * scenario below is refused by both. The loader is what `mcp-testkit mock` does with a JSON
 * scenario: drop its `$schema`, then `mockMcp()` (here on the memory wire).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { withoutSchemaKey } from "../../src/cli/scenario.js";
import { mockMcp } from "../../src/index.js";

const readJson = (relative: string) => JSON.parse(readFileSync(fileURLToPath(new URL(relative, import.meta.url)), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
// The scenario schema refers to the fixture schema for its `fixtures` blocks, as an editor resolves it beside it.
ajv.addSchema(readJson("../../schemas/mcp-fakes.schema.json"));
const validate = ajv.compile(readJson("../../schemas/scenario.schema.json"));

/** The loader's verdict: undefined when it loads, else its message. */
async function loadError(scenario: Record<string, unknown>): Promise<string | undefined> {
  try {
    const server = await mockMcp({ transport: "memory", ...withoutSchemaKey(scenario) } as never);
    await server.close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const EXAMPLES = fileURLToPath(new URL("../../examples/scenarios/", import.meta.url));
const examples = readdirSync(EXAMPLES).filter((name) => name.endsWith(".json"));

describe("schemas/scenario.schema.json", () => {
  it("has example scenarios to hold it to", () => expect(examples.length).toBeGreaterThan(0));

  for (const name of examples) {
    it(`accepts examples/scenarios/${name}, which the loader loads`, async () => {
      const scenario = JSON.parse(readFileSync(join(EXAMPLES, name), "utf8"));
      expect(validate(scenario), JSON.stringify(validate.errors)).toBe(true);
      expect(await loadError(scenario)).toBeUndefined();
    });
  }

  const valid: Array<[string, Record<string, unknown>]> = [
    [
      "every step kind and a script",
      {
        tools: {
          script: [
            { returns: "a", repeat: 2 },
            { content: [{ type: "text", text: "b" }], structuredContent: { b: 1 } },
            { toolError: "no" },
            { throws: "x" },
            { throws: { code: -1, message: "m" } },
            { hang: true },
            { result: null },
            { disconnect: true },
            { raw: "}{" },
            { delayMs: 5 },
            { returns: "c", hang: false, stream: { mode: "sse", closeAfterEvents: 1, retryMs: 10 } },
            { inputRequired: { requestState: "s" } },
            { asks: [{ method: "elicitation/create", params: { message: "m", requestedSchema: { type: "object", properties: {} } } }, { method: "roots/list" }], returns: "asked" },
            { broadcast: [{ method: "notifications/tools/list_changed" }, { method: "notifications/resources/updated", params: { uri: "notes://a" } }], endSubscriptions: true, returns: "told" },
          ],
          one: { returns: { ok: true } },
          empty: {},
          defined: {
            title: "T",
            description: "d",
            inputSchema: { type: "object", properties: { q: { type: ["string", "null"] } }, required: ["q"] },
            outputSchema: { type: "object" },
            annotations: { readOnlyHint: true },
            icons: [{ src: "https://x/i.png" }],
            _meta: {},
            responses: { returns: "x" },
          },
        },
      },
    ],
    [
      "resources, templates and prompts in every form",
      {
        resources: {
          "notes://today": "text",
          "notes://bin": { blob: "AA==", size: 2, cache: { ttlMs: 10, cacheScope: "public" } },
          "notes://{day}": { name: "day", complete: { day: ["mon", "tue"] } },
        },
        prompts: { hello: "Say hi", full: { title: "F", arguments: [{ name: "a", required: true }], messages: [{ role: "assistant", content: { type: "text", text: "x" } }], complete: { a: ["x"] } } },
      },
    ],
    [
      "a resource, a template and a prompt that answer with an error (as a recording writes what it never saw)",
      {
        resources: { "notes://gone": { name: "gone", throws: "Not recorded" }, "notes://{day}": { throws: { code: -32002, message: "none" } } },
        prompts: { retired: { title: "R", throws: { code: -32602, message: "retired", data: {} } } },
      },
    ],
    [
      "the server and wire options",
      {
        $schema: "../../schemas/scenario.schema.json",
        serverInfo: { name: "s", version: "1", title: "S" },
        instructions: "i",
        capabilities: { logging: {} },
        protocolVersions: ["2025-06-18"],
        pageSize: 2,
        recordLimit: 0,
        onUnknownTool: "warn",
        inputTimeoutMs: 1000,
        cache: { ttlMs: 0, methods: { "tools/list": { ttlMs: 5 } } },
        responseMode: "sse",
        getStream: false,
        maxBodyBytes: 1000,
        dnsRebindingProtection: true,
        host: "127.0.0.1",
        allowedHosts: ["localhost"],
        allowedOrigins: ["http://x"],
        path: "/other",
        http: false,
        metrics: true,
        fixtures: [{ scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step: { delayMs: 1, returns: "late" } }] }] }],
        fakesOptions: { testIdsMax: 10, journalMax: 10 },
      },
    ],
  ];
  for (const [what, scenario] of valid) {
    it(`accepts ${what}, as the loader does`, async () => {
      expect(validate(scenario), JSON.stringify(validate.errors)).toBe(true);
      expect(await loadError(scenario)).toBeUndefined();
    });
  }

  const tool = (spec: unknown) => ({ tools: { t: spec } });
  const broken: Array<[string, Record<string, unknown>, string]> = [
    ["a misspelled option", { serverinfo: { name: "s", version: "1" } }, 'did you mean "serverInfo"?'],
    ['a step with "hang": "yes"', tool({ hang: "yes" }), '"hang" must be true or false'],
    ["a step with two answers", tool({ returns: "a", toolError: "b" }), 'gives "returns" and "toolError"; a step gives one answer'],
    ["a misspelled step key", tool({ retuns: "a" }), 'did you mean "returns"?'],
    ["a definition mixed with a step key", tool({ description: "d", returns: "a" }), 'Put steps under "responses"'],
    ["an empty script", tool([]), "empty list of steps"],
    ["an empty responses list", tool({ responses: [] }), "empty list of steps"],
    ["a step in a script with two answers", tool({ responses: [{ returns: "a" }, { hang: true, raw: "x" }] }), 'gives "hang" and "raw"'],
    ["repeat 0", tool({ returns: "a", repeat: 0 }), '"repeat" must be a whole number of calls, 1 or more'],
    ["a negative delay", tool({ delayMs: -5 }), '"delayMs" must be a number of ms from 0 to 2147483647, got number -5.'],
    ["a delay longer than a timer holds", tool({ delayMs: 3e9 }), '"delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000.'],
    ["an inputTimeoutMs longer than a timer holds", { inputTimeoutMs: 2 ** 31 }, '"inputTimeoutMs" must be a whole number of ms from 1 to 2147483647, got number 2147483648.'],
    [
      "a fixtures block whose step waits longer than a timer holds",
      { fixtures: { scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step: { delayMs: 3e9, returns: "late" } }] }] } },
      '"delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000.',
    ],
    ["structuredContent without content", tool({ structuredContent: { a: 1 } }), 'has "structuredContent" without "content"'],
    ["throws a number", tool({ throws: 42 }), '"throws" must be a message string'],
    ["a bad stream mode", tool({ returns: "a", stream: { mode: "sse2" } }), '"stream" must be'],
    ["inputRequired with neither key", tool({ inputRequired: {} }), '"inputRequired" must be'],
    ["asks that is not a list", tool({ asks: { method: "roots/list" }, returns: "a" }), '"asks" must be a list of { method, params? }'],
    ["an ask of a method a server cannot ask", tool({ asks: [{ method: "elicitation/creat" }] }), 'did you mean "elicitation/create"?'],
    ["an ask with params that are not an object", tool({ asks: [{ method: "ping", params: [] }] }), 'asks[0]: "params" must be an object'],
    ["a broadcast of a notification a step cannot send", tool({ broadcast: [{ method: "notifications/tool/list_changed" }] }), 'did you mean "notifications/tools/list_changed"?'],
    ["a resource update without its uri", tool({ broadcast: [{ method: "notifications/resources/updated", params: {} }] }), "give params: { uri"],
    ["endSubscriptions that is not a boolean", tool({ endSubscriptions: 1 }), '"endSubscriptions" must be true or false'],
    ["asks beside inputRequired", tool({ asks: [{ method: "ping" }], inputRequired: { requestState: "s" } }), 'gives "asks" and "inputRequired"'],
    [
      "a fixtures block whose step asks with a stray key",
      { fixtures: { scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step: { asks: [{ method: "ping", param: {} }] } }] }] } },
      "asks[0]",
    ],
    ["an inputSchema with a misspelled type", tool({ inputSchema: { type: "object", properties: { q: { type: "strng" } } } }), 'did you mean "string"?'],
    ["tools as a list", { tools: [{ name: "t" }] }, '"tools" must be an object keyed by name'],
    ["serverInfo without a version", { serverInfo: { name: "s" } }, '"serverInfo" must be { name: string, version: string }'],
    ["a responseMode that is not json or sse", { responseMode: "xml" }, '"responseMode" must be "json" or "sse"'],
    ["a port out of range", { port: 70000 }, '"port" must be a port number from 0 to 65535'],
    ["a path without a leading slash", { path: "mcp", transport: "http" }, '"path" must start with "/"'],
    ["http: true", { http: true }, '"http" may only be false'],
    ["an unknown onUnknownTool", { onUnknownTool: "ignore" }, '"onUnknownTool" must be "error", "warn" or a function'],
    ["pageSize 0", { pageSize: 0 }, '"pageSize" must be a whole number of items, 1 or more'],
    ["no protocol versions", { protocolVersions: [] }, '"protocolVersions" must be a non-empty list'],
    ["a negative cache TTL", { cache: { ttlMs: -1 } }, "ttlMs must be a whole number of milliseconds"],
    ["cache hints for a method that is not cacheable", { cache: { methods: { "tools/call": { ttlMs: 1 } } } }, "which is not cacheable"],
    ["a resource URI without a scheme", { resources: { labels: "x" } }, "must be an absolute URI with a scheme"],
    ["a resource with both text and blob", { resources: { "notes://a": { text: "a", blob: "AA==" } } }, 'gives both "text" and "blob"'],
    ["a resource with both throws and text", { resources: { "notes://a": { text: "a", throws: "gone" } } }, 'gives "throws" and "text"'],
    ["a prompt with both throws and messages", { prompts: { p: { messages: [], throws: "gone" } } }, 'gives "throws" and "messages"'],
    ["a misspelled resource key", { resources: { "notes://a": { mimetype: "text/plain", text: "a" } } }, 'did you mean "mimeType"?'],
    ["a prompt message with the role system", { prompts: { p: { messages: [{ role: "system", content: "x" }] } } }, '"role" must be "user" or "assistant"'],
    ["a prompt argument without a name", { prompts: { p: { arguments: [{ description: "d" }] } } }, 'argument 1 has no "name"'],
    ["a fixtures block with no tools, resources or prompts", { fixtures: { scope: "shared" } }, 'has none of "tools", "resources" and "prompts"'],
    ["a fixtures block with a bad step", { fixtures: { scope: "shared", tools: [{ name: "f", calls: [{ anyArgs: true, step: { hang: "yes" } }] }] } }, '"hang" must be true or false'],
  ];
  for (const [what, scenario, message] of broken) {
    it(`refuses ${what}, as the loader does`, async () => {
      expect(validate(scenario)).toBe(false);
      expect(await loadError(scenario)).toContain(message);
    });
  }
});
