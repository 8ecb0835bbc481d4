/** `initialize`, `ping` and `logging/setLevel`: the session-level methods. */
import { ErrorCode } from "../../protocol/errors.js";
import { META } from "../../protocol/meta-keys.js";
import { LoggingLevels, type LoggingLevel } from "../../protocol/methods.js";
import { compareVersions, negotiateVersion, versionHas } from "../../protocol/versions.js";
import { RpcError } from "../outcome.js";
import { IMPLEMENTATION_FIELDS, shapeForVersion } from "../version-shape.js";
import { ok, type HandlerInput, type RequestHandler } from "./handler-input.js";
import { requireString } from "./params.js";
import { unsupportedVersion } from "../request-context.js";

export const initialize: RequestHandler = (input: HandlerInput) => {
  const { state, params } = input;
  const negotiated = input.connection.negotiated;
  const requested = requireString(params, "protocolVersion", "initialize");
  if (state.protocolVersions.every((v) => versionHas(v, "perRequestMeta"))) {
    // A modern-only server names what it speaks: a legacy client has no other way to learn it
    // (2026-07-28, "Backward Compatibility"). Over HTTP this goes with 400, as a modern error does.
    const refusal = unsupportedVersion(requested, state.protocolVersions);
    throw new RpcError(refusal.code, `${refusal.message} There is no initialize: send each request with params._meta["${META.protocolVersion}"].`, refusal.data);
  }
  const version = negotiateVersion(requested, state.protocolVersions);
  negotiated.protocolVersion = version;
  negotiated.initializeReceived = true;
  negotiated.clientInfo = params.clientInfo as Record<string, unknown> | undefined;
  negotiated.clientCapabilities = (params.capabilities as Record<string, unknown> | undefined) ?? {};
  const result: Record<string, unknown> = {
    protocolVersion: version,
    capabilities: state.capabilities ?? state.capabilitiesFor(version),
    serverInfo: shapeForVersion(state.serverInfo, IMPLEMENTATION_FIELDS, version),
  };
  if (state.instructions !== undefined) result.instructions = state.instructions;
  return ok(input, result);
};

/** `server/discover` (2026-07-28): the versions served (newest first), capabilities and instructions; identity and caching hints are added to every modern result. */
export const discover: RequestHandler = (input) => {
  const { state, context } = input;
  const result: Record<string, unknown> = {
    supportedVersions: [...state.protocolVersions].sort(compareVersions).reverse(),
    capabilities: state.capabilities ?? state.capabilitiesFor(context.protocolVersion),
  };
  if (state.instructions !== undefined) result.instructions = state.instructions;
  return ok(input, result);
};

export const ping: RequestHandler = (input) => ok(input, {});

export const setLevel: RequestHandler = (input) => {
  const level = requireString(input.params, "level", "logging/setLevel");
  if (!(LoggingLevels as readonly string[]).includes(level)) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for logging/setLevel: "level" must be one of ${LoggingLevels.join(", ")}, got ${JSON.stringify(level)}`);
  }
  input.connection.negotiated.logLevel = level as LoggingLevel;
  return ok(input, {});
};
