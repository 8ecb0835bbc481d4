#!/usr/bin/env node
/**
 * A client for the official MCP conformance suite's CLIENT mode
 * (@modelcontextprotocol/conformance 0.1.16), built on mcp-testkit's driver (`mcpConnect`):
 * the suite starts a scenario server, runs this program with the server's URL as its last
 * argument and the scenario's name in MCP_CONFORMANCE_SCENARIO, and checks what it sent.
 *
 *   node examples/conformance/client.js <server-url>        (needs `npm run build`)
 *   npm run conformance -- --mode client                    runs the scenarios below (both suites)
 *
 * It does what a good client does, whatever the scenario: initialize (latest protocol version,
 * clientInfo, the elicitation capability), list the tools (every page), call each one with
 * arguments built from its input schema, and answer the server's requests while a call runs:
 *
 * - `elicitation/create` (form mode): accept with the requested schema's `default` values
 *   applied (SEP-1034), a plausible value for a required field without a default; URL mode,
 *   or a required field no value can be made for, is declined;
 * - streams that close before their answer: the SDK transport under the driver waits the
 *   server's `retry:` and resumes with `Last-Event-ID` (SEP-1699), which the driver sees as
 *   an ordinary, slightly late answer.
 *
 * Scenarios and what they check:
 *   initialize                           protocolVersion, clientInfo name and version
 *   tools_call                           add_numbers is listed and called with numbers
 *   elicitation-sep1034-client-defaults  the elicitation is accepted with all five defaults
 *   sse-retry                            the GET reconnection waits `retry:`, with Last-Event-ID
 * and, in 0.2.0-alpha.12 with --spec-version 2026-07-28 (`npm run conformance -- --spec 2026
 * --mode client`; 8 of 8 passed):
 *   tools_call, request-metadata          _meta on every request, a retry after -32022
 *   sep-2322-client-request-state         MRTR: requestState echoed, new ids, resultType defaulted
 *   http-standard-headers, http-custom-headers, http-invalid-tool-headers
 *                                         Mcp-Method / Mcp-Name / Mcp-Param-* (calls and arguments
 *                                         from MCP_CONFORMANCE_CONTEXT), invalid tools left out
 *   json-schema-ref-no-deref, json-schema-2020-12-preservation
 *                                         schemas kept as received (one echoed back verbatim)
 * and the Skills extension's client scenarios (with --force; `npm run conformance -- --spec 2026
 * --mode client` runs them in rows of their own):
 *   sep-2640-client-no-prefetch          skills listed, no file read
 *   sep-2640-client-verify-digest, -size, -frontmatter
 *                                         SKILL.md refused on a failed check; nothing more read
 *
 * and the authorization scenarios of 0.2.0-alpha.12 (`auth/*`: 25 at 2026-07-28, 14 at 2025-11-25,
 * the 2025-03-26 pair, and the client-credentials extensions): the driver signs in (`auth` of
 * mcpConnect) with what the scenario's context gives (see `authFor`), headlessly, and must refuse
 * where the scenario expects it (a wrong `iss`, another issuer in the metadata, another resource).
 *
 * The era is chosen as the driver's default does (`versionNegotiation: "auto"`: probe
 * `server/discover`, fall back to `initialize`), so the same client serves the 2025 suite and the
 * 2026-07-28 scenarios of 0.2.0-alpha; MCP_TESTKIT_VERSION_NEGOTIATION=legacy (or a version to
 * pin, such as 2026-07-28) forces one.
 *
 * Exit code: 0 when every step worked, 1 otherwise (the error on stderr).
 */
import { pathToFileURL } from "node:url";
import { mcpConnect } from "mcp-testkit";

const SCENARIOS = {
  initialize: "initialize, then close (its server offers no tools)",
  tools_call: "list tools, call each with arguments from its input schema",
  "elicitation-sep1034-client-defaults": "call the tool; accept its elicitation with the schema's defaults",
  "sse-retry": "call the tool; its stream closes early, the answer comes on a resumed GET stream",
  "sep-2640-client-no-prefetch": "list the skills; read none of their files (nobody asked for a skill)",
  "sep-2640-client-verify-digest": "list the skills, load the first: its SKILL.md fails the digest check, so nothing more is read",
  "sep-2640-client-verify-size": "list the skills, load the first: its SKILL.md fails the size check, so nothing more is read",
  "sep-2640-client-verify-frontmatter": "list the skills, load the first: its frontmatter differs from the listing's, so nothing more is read",
};

const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/**
 * Skills, as a host handles them: list them (no file is fetched then); load one only when it is
 * asked for, here when the scenario stands for a model asking (the sep-2640-client-verify-*
 * scenarios), verifying SKILL.md before reading the files it lists. A file that fails
 * verification is refused, and the skill is not used: that is the right outcome, not a failure.
 */
export async function useSkills(driver, scenario) {
  const skills = await driver.listSkills();
  log(`skills: ${skills.map((skill) => skill.uri).join(", ") || "(none)"}`);
  const skill = skills[0];
  if (skill === undefined || !scenario.startsWith("sep-2640-client-verify")) return;
  try {
    const loaded = await driver.readSkill(skill);
    log(`skill ${skill.uri}: loaded (verified: ${loaded.verified})`);
    for (const file of Array.isArray(skill.resources) ? skill.resources.filter((entry) => entry.uri !== skill.uri) : []) {
      await driver.readSkill(skill, file.uri);
      log(`skill file ${file.uri}: read and verified`);
    }
  } catch (error) {
    if (error?.name !== "SkillVerificationError") throw error;
    log(`skill ${skill.uri}: refused (${error.check}): ${error.message}`);
  }
}

/** Value for a JSON Schema property when no user is there to type one; `undefined` if none fits. */
export function sampleValue(schema) {
  if (schema === null || typeof schema !== "object") return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["oneOf", "anyOf"]) {
    if (Array.isArray(schema[key])) {
      for (const option of schema[key]) {
        const value = sampleValue(option);
        if (value !== undefined) return value;
      }
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
      return Math.ceil(typeof schema.minimum === "number" ? schema.minimum : 1);
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "string":
      if (schema.format === "email") return "user@example.com";
      if (schema.format === "uri") return "https://example.com";
      if (schema.format === "date") return "2025-01-01";
      if (schema.format === "date-time") return "2025-01-01T00:00:00Z";
      return "x".repeat(Math.max(1, typeof schema.minLength === "number" ? schema.minLength : 4));
    case "array": {
      const item = sampleValue(schema.items?.anyOf?.[0] ?? schema.items);
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return item === undefined ? [] : Array.from({ length: count }, () => item);
    }
    case "object":
      return argumentsFor(schema);
    default:
      return undefined;
  }
}

/** Arguments for a tool: its required properties (and those with a default), sample values. */
export function argumentsFor(schema) {
  const properties = schema?.properties ?? {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const args = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!required.has(name) && property?.default === undefined) continue;
    const value = sampleValue(property);
    if (value !== undefined) args[name] = value;
  }
  return args;
}

/**
 * The answer to `elicitation/create` when nobody is there to fill in the form: accept with every
 * default the requested schema gives (SEP-1034), a sample value for each required field without
 * one; decline URL mode and forms with a required field no value can be made for.
 */
export function answerElicitation(params) {
  if (params.mode === "url") return { action: "decline" };
  const schema = params.requestedSchema ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const content = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property?.default !== undefined) content[name] = property.default;
    else if (required.has(name)) {
      const value = sampleValue(property);
      if (value === undefined) return { action: "decline" };
      content[name] = value;
    }
  }
  return { action: "accept", content };
}

/** The Client ID Metadata Document URL the suite's authorization servers accept without fetching it. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * How to sign in for an `auth/*` scenario: the credentials its context gives (a pre-registered
 * client, or a machine client with a secret or a private key), else the authorization code flow
 * with a Client ID Metadata Document URL, falling back to dynamic registration where the
 * authorization server takes no such URL. Undefined for a scenario without authorization.
 */
export function authFor(scenario, context) {
  if (!scenario.startsWith("auth/")) return undefined;
  if (typeof context.private_key_pem === "string")
    return { grant: "client_credentials", clientId: context.client_id, privateKey: context.private_key_pem, ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}) };
  if (scenario.includes("client-credentials")) return { grant: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret };
  if (typeof context.client_id === "string") return { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) };
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

/** The scenario's context (MCP_CONFORMANCE_CONTEXT, JSON), when the suite gives one. */
function scenarioContext() {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  } catch {
    return {};
  }
}

/**
 * What to call: the calls the scenario's context names (with its arguments), else each tool with
 * arguments from its schema. A tool whose schema asks for another tool's `schema` back verbatim
 * (json-schema-2020-12-preservation's echo) gets the other tool's inputSchema as received.
 */
export function plannedCalls(tools, context) {
  if (Array.isArray(context.toolCalls)) return context.toolCalls.map((call) => ({ name: call.name, args: call.arguments ?? {} }));
  return tools.map((tool) => {
    const wantsSchema = tool.inputSchema?.properties?.schema?.type === "object" && /verbatim/i.test(tool.inputSchema.properties.schema.description ?? "");
    const other = tools.find((candidate) => candidate !== tool);
    return { name: tool.name, args: wantsSchema && other ? { schema: other.inputSchema } : argumentsFor(tool.inputSchema) };
  });
}

function log(line) {
  console.log(`[client] ${line}`);
}

async function main() {
  const url = process.argv.at(-1);
  if (process.argv.length < 3 || !/^https?:\/\//.test(url ?? "")) {
    console.error("Usage: node examples/conformance/client.js <server-url>  (scenario in MCP_CONFORMANCE_SCENARIO)");
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "(none)";
  log(`scenario ${scenario}: ${SCENARIOS[scenario] ?? "not one this client knows; doing what a good client does"}`);

  const auth = authFor(scenario, scenarioContext());
  const negotiation = process.env.MCP_TESTKIT_VERSION_NEGOTIATION;
  const versionNegotiation = negotiation === undefined || negotiation === "auto" || negotiation === "legacy" ? (negotiation ?? "auto") : { pin: negotiation };
  const driver = mcpConnect(url, {
    versionNegotiation,
    // A client, not a test: what breaks the schema is logged as a warning below, not a failure.
    strict: false,
    clientInfo: { name: "mcp-testkit-conformance-client", version: "0.1.0" },
    requestTimeout: 10_000,
    ...(auth === undefined ? {} : { auth }),
    onElicitation: (params) => {
      const answer = answerElicitation(params);
      log(`elicitation/create ${JSON.stringify(params.message)} -> ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
      return answer;
    },
  });

  try {
    const result = await driver.initialize();
    log(`initialized (${driver.era} era): ${result.serverInfo?.name ?? "(no serverInfo)"} ${result.serverInfo?.version ?? ""}, protocol ${result.protocolVersion}`);

    // A good client only asks for what the server declared (the initialize scenario's server declares nothing).
    if (result.capabilities.tools === undefined) log("tools: not offered (no tools capability)");
    else {
      const tools = await driver.getTools();
      log(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
      for (const [name, reason] of driver.rejectedTools.map((tool) => [tool.name, tool.reason])) log(`tools: left out ${name} (${reason})`);
      for (const { name, args } of plannedCalls(tools, scenarioContext())) {
        try {
          const call = await driver.callTool(name, args);
          const text = call.content
            .filter((item) => item.type === "text")
            .map((item) => item.text)
            .join(" ");
          log(`tools/call ${name} ${JSON.stringify(args)} -> ${call.isError ? "isError: " : ""}${text || JSON.stringify(call.content)}`);
        } catch (error) {
          // A tool the server cannot run is the server's finding, not a reason to stop.
          if (error?.name !== "ToolCallError") throw error;
          log(`tools/call ${name} ${JSON.stringify(args)} -> error ${error.code}: ${error.serverMessage}`);
        }
      }
    }

    if (result.capabilities.extensions?.[SKILLS_EXTENSION] !== undefined) await useSkills(driver, scenario);

    const problems = driver.problems;
    for (const problem of problems) log(`warning: the server sent ${problem.method ?? "a message"} with a problem at ${problem.path}: ${problem.message}`);
  } finally {
    // Ends the session (DELETE) and closes every stream, including any still reconnecting.
    await driver.close();
  }
  return 0;
}

// Run only as a program, so tests can import the helpers above.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error(`[client] failed: ${error?.stack ?? error}`);
    process.exitCode = 1;
  }
}
