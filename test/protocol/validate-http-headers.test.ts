/**
 * `validateMessage(message, { headers })`: the Streamable HTTP header rules for a message that
 * comes with its HTTP headers. Conforming requests (the spec's own examples among them) pass;
 * each rule broken is reported at `headers.<name>`, and the mock refuses the same request with
 * the same words, since both use one implementation of the rules. The recorder checks them
 * where it sees the HTTP exchange (the simulator).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { connect, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateMessage } from "../../src/protocol/validate/index.js";
import { modernRequestHeaders } from "../../src/driver/modern-http.js";
import { memoryMock, mcpPost, simulator, useCleanup, INITIALIZE } from "../simulate/support.js";

useCleanup();

const MODERN = "2026-07-28";
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "ExampleClient", version: "1.0.0" }, "io.modelcontextprotocol/clientCapabilities": {} };
const request = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } });

/** The spec's `execute_sql`, with an integer and a nested mirrored parameter added. */
const sql = {
  name: "execute_sql",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      limit: { type: "integer", "x-mcp-header": "Limit" },
      target: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
      query: { type: "string" },
    },
    required: ["region", "query"],
  },
};
const sqlCall = (args: Record<string, unknown> = { region: "us-west1", query: "SELECT * FROM users" }) => request("tools/call", { name: "execute_sql", arguments: args });

/** The headers a conforming client sends for `message` (as the driver builds them), changed by `change` (null drops one). */
function headersFor(message: unknown, change: Record<string, string | null> = {}, tools = [sql]): Record<string, string> {
  const { method, params } = message as { method: string; params?: Record<string, unknown> };
  const headers = modernRequestHeaders(method, params, (name) => tools.find((tool) => tool.name === name)?.inputSchema) ?? {};
  for (const [name, value] of Object.entries(change)) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return headers;
}

/**
 * The headers node's HTTP server reads from a POST whose head carries these lines, in this order,
 * written as raw bytes on a socket to 127.0.0.1 (so nothing merges them on the way).
 */
async function nodeReads(lines: readonly string[]): Promise<IncomingHttpHeaders> {
  let seen: IncomingHttpHeaders | undefined;
  const server = createServer((request, response) => {
    seen = request.headers;
    response.writeHead(204, { connection: "close" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const head = ["POST /mcp HTTP/1.1", `Host: 127.0.0.1:${port}`, ...lines, "Content-Length: 0", "Connection: close", "", ""].join("\r\n");
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(head));
      const timer = setTimeout(() => socket.destroy(new Error("no answer within 3 s")), 3000);
      socket.resume();
      socket.on("close", () => (clearTimeout(timer), resolve()));
      socket.on("error", (error) => (clearTimeout(timer), reject(error)));
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (seen === undefined) throw new Error("the server saw no request");
  return seen;
}

const fromClient = (headers: unknown, extra: Record<string, unknown> = {}) =>
  ({ direction: "client-to-server", protocolVersion: MODERN, headers, tools: [sql], ...extra }) as Parameters<typeof validateMessage>[1];
const headerProblems = (message: unknown, options: Parameters<typeof validateMessage>[1]) =>
  validateMessage(message, options)
    .filter((problem) => problem.rule === "http.header")
    .map((problem) => [problem.path, problem.message]);

describe("2026-07-28: conforming headers pass", () => {
  it("the spec's tools/call, resources/read and execute_sql requests, with the headers the spec shows", () => {
    const weather = request("tools/call", { name: "get_weather", arguments: { location: "Seattle, WA" } });
    expect(validateMessage(weather, fromClient({ "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "get_weather" }))).toEqual([]);
    const read = request("resources/read", { uri: "file:///projects/myapp/config.json" });
    expect(validateMessage(read, fromClient(new Headers({ "mcp-protocol-version": MODERN, "mcp-method": "resources/read", "mcp-name": "file:///projects/myapp/config.json" })))).toEqual([]);
    const headers = { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "execute_sql", "Mcp-Param-Region": "us-west1" };
    expect(validateMessage(sqlCall(), fromClient(headers))).toEqual([]);
  });

  it("every request example of the spec, with the headers the driver builds for it", () => {
    const root = fileURLToPath(new URL("./fixtures/spec-2026-07-28", import.meta.url));
    const requests = readdirSync(root)
      .filter((type) => type.endsWith("Request") && !["CreateMessageRequest", "ElicitRequest", "ListRootsRequest"].includes(type))
      .flatMap((type) => readdirSync(path.join(root, type)).map((file) => JSON.parse(readFileSync(path.join(root, type, file), "utf8"))));
    expect(requests.length).toBeGreaterThanOrEqual(8);
    for (const example of requests) expect([example.method, validateMessage(example, fromClient(headersFor(example)))]).toEqual([example.method, []]);
  });

  it("Base64 sentinels are decoded, integers compare as numbers, absent and null parameters need no header", () => {
    const named = request("prompts/get", { name: "wetter-größe" });
    expect(validateMessage(named, fromClient({ ...headersFor(named) }))).toEqual([]);
    expect(headersFor(named)["mcp-name"]).toBe(`=?base64?${Buffer.from("wetter-größe").toString("base64")}?=`);
    const call = sqlCall({ region: " padded ", limit: 42, query: "q", target: { tenant: "acme" } });
    const headers = headersFor(call, { "mcp-param-limit": "42.0" });
    expect(headers["mcp-param-tenant"]).toBe("acme");
    expect(validateMessage(call, fromClient(headers))).toEqual([]);
    const sparse = sqlCall({ region: null, query: "q" });
    expect(validateMessage(sparse, fromClient(headersFor(sparse)))).toEqual([]);
  });

  it.each(["0x2A", "0b101010", "+42", "042", " 42", "4.2e1x", "Infinity"])("a number header must be the body's number in decimal: %j is not 42", (spelled) => {
    const call = sqlCall({ region: "eu", limit: 42, query: "q", target: { tenant: "acme" } });
    const problems = validateMessage(call, fromClient(headersFor(call, { "mcp-param-limit": spelled })));
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining(`Mcp-Param-Limit header value ${JSON.stringify(spelled)}`) })]);
  });

  it("a number in JSON's decimal spellings is the same number (42, 42.0, 4.2e1)", () => {
    const call = sqlCall({ region: "eu", limit: 42, query: "q", target: { tenant: "acme" } });
    for (const spelled of ["42", "42.0", "4.2e1"]) expect(validateMessage(call, fromClient(headersFor(call, { "mcp-param-limit": spelled })))).toEqual([]);
  });

  it("notifications have no header rules in this revision; an unknown tool's parameters are not judged", () => {
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    expect(headerProblems(note, fromClient({}))).toEqual([]);
    const other = request("tools/call", { name: "not_listed", arguments: { region: "x" } });
    expect(validateMessage(other, fromClient(headersFor(other)))).toEqual([]);
  });
});

describe("2026-07-28: each rule broken is reported at its header", () => {
  it.each([
    [
      "no MCP-Protocol-Version",
      { "mcp-protocol-version": null },
      "headers.mcp-protocol-version",
      /MCP-Protocol-Version header is required on every POST, and must equal params._meta\["io.modelcontextprotocol\/protocolVersion"\] \("2026-07-28"\)/,
    ],
    [
      "MCP-Protocol-Version unlike _meta",
      { "mcp-protocol-version": "2025-11-25" },
      "headers.mcp-protocol-version",
      /MCP-Protocol-Version header value "2025-11-25" does not match the body's _meta version "2026-07-28"/,
    ],
    ["no Mcp-Method", { "mcp-method": null }, "headers.mcp-method", /Mcp-Method header is required on every request \(expected "tools\/call"\)/],
    ["Mcp-Method unlike the body", { "mcp-method": "tools/list" }, "headers.mcp-method", /Mcp-Method header value "tools\/list" does not match the body's method "tools\/call"/],
    ["no Mcp-Name", { "mcp-name": null }, "headers.mcp-name", /Mcp-Name header is required on tools\/call \(expected params.name, "execute_sql"\)/],
    ["Mcp-Name unlike the body", { "mcp-name": "other" }, "headers.mcp-name", /Mcp-Name header value "other" does not match the body's params.name "execute_sql"/],
    ["a malformed Base64 sentinel", { "mcp-name": "=?base64?***?=" }, "headers.mcp-name", /Mcp-Name header value "=\?base64\?\*\*\*\?=" is not valid Base64/],
    ["a raw non-ASCII value", { "mcp-name": "exécute" }, "headers.mcp-name", /has characters a header value may not carry .* travels as =\?base64\?…\?=/],
    [
      "a mirrored parameter left out",
      { "mcp-param-region": null },
      "headers.mcp-param-region",
      /Mcp-Param-Region header is required: tool "execute_sql" mirrors arguments.region \("us-west1"\) into it \(x-mcp-header\)/,
    ],
    [
      "a mirrored parameter unlike the body",
      { "mcp-param-region": "eu-north1" },
      "headers.mcp-param-region",
      /Mcp-Param-Region header value "eu-north1" does not match the body's arguments.region "us-west1"/,
    ],
    [
      "a mirrored parameter sent for an argument the body lacks",
      { "mcp-param-limit": "7" },
      "headers.mcp-param-limit",
      /^Mcp-Param-Limit header value "7" mirrors nothing: the body's arguments.limit is absent \(a client omits the header then\)$/,
    ],
    [
      "a nested mirrored parameter sent for an argument the body lacks",
      { "mcp-param-tenant": "acme" },
      "headers.mcp-param-tenant",
      /^Mcp-Param-Tenant header value "acme" mirrors nothing: the body's arguments.target.tenant is absent/,
    ],
  ])("%s", (_what, change, at, message) => {
    const call = sqlCall();
    const problems = headerProblems(call, fromClient(headersFor(call, change)));
    expect(problems).toHaveLength(1);
    expect(problems[0]![0]).toBe(at);
    expect(problems[0]![1]).toMatch(message);
  });

  it("a mirrored parameter sent for a null argument mirrors nothing either (the spec: the client omits it)", () => {
    const call = sqlCall({ region: null, query: "q" });
    expect(headerProblems(call, fromClient(headersFor(call, { "mcp-param-region": "us-west1" })))).toEqual([
      ["headers.mcp-param-region", 'Mcp-Param-Region header value "us-west1" mirrors nothing: the body\'s arguments.region is null (a client omits the header then)'],
    ]);
    // Without the header, the same call passes: an absent or null argument asks for no header.
    expect(headerProblems(call, fromClient(headersFor(call)))).toEqual([]);
  });

  it("a plain value the client should have encoded says how it travels", () => {
    const call = sqlCall({ region: " padded ", query: "q" });
    // A parser trims edge whitespace, so a client that sent it plain is seen sending "padded".
    const [[, message]] = headerProblems(call, fromClient(headersFor(call, { "mcp-param-region": "padded" }))) as [string, string][];
    expect(message).toMatch(/does not match the body's arguments.region " padded " \(a value that is not plain ASCII, or has spaces at its ends, travels as =\?base64\?…\?=\)/);
  });

  it("every problem of one request is reported, not only the first; integers and nested paths are named", () => {
    const call = sqlCall({ region: "us-west1", limit: 7, query: "q", target: { tenant: "acme" } });
    const headers = { "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/list", "mcp-param-limit": "8" };
    expect(headerProblems(call, fromClient(headers)).map(([at]) => at)).toEqual([
      "headers.mcp-protocol-version",
      "headers.mcp-method",
      "headers.mcp-name",
      "headers.mcp-param-region",
      "headers.mcp-param-limit",
      "headers.mcp-param-tenant",
    ]);
  });

  it("header names in any case; a list of values reads joined, as on the wire (a repeated version is a mismatch)", () => {
    const call = sqlCall();
    const headers = { "MCP-PROTOCOL-VERSION": [MODERN], "mcp-METHOD": "tools/call", "Mcp-Name": ["execute_sql"], "mcp-param-region": "us-west1" };
    expect(validateMessage(call, fromClient(headers))).toEqual([]);
    const repeated = validateMessage(call, fromClient({ ...headers, "MCP-PROTOCOL-VERSION": [MODERN, "2025-11-25"] }));
    expect(repeated.map((problem) => [problem.path, problem.message])).toEqual([
      ["headers.mcp-protocol-version", `MCP-Protocol-Version header value "${MODERN}, 2025-11-25" does not match the body's _meta version "${MODERN}"`],
    ]);
  });

  it("one header named in two letter cases in a record is one repeated header, its values joined in the record's order, as Headers and node read it", async () => {
    const call = sqlCall();
    const { "mcp-method": _sent, ...others } = headersFor(call);
    const twice = { ...others, "Mcp-Method": "tools/call", "mcp-method": "tools/list" };
    const joined = [["headers.mcp-method", 'Mcp-Method header value "tools/call, tools/list" does not match the body\'s method "tools/call"']];
    expect(headerProblems(call, fromClient(twice))).toEqual(joined);
    // Neither value is dropped, whichever comes first: the other order reads the other way round.
    expect(headerProblems(call, fromClient({ ...others, "mcp-method": "tools/list", "Mcp-Method": "tools/call" }))).toEqual([
      ["headers.mcp-method", 'Mcp-Method header value "tools/list, tools/call" does not match the body\'s method "tools/call"'],
    ]);
    // Even the same value twice is not the method: a repeated Mcp-Method is a mismatch.
    expect(headerProblems(call, fromClient({ ...others, "Mcp-Method": "tools/call", "mcp-method": "tools/call" }))[0]?.[1]).toMatch(/value "tools\/call, tools\/call" does not match/);

    // Web Headers made from the same record hold the same value, and the validator reads them alike.
    expect(new Headers(twice).get("mcp-method")).toBe("tools/call, tools/list");
    expect(headerProblems(call, fromClient(new Headers(twice)))).toEqual(joined);
    // So does node's HTTP server, given the two header lines on a socket: its req.headers, validated, say the same.
    const received = await nodeReads(Object.entries(twice).map(([name, value]) => `${name}: ${value}`));
    expect(received["mcp-method"]).toBe("tools/call, tools/list");
    expect(headerProblems(call, fromClient(received))).toEqual(joined);
  });

  it("a body that names no version: the body is reported by the schema, the header only for being absent", () => {
    const call = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const problems = validateMessage(call, fromClient({ "mcp-method": "tools/list" }));
    expect(problems.map((problem) => [problem.path, problem.rule])).toEqual([
      ["$.params._meta", "params.shape"],
      ["headers.mcp-protocol-version", "http.header"],
    ]);
    expect(problems[1]!.message).toBe("the MCP-Protocol-Version header is required on every POST");
  });
});

describe("the mock refuses what the validator reports, in the same words", () => {
  it.each([
    ["MCP-Protocol-Version unlike _meta", { "mcp-protocol-version": "2025-11-25" }],
    ["no Mcp-Method", { "mcp-method": null }],
    ["Mcp-Name unlike the body", { "mcp-name": "other" }],
    ["a malformed Base64 sentinel", { "mcp-name": "=?base64?***?=" }],
    ["a mirrored parameter left out", { "mcp-param-region": null }],
    ["a mirrored parameter unlike the body", { "mcp-param-region": "eu-north1" }],
    ["a mirrored parameter sent for an argument the body lacks", { "mcp-param-limit": "7" }],
  ])("%s", async (_what, change) => {
    const server = await memoryMock({ tools: { execute_sql: { inputSchema: sql.inputSchema, responses: [{ returns: "rows" }] } } });
    const sim = simulator(server);
    const list = request("tools/list");
    await (await sim.startRequest(mcpPost(list, headersFor(list)))).awaitCompletion(2000);
    const call = { ...sqlCall(), id: 2 };
    const headers = headersFor(call, change);
    const simulation = await sim.startRequest(mcpPost(call, headers));
    const response = await simulation.awaitResponse(2000);
    const error = (response!.json as { error: { code: number; message: string } }).error;
    expect([response?.status, error.code]).toEqual([400, -32020]);
    const [[, message]] = headerProblems(call, fromClient(headers)) as [string, string][];
    expect(error.message).toBe(`Header mismatch: ${message}`);
    // The simulator's recorder saw the POST with its headers, and reports the same problem.
    expect(sim.recorder.problems.filter((problem) => problem.rule === "http.header").map((problem) => problem.message)).toEqual([message]);
  });

  it("the recorder learns the tools from tools/list, so Mcp-Param-* are judged for a tool the server has", async () => {
    const server = await memoryMock({ tools: { execute_sql: { inputSchema: sql.inputSchema, responses: [{ returns: "rows" }] } } });
    const sim = simulator(server);
    const list = request("tools/list");
    await (await sim.startRequest(mcpPost(list, headersFor(list)))).awaitCompletion(2000);
    const call = { ...sqlCall(), id: 2 };
    const simulation = await sim.startRequest(mcpPost(call, headersFor(call, { "mcp-param-region": null })));
    expect((await simulation.awaitResponse(2000))?.status).toBe(400);
    expect(sim.recorder.problems.map((problem) => [problem.path, problem.method])).toEqual([["headers.mcp-param-region", "tools/call"]]);
  });
});

describe("the legacy era's header rules", () => {
  const legacy = (protocolVersion: string, headers: unknown, sessionId?: string) =>
    ({ direction: "client-to-server", protocolVersion, headers, ...(sessionId !== undefined && { sessionId }) }) as Parameters<typeof validateMessage>[1];
  const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };

  it("2025-06-18 and later: MCP-Protocol-Version on every POST after initialize, equal to the negotiated version", () => {
    expect(headerProblems(list, legacy("2025-11-25", { "mcp-protocol-version": "2025-11-25" }))).toEqual([]);
    expect(headerProblems(list, legacy("2025-06-18", {}))).toEqual([
      [
        "headers.mcp-protocol-version",
        'the MCP-Protocol-Version header is required on every POST after initialize in 2025-06-18 (expected "2025-06-18", the negotiated version); a server may assume 2025-03-26 without it',
      ],
    ]);
    expect(headerProblems(list, legacy("2025-11-25", { "mcp-protocol-version": "2025-06-18" }))).toEqual([
      ["headers.mcp-protocol-version", 'MCP-Protocol-Version header value "2025-06-18" is not the negotiated version "2025-11-25"'],
    ]);
    // A notification after initialize is a POST too.
    expect(headerProblems({ jsonrpc: "2.0", method: "notifications/initialized" }, legacy("2025-11-25", {})).map(([at]) => at)).toEqual(["headers.mcp-protocol-version"]);
  });

  it("initialize itself needs neither header; 2025-03-26 has no version header, 2024-11-05 no Streamable HTTP", () => {
    expect(headerProblems(INITIALIZE, legacy("2025-11-25", {}, "abc"))).toEqual([]);
    expect(headerProblems(list, legacy("2025-03-26", {}))).toEqual([]);
    expect(headerProblems(list, legacy("2024-11-05", {}, "abc"))).toEqual([]);
  });

  it("Mcp-Session-Id: with the session the server gave, every later POST sends it back; a batch is one POST", () => {
    const version = { "mcp-protocol-version": "2025-11-25" };
    expect(headerProblems(list, legacy("2025-11-25", version))).toEqual([]);
    expect(headerProblems(list, legacy("2025-11-25", { ...version, "mcp-session-id": "abc" }, "abc"))).toEqual([]);
    expect(headerProblems(list, legacy("2025-11-25", version, "abc"))).toEqual([
      ["headers.mcp-session-id", 'the Mcp-Session-Id header is required on every POST after initialize: the server gave session "abc"'],
    ]);
    expect(headerProblems(list, legacy("2025-11-25", { ...version, "mcp-session-id": "abd" }, "abc"))).toEqual([
      ["headers.mcp-session-id", 'Mcp-Session-Id header value "abd" is not the session the server gave, "abc"'],
    ]);
    const batch = [list, { ...list, id: 3 }];
    expect(headerProblems(batch, legacy("2025-03-26", {}, "abc")).map(([at]) => at)).toEqual(["headers.mcp-session-id"]);
  });

  it("a server's answer to initialize: a session id of visible ASCII only", () => {
    const answer = { jsonrpc: "2.0", id: "init-1", result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } };
    const options = (sessionId: string) => ({ direction: "server-to-client", protocolVersion: "2025-11-25", requestMethod: "initialize", headers: { "mcp-session-id": sessionId } }) as const;
    expect(validateMessage(answer, options("0f3a-UUID"))).toEqual([]);
    expect(headerProblems(answer, options("has space"))).toEqual([["headers.mcp-session-id", 'Mcp-Session-Id "has space" must contain only visible ASCII characters (0x21 to 0x7E)']]);
  });

  it("the recorder learns the session id from the initialize answer, and reports a later POST without it", async () => {
    const sim = simulator(await memoryMock());
    const init = await sim.startRequest(mcpPost(INITIALIZE));
    const sessionId = (await init.awaitResponse(2000))?.header("mcp-session-id");
    await init.awaitCompletion(2000);
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    const forgot = await sim.startRequest(mcpPost({ ...list, id: 5 }, { "mcp-protocol-version": "2025-11-25" }));
    // The mock refuses it (400), and the recorder says which rule the client broke.
    expect((await forgot.awaitResponse(2000))?.status).toBe(400);
    expect(sim.recorder.problems.map((problem) => [problem.path, problem.rule])).toEqual([["headers.mcp-session-id", "http.header"]]);
  });
});
