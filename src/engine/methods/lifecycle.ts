/** `initialize`, `ping` and `logging/setLevel`: the session-level methods. */
import { ErrorCode } from "../../protocol/errors.js";
import { LoggingLevels, type LoggingLevel } from "../../protocol/methods.js";
import { negotiateVersion, versionHas } from "../../protocol/versions.js";
import { RpcError } from "../outcome.js";
import { IMPLEMENTATION_FIELDS, shapeForVersion } from "../version-shape.js";
import { ok, type HandlerContext, type RequestHandler } from "./context.js";
import { requireString } from "./params.js";

/** Everything the mock can do, so tools, resources and prompts added after connecting still work. */
export function capabilitiesFor(version: string): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
  };
  if (versionHas(version, "completionsCapability")) capabilities.completions = {};
  return capabilities;
}

export const initialize: RequestHandler = (context: HandlerContext) => {
  const { state, session, params } = context;
  const requested = requireString(params, "protocolVersion", "initialize");
  const version = negotiateVersion(requested, state.protocolVersions);
  session.protocolVersion = version;
  session.initializeReceived = true;
  session.clientInfo = params.clientInfo as Record<string, unknown> | undefined;
  session.clientCapabilities = (params.capabilities as Record<string, unknown> | undefined) ?? {};
  const result: Record<string, unknown> = {
    protocolVersion: version,
    capabilities: state.capabilities ?? capabilitiesFor(version),
    serverInfo: shapeForVersion(state.serverInfo, IMPLEMENTATION_FIELDS, version),
  };
  if (state.instructions !== undefined) result.instructions = state.instructions;
  return ok(context, result);
};

export const ping: RequestHandler = (context) => ok(context, {});

export const setLevel: RequestHandler = (context) => {
  const level = requireString(context.params, "level", "logging/setLevel");
  if (!(LoggingLevels as readonly string[]).includes(level)) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for logging/setLevel: "level" must be one of ${LoggingLevels.join(", ")}, got ${JSON.stringify(level)}`);
  }
  context.session.logLevel = level as LoggingLevel;
  return ok(context, {});
};
