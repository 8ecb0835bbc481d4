/**
 * The scenario file (`mcp-testkit mock <scenario.json>`, the JSON-able mockMcp() options) in
 * zod, for schemas/scenario.schema.json only: its steps are the one description of a step
 * (src/formats/step.ts); the mock checks the other options itself, in its own words.
 */
import { z } from "zod";
import { stepSchemas } from "../src/formats/step.js";
import { CacheableMethods } from "../src/protocol/methods.js";
import { MAX_TIMER_MS } from "../src/util/timer-ms.js";
import { FAULT_KINDS } from "../src/auth/faults.js";

const { stepSchema, thrownErrorSchema } = stepSchemas();
const object = z.record(z.string(), z.unknown());
/** A definition's fault is described in the fixture file's schema, beside this one. */
const fault = z.unknown().meta({ $ref: "mcp-fakes.schema.json#/$defs/fault", description: "Every read answers through this fault (a delay, a hang, a dropped connection, raw bytes, a cut stream)." });
const strings = z.array(z.string());
const JSON_SCHEMA_TYPES = z.enum(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** A JSON Schema, checked as the mock checks it (src/engine/spec-checks.ts): known type names, required a list, subschema maps of schemas. */
const jsonSchema: z.ZodType = z
  .lazy(() => {
    const schemas = z.record(z.string(), jsonSchema);
    return z.union([
      z.boolean(),
      z.looseObject({
        type: z.union([JSON_SCHEMA_TYPES, z.array(JSON_SCHEMA_TYPES)]).optional(),
        required: strings.optional(),
        properties: schemas.optional(),
        patternProperties: schemas.optional(),
        $defs: schemas.optional(),
        definitions: schemas.optional(),
        dependentSchemas: schemas.optional(),
      }),
    ]);
  })
  .meta({ id: "jsonSchema", description: "A JSON Schema, checked as the mock checks it: known type names, required a list, subschema maps of schemas." });

const steps = z.union([stepSchema, z.array(stepSchema).min(1)]);

const toolDefinition = z
  .strictObject({
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: jsonSchema.optional(),
    outputSchema: jsonSchema.optional(),
    annotations: object.optional(),
    icons: z.array(object).optional(),
    _meta: object.optional(),
    execution: z
      .strictObject({ taskSupport: z.enum(["forbidden", "optional", "required"]).optional() })
      .meta({ description: "How the tool may run as a task (2025-11-25 lists it; a step with task implies optional). See docs/tasks.md." })
      .optional(),
    responses: steps.meta({ description: "The tool's script: a step, or a list of steps (the last one repeats)." }).optional(),
  })
  .meta({ id: "toolDefinition" });

// A definition key makes an object a definition; a step takes none of them, so "either" is exact.
const tool = z.union([steps, toolDefinition]).meta({ id: "tool" });

const cacheHints = z.strictObject({ ttlMs: z.int().min(0).optional(), cacheScope: z.enum(["public", "private"]).optional() }).meta({ id: "cacheHints" });
const completions = z.record(z.string(), strings);
const notTogether = (...pairs: Array<[string, string]>) => pairs.map((pair) => ({ not: { required: pair } }));

const resource = z
  .union([
    z.string(),
    z
      .strictObject({
        name: z.string().optional(),
        title: z.string().optional(),
        description: z.string().optional(),
        mimeType: z.string().optional(),
        size: z.number().optional(),
        annotations: object.optional(),
        icons: z.array(object).optional(),
        _meta: object.optional(),
        text: z.string().optional(),
        blob: z.string().meta({ description: "Base64 text." }).optional(),
        complete: completions.meta({ description: "Templates only: completions for each variable." }).optional(),
        cache: cacheHints.optional(),
        throws: thrownErrorSchema.meta({ description: "Every read answers this JSON-RPC error instead (default code -32603)." }).optional(),
        fault: fault.optional(),
      })
      .meta({ allOf: notTogether(["text", "blob"], ["throws", "text"], ["throws", "blob"]) }),
  ])
  .meta({ id: "resource" });

const prompt = z
  .union([
    z.string(),
    z
      .strictObject({
        title: z.string().optional(),
        description: z.string().optional(),
        arguments: z.array(z.strictObject({ name: z.string(), title: z.string().optional(), description: z.string().optional(), required: z.boolean().optional() })).optional(),
        icons: z.array(object).optional(),
        _meta: object.optional(),
        messages: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: z.union([z.string(), object]) })).optional(),
        complete: completions.optional(),
        throws: thrownErrorSchema.meta({ description: "Every prompts/get answers this JSON-RPC error instead (default code -32603)." }).optional(),
        fault: fault.optional(),
      })
      .meta({ not: { required: ["throws", "messages"] } }),
  ])
  .meta({ id: "prompt" });

const skill = z
  .union([
    z.string().meta({ description: "The whole SKILL.md: YAML frontmatter between --- lines (name, description), then markdown." }),
    z
      .strictObject({
        description: z.string().min(1).meta({ description: "SKILL.md's description: what the skill does and when to use it." }).optional(),
        frontmatter: object.meta({ description: "More frontmatter fields (license, metadata, allowed-tools…); name is the path's last segment." }).optional(),
        body: z.string().meta({ description: "SKILL.md's markdown, after the frontmatter." }).optional(),
        skillMd: z.string().meta({ description: "The whole SKILL.md, instead of description, frontmatter and body." }).optional(),
        files: z.record(z.string(), z.string()).meta({ description: 'The skill\'s other files, by path inside it ("references/FORMS.md").' }).optional(),
        manifest: z.enum(["listed", "dynamic"]).meta({ description: 'dynamic: the entry lists no files (resources: "dynamic").' }).optional(),
        _meta: object.optional(),
        listed: z
          .strictObject({
            frontmatter: object.optional(),
            files: z
              .record(
                z.string(),
                z.strictObject({
                  digest: z
                    .string()
                    .regex(/^sha256:[0-9a-f]{64}$/)
                    .optional(),
                  size: z.int().min(0).optional(),
                }),
              )
              .optional(),
          })
          .meta({ description: "What the listing claims where it is not the truth, to test that a host verifies what it reads." })
          .optional(),
      })
      .meta({ anyOf: [{ required: ["description"] }, { required: ["skillMd"] }] }),
  ])
  .meta({ id: "skill" });

const strictList = z.array(z.string());
const app = z
  .union([
    z.string().meta({ description: "The view's HTML." }),
    z.strictObject({
      html: z.string(),
      name: z.string().optional(),
      title: z.string().optional(),
      description: z.string().optional(),
      csp: z.strictObject({ connectDomains: strictList.optional(), resourceDomains: strictList.optional(), frameDomains: strictList.optional(), baseUriDomains: strictList.optional() }).optional(),
      permissions: z.strictObject({ camera: object.optional(), microphone: object.optional(), geolocation: object.optional(), clipboardWrite: object.optional(), tools: object.optional() }).optional(),
      domain: z.string().optional(),
      prefersBorder: z.boolean().optional(),
      _meta: object.optional(),
    }),
  ])
  .meta({ id: "app" });
const scopes = z.array(z.string().regex(/^\S+$/));
const authFault = z
  .strictObject({
    fault: z.enum(Object.keys(FAULT_KINDS) as [keyof typeof FAULT_KINDS, ...Array<keyof typeof FAULT_KINDS>]).meta({
      description: Object.entries(FAULT_KINDS)
        .map(([name, what]) => `${name}: ${what}`)
        .join("; "),
    }),
    times: z.int().min(1).optional(),
    testId: z.string().min(1).optional(),
    error: z.string().optional(),
    status: z.int().min(400).max(599).optional(),
    delayMs: z.int().min(0).max(600_000).optional(),
    scope: z.union([z.string(), scopes]).optional(),
    to: z.string().optional(),
  })
  .meta({ id: "authFault" });
const consentAnswer = z.union([
  z.enum(["approve", "deny"]),
  z.strictObject({ error: z.string().min(1), description: z.string().optional() }),
  z.strictObject({ approve: z.strictObject({ subject: z.string().optional(), scopes: scopes.optional() }) }),
]);
const auth = z
  .union([
    z.literal(true),
    z.strictObject({
      scopes: scopes.optional(),
      requiredScopes: scopes.optional(),
      toolScopes: z.record(z.string(), scopes).optional(),
      authorizationServer: z.union([z.literal("same-port"), z.strictObject({ port: z.int().min(0).max(65535).optional() })]).optional(),
      issuerPath: z
        .string()
        .regex(/^\/\S*[^/]$/)
        .optional(),
      tokenFormat: z.enum(["jwt", "opaque"]).optional(),
      accessTokenTtlSeconds: z.int().min(1).optional(),
      refreshTokens: z.boolean().optional(),
      rotateRefreshTokens: z.boolean().optional(),
      offlineAccess: z.boolean().optional(),
      consent: consentAnswer.optional(),
      subject: z.string().min(1).optional(),
      clients: z
        .array(z.strictObject({ clientId: z.string().min(1), clientSecret: z.string().min(1).optional(), redirectUris: z.array(z.string()).optional(), grantTypes: z.array(z.string()).optional() }))
        .optional(),
      registration: z.boolean().optional(),
      clientMetadataDocuments: z.union([z.boolean(), z.record(z.string(), z.union([z.literal(true), object]))]).optional(),
      issParameter: z.boolean().optional(),
      audiences: z.array(z.string()).optional(),
      faults: z.array(authFault).optional(),
    }),
  ])
  .meta({ description: "Protect the MCP endpoint with OAuth and serve an authorization server of its own (see docs/authorization.md); true for the defaults." });

/** A fixtures block is described in the fixture file's schema, beside this one. */
const fixtureBlock = z.unknown().meta({ $ref: "mcp-fakes.schema.json#/$defs/block" });

export const scenarioFileSchema = z
  .strictObject({
    $schema: z.string().meta({ description: "This schema, for editors; the CLI ignores it." }).optional(),
    serverInfo: z.looseObject({ name: z.string(), version: z.string() }).meta({ description: "What initialize reports as the server." }).optional(),
    instructions: z.string().meta({ description: "The server's instructions, sent in initialize." }).optional(),
    capabilities: object.meta({ description: "Capabilities over the ones the mock works out." }).optional(),
    tools: z.record(z.string(), tool).meta({ description: "Tools by name: a step, a list of steps (the last repeats), or a definition with responses." }).optional(),
    resources: z
      .record(z.string().regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S*$/), resource)
      .meta({ description: "Resources by URI (a URI with {variables} is a template): a text, or a definition." })
      .optional(),
    prompts: z.record(z.string(), prompt).meta({ description: "Prompts by name: a text (one user message), or a definition." }).optional(),
    skills: z
      .record(z.string().regex(/^([a-z0-9-]+\/)*[a-z0-9-]+$/), skill)
      .meta({ description: "Skills (SEP-2640) by path (the last segment is the name): served by skills/list, skills/get and as skill:// resources." })
      .optional(),
    apps: z
      .record(z.string().regex(/^ui:\/\/\S+$/), app)
      .meta({ description: "MCP Apps views by ui:// URI, served as text/html;profile=mcp-app." })
      .optional(),
    protocolVersions: z.array(z.string()).min(1).meta({ description: "The protocol versions the mock speaks, newest first." }).optional(),
    pageSize: z.int().min(1).meta({ description: "Items per page of the lists." }).optional(),
    recordLimit: z.int().min(0).meta({ description: "Calls kept in the record (oldest dropped first)." }).optional(),
    onUnknownTool: z.enum(["error", "warn"]).meta({ description: "A call to a tool the mock does not have: -32602, and with warn a line on stderr." }).optional(),
    cache: z
      .strictObject({ ttlMs: z.int().min(0).optional(), cacheScope: z.enum(["public", "private"]).optional(), methods: z.partialRecord(z.enum(CacheableMethods), cacheHints).optional() })
      .meta({ description: "2026-07-28 caching hints (ttlMs, cacheScope), per method under methods." })
      .optional(),
    inputTimeoutMs: z
      .int()
      .min(1)
      .max(MAX_TIMER_MS)
      .meta({ description: `How long a 2026-07-28 request state waits for the client's retry, in ms (at most ${MAX_TIMER_MS}, the longest a timer holds).` })
      .optional(),
    responseMode: z.enum(["json", "sse"]).meta({ description: "How Streamable HTTP answers a POST." }).optional(),
    getStream: z.boolean().optional(),
    maxBodyBytes: z.number().optional(),
    dnsRebindingProtection: z.boolean().optional(),
    host: z.string().optional(),
    allowedHosts: strings.optional(),
    allowedOrigins: strings.optional(),
    transport: z.enum(["http", "memory", "stdio"]).optional(),
    port: z.int().min(0).max(65535).meta({ description: "0: a free port." }).optional(),
    path: z.string().regex(/^\//).meta({ description: "The MCP endpoint path (default /mcp)." }).optional(),
    http: z.literal(false).meta({ description: "Another spelling of transport: memory." }).optional(),
    fixtures: z
      .union([z.string(), fixtureBlock, z.array(z.union([z.string(), fixtureBlock]))])
      .meta({ description: "Scenario fakes: a fixtures file or directory, an mcpFakes block, or a list of them (see mcp-fakes.schema.json)." })
      .optional(),
    fakesOptions: z.looseObject({ testIdsMax: z.int().min(0).optional(), journalMax: z.int().min(0).optional(), log: z.boolean().optional(), file: z.string().optional() }).optional(),
    observe: object.optional(),
    metrics: z.boolean().optional(),
    auth: auth.optional(),
    stdio: object.optional(),
  })
  .meta({
    title: "mcp-testkit scenario file (mockMcp options as JSON)",
    description:
      "A scenario for `mcp-testkit mock <scenario.json>`: the JSON-able mockMcp() options. Functions (step functions, read, messages, logger, observers) need a .js or .ts scenario module. See the README.",
  });
