/**
 * examples/conformance/client.js is the program `npm run conformance` hands to the official
 * suite's client mode (Node 22, slow, outside `npm test`). These fast checks run it the way the
 * suite does (the server URL as its last argument, the scenario in MCP_CONFORMANCE_SCENARIO)
 * against our own mock over HTTP, with the tools the four client scenarios offer: a tool with
 * number arguments (tools_call), one that elicits with SEP-1034 defaults, and one whose SSE
 * stream closes after its priming event (sse-retry). So the client program cannot rot.
 *
 * The program imports the built package (dist/), as `npm test` builds before running vitest.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { mockMcp, type MockMcpOptions, type MockMcpServer, type ToolCallContext } from "../../src/index.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLIENT = resolve(ROOT, "examples/conformance/client.js");

/** The requestedSchema of the suite's elicitation-sep1034-client-defaults scenario, as it sends it. */
const SEP1034_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
};
const SEP1034_DEFAULTS = { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true };

const scenario: MockMcpOptions = {
  serverInfo: { name: "conformance-client-test", version: "1.0.0" },
  responseMode: "sse",
  tools: {
    add_numbers: {
      description: "Add two numbers together",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
        required: ["a", "b"],
      },
      responses: (call: ToolCallContext) => {
        const { a, b } = call.arguments as { a: number; b: number };
        return { content: [{ type: "text", text: `The sum of ${a} and ${b} is ${a + b}` }] };
      },
    },
    test_client_elicitation_defaults: {
      description: "Tests that client applies defaults for omitted elicitation fields",
      inputSchema: { type: "object", properties: {}, required: [] },
      responses: async (call: ToolCallContext) => {
        const answer = await call.elicit({ message: "Test client default value handling - please accept with defaults", requestedSchema: SEP1034_SCHEMA });
        return { content: [{ type: "text", text: `Elicitation completed: ${answer.action} ${JSON.stringify(answer.content ?? {})}` }] };
      },
    },
    test_reconnection: {
      description: "Closes its SSE stream right after the priming event; the answer needs a resumed stream",
      inputSchema: { type: "object", properties: {}, required: [] },
      responses: {
        stream: { mode: "sse", closeAfterEvents: 0, retryMs: 200 },
        delayMs: 50,
        content: [{ type: "text", text: "Reconnection test completed successfully" }],
      },
    },
  },
} satisfies MockMcpOptions;

let server: MockMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(() => {
  if (!existsSync(resolve(ROOT, "dist/index.js"))) throw new Error("examples/conformance/client.js imports the built package: run `npm run build` first (npm test does).");
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs client.js as the suite does: `<command> <server-url>`, MCP_CONFORMANCE_SCENARIO set. */
function runClient(url: string, scenarioName: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [CLIENT, url], { cwd: ROOT, env: { ...process.env, MCP_CONFORMANCE_SCENARIO: scenarioName, ...env }, timeout: 20_000 }, (error, stdout, stderr) =>
      resolvePromise({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("examples/conformance/client.js (conformance client mode, on the driver)", () => {
  it("initializes, lists the tools and calls each one: arguments from the schema, elicitation answered with the defaults, a closed stream resumed", async () => {
    server = await mockMcp({ ...scenario, transport: "http", host: "127.0.0.1" });
    // The 2025 suite's scenario (SSE resumption is the legacy era's): our dual-era mock would be spoken to in 2026-07-28.
    const run = await runClient(server.url!, "tools_call", { MCP_TESTKIT_VERSION_NEGOTIATION: "legacy" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    // initialize: the latest version and a clientInfo with name and version.
    const initialize = server.messages.find((message) => "method" in message && message.method === "initialize") as { params: Record<string, any> } | undefined;
    expect(initialize?.params).toMatchObject({ protocolVersion: "2025-11-25", clientInfo: { name: expect.any(String), version: expect.any(String) }, capabilities: { elicitation: {} } });

    // tools_call: add_numbers called with numbers.
    const [add] = server.callsTo("add_numbers");
    expect(add?.arguments).toEqual({ a: expect.any(Number), b: expect.any(Number) });
    expect(run.stdout).toMatch(/tools\/call add_numbers .* -> The sum of/);

    // elicitation-sep1034-client-defaults: accepted, with every default.
    const [elicit] = server.callsTo("test_client_elicitation_defaults");
    expect(elicit?.exchanges).toHaveLength(1);
    expect(elicit?.exchanges[0]).toMatchObject({ method: "elicitation/create", result: { action: "accept", content: SEP1034_DEFAULTS } });

    // sse-retry: the answer arrived although its stream closed before it.
    expect(server.callsTo("test_reconnection")).toHaveLength(1);
    expect(run.stdout).toContain("tools/call test_reconnection {} -> Reconnection test completed successfully");
  });

  it("exits non-zero with the error on stderr when the server is not there", async () => {
    server = await mockMcp({ ...scenario, transport: "http", host: "127.0.0.1" });
    const url = server.url!;
    await server.close();
    server = undefined;
    const run = await runClient(url, "initialize");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[client\] failed: /);
  });
});

describe("examples/conformance/client.js helpers", () => {
  async function helpers() {
    return (await import(pathToFileURL(CLIENT).href)) as {
      answerElicitation(params: Record<string, unknown>): { action: string; content?: Record<string, unknown> };
      argumentsFor(schema: unknown): Record<string, unknown>;
      plannedCalls(tools: unknown[], context: Record<string, unknown>): { name: string; args: Record<string, unknown> }[];
      authFor(scenario: string, context: Record<string, unknown>): Record<string, unknown> | undefined;
    };
  }

  it("signs in for auth/* scenarios with what their context gives: a machine client, a pre-registered one, else a metadata document URL", async () => {
    const { authFor } = await helpers();
    expect(authFor("tools_call", {})).toBeUndefined();
    expect(authFor("auth/basic-cimd", {})).toEqual({ clientMetadataUrl: "https://conformance-test.local/client-metadata.json" });
    expect(authFor("auth/pre-registration", { client_id: "c", client_secret: "s" })).toEqual({ clientId: "c", clientSecret: "s" });
    expect(authFor("auth/client-credentials-basic", { client_id: "c", client_secret: "s" })).toEqual({ grant: "client_credentials", clientId: "c", clientSecret: "s" });
    expect(authFor("auth/client-credentials-jwt", { client_id: "c", private_key_pem: "PEM", signing_algorithm: "ES256" })).toEqual({
      grant: "client_credentials",
      clientId: "c",
      privateKey: "PEM",
      signingAlgorithm: "ES256",
    });
  }, 60_000); // the first import of the built package

  it("plans the calls: the scenario context's own (2026-07-28 header scenarios), else each tool, echoing a schema back verbatim where a tool asks for one", async () => {
    const { plannedCalls } = await helpers();
    const tools = [
      { name: "rich", inputSchema: { type: "object", $defs: { a: { type: "string" } }, properties: { n: { type: "integer" } }, required: ["n"] } },
      { name: "echo", inputSchema: { type: "object", properties: { schema: { type: "object", description: "The inputSchema the client observed, passed back verbatim." } }, required: ["schema"] } },
    ];
    expect(plannedCalls(tools, {})).toEqual([
      { name: "rich", args: { n: 1 } },
      { name: "echo", args: { schema: tools[0]!.inputSchema } },
    ]);
    expect(plannedCalls(tools, { toolCalls: [{ name: "rich", arguments: { n: "Hello, 世界" } }, { name: "echo" }] })).toEqual([
      { name: "rich", args: { n: "Hello, 世界" } },
      { name: "echo", args: {} },
    ]);
  });

  it("answers a form elicitation with the schema's defaults (SEP-1034), sample values for required fields without one", async () => {
    const { answerElicitation } = await helpers();
    expect(answerElicitation({ message: "m", requestedSchema: SEP1034_SCHEMA })).toEqual({ action: "accept", content: SEP1034_DEFAULTS });
    expect(
      answerElicitation({
        message: "m",
        requestedSchema: {
          type: "object",
          properties: {
            email: { type: "string", format: "email" },
            choice: { type: "string", oneOf: [{ const: "v1", title: "One" }] },
            optional: { type: "string" },
          },
          required: ["email", "choice"],
        },
      }),
    ).toEqual({ action: "accept", content: { email: "user@example.com", choice: "v1" } });
  });

  it("declines URL-mode elicitation and forms it cannot fill", async () => {
    const { answerElicitation } = await helpers();
    expect(answerElicitation({ mode: "url", message: "m", url: "https://example.com", elicitationId: "1" })).toEqual({ action: "decline" });
    expect(answerElicitation({ message: "m", requestedSchema: { type: "object", properties: { x: {} }, required: ["x"] } })).toEqual({ action: "decline" });
  });

  it("builds tool arguments from the input schema: required properties and defaults only", async () => {
    const { argumentsFor } = await helpers();
    expect(
      argumentsFor({
        type: "object",
        properties: { a: { type: "number" }, n: { type: "integer", minimum: 3 }, s: { type: "string" }, d: { type: "string", default: "z" }, skip: { type: "boolean" } },
        required: ["a", "n", "s"],
      }),
    ).toEqual({ a: 1, n: 3, s: "xxxx", d: "z" });
    expect(argumentsFor(undefined)).toEqual({});
  });
});
