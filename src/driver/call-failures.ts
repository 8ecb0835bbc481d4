/**
 * The errors a call throws when the server answers it with a JSON-RPC error: one `errorFor` per
 * kind of call (tools, prompts, resources), each naming the call, the server's error, and what
 * the driver knows that would help: which option declares a capability the server requires, why a
 * tool has no Mcp-Param headers, or which revision removed a method.
 */
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcErrorObject } from "../protocol/jsonrpc.js";
import { FEATURES, type Feature } from "../protocol/versions.js";
import { PromptCallError, ResourceCallError, ToolCallError, type DeclarableCapability, type DriverHint, type ProcessContext } from "./errors.js";
import type { RejectedTool } from "./modern-http.js";
import { defaultErrorFor, describeErrorObject } from "./request-errors.js";
import type { ErrorFor, FailedRequest } from "./request-types.js";

/** One `errorFor` per call kind, shared by all its calls (each reads its request's `subject`). */
export function callFailures(processContext: () => ProcessContext | undefined) {
  const fields = (error: JsonRpcErrorObject, method: string) => ({ code: error.code, serverMessage: error.message, data: error.data, method, process: processContext() });
  const tool = (error: JsonRpcErrorObject, { method, subject }: FailedRequest, hint = "") =>
    new ToolCallError([`Tool "${subject}" failed: the server answered ${method} with JSON-RPC error ${describeErrorObject(error)}`, ...capabilityHint(error), hint], {
      ...fields(error, method),
      toolName: subject!,
    });
  const prompt: ErrorFor = (error, { method, subject }) =>
    new PromptCallError([`Prompt "${subject}" failed: the server answered ${method} with JSON-RPC error ${describeErrorObject(error)}`, ...capabilityHint(error)], {
      ...fields(error, method),
      promptName: subject!,
    });
  const resource: ErrorFor = (error, { method, subject }) =>
    new ResourceCallError([`${method} ${JSON.stringify(subject)} failed: the server answered with JSON-RPC error ${describeErrorObject(error)}`, ...capabilityHint(error)], {
      ...fields(error, method),
      uri: subject!,
    });
  return { tool, prompt, resource };
}

/**
 * A -32020 for a tool the driver left out of getTools() (its `x-mcp-header` is invalid): the
 * server wanted the headers the driver could not make, so the message says why they are missing.
 */
export function rejectionHint(error: JsonRpcErrorObject, rejected: RejectedTool | undefined): string {
  if (rejected === undefined || error.code !== ErrorCode.HeaderMismatch) return "";
  return `. The driver left tool "${rejected.name}" out of getTools() and sends no Mcp-Param headers for it: ${rejected.reason}`;
}

/** For -32021 (a client capability the server requires): the capabilities, as a hint that names what declares each. */
function capabilityHint(error: JsonRpcErrorObject): DriverHint[] {
  if (error.code !== ErrorCode.MissingRequiredClientCapability) return [];
  const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  const names = required !== null && typeof required === "object" ? Object.keys(required) : [];
  const capabilities = names.map((name) => (name === "elicitation" && asksUrlMode(required) ? "elicitationUrlMode" : name)).filter((name): name is DeclarableCapability => DECLARABLE.has(name));
  return capabilities.length === 0 ? [] : [{ kind: "declareCapabilities", capabilities }];
}

const DECLARABLE: ReadonlySet<string> = new Set<DeclarableCapability>(["elicitation", "elicitationUrlMode", "sampling", "roots"]);

function asksUrlMode(required: unknown): boolean {
  const elicitation = (required as { elicitation?: unknown }).elicitation;
  return elicitation !== null && typeof elicitation === "object" && "url" in elicitation;
}

/** What to use instead of each legacy-era method that 2026-07-28 removed, and the feature that is its. */
const REMOVED_METHODS = {
  "logging/setLevel": {
    feature: "loggingSetLevel",
    instead: `in ${FEATURES.loggingSetLevel.until} a log level goes in each request's _meta ("io.modelcontextprotocol/logLevel"); use versionNegotiation "legacy" to test logging/setLevel`,
  },
  "resources/subscribe": { feature: "resourcesSubscribe", instead: 'use listen({ resourceSubscriptions: [uri] }) (subscriptions/listen) instead, or versionNegotiation "legacy"' },
  "resources/unsubscribe": { feature: "resourcesSubscribe", instead: 'end the subscriptions/listen stream (close what listen() gave) instead, or use versionNegotiation "legacy"' },
  ping: { feature: "ping", instead: 'use versionNegotiation "legacy" to test ping against a server that also speaks the legacy era' },
} as const satisfies Record<string, { feature: Feature; instead: string }>;

/**
 * A legacy-era request a 2026-07-28 server refused as unknown (-32601): the error says the
 * revision the driver speaks removed it, and what to use instead.
 */
export function legacyOnly(spoken: { readonly version: string | undefined; has(feature: Feature): boolean }, method: keyof typeof REMOVED_METHODS, errorFor: ErrorFor = defaultErrorFor): ErrorFor {
  const { feature, instead } = REMOVED_METHODS[method];
  return (error, context) => {
    const failure = errorFor(error, context);
    const version = spoken.version;
    if (error.code === ErrorCode.MethodNotFound && version !== undefined && !spoken.has(feature)) {
      failure.extend(`. ${version}, which this driver speaks, has no ${FEATURES[feature].what}: ${instead}`);
    }
    return failure;
  };
}
