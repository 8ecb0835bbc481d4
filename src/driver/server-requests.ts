/**
 * The client's answers to the server's own requests: `ping`, `roots/list` (the roots the driver
 * was given, changed by `setRoots`), `sampling/createMessage` and `elicitation/create` (the
 * test's handlers). What the client can answer is also what it declares: the capabilities
 * follow from the same options.
 */
import type { ClientCapabilities, Root } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import { ErrorCode } from "../protocol/errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/rpc-error.js";
import { versionHas } from "../protocol/versions.js";
import { mergeCapabilities } from "./negotiation.js";
import type { DriverOptions } from "./options.js";
import type { CallServerRequestHandler, JsonObject, ServerRequestContext } from "./rpc-channel.js";

export class ServerRequestAnswers {
  private roots: Root[] | undefined;

  constructor(private readonly options: Pick<DriverOptions, "roots" | "onSampling" | "onElicitation" | "capabilities">) {
    this.roots = options.roots === undefined ? undefined : [...options.roots];
  }

  /**
   * The capabilities these answers imply in `version`, with the options' own `capabilities` over
   * them. `roots.listChanged` only where `notifications/roots/list_changed` exists (2026-07-28
   * removed it: a server asks for roots in a result's input requests each time).
   */
  impliedCapabilities(version: string): ClientCapabilities {
    const capabilities: ClientCapabilities = {};
    if (this.roots !== undefined) capabilities.roots = versionHas(version, "rootsListChanged") ? { listChanged: true } : {};
    if (this.options.onSampling) capabilities.sampling = {};
    if (this.options.onElicitation) capabilities.elicitation = {};
    return mergeCapabilities(capabilities, this.options.capabilities);
  }

  /** Replaces the roots; refused once a handshake declared no roots capability. */
  setRoots(roots: Root[], declared: boolean): void {
    checkRoots(roots);
    if (this.roots === undefined && declared) {
      throw new McpTestkitError("setRoots(): this client did not declare the roots capability in initialize; pass roots: [] to the driver to declare it.");
    }
    this.roots = [...roots];
  }

  /**
   * The result for a server request that belongs to a call with its own `onServerRequest`: that
   * handler's answer (checked like the driver's own handlers'), or, when it returns undefined,
   * the driver's.
   */
  async answerFor(handler: CallServerRequestHandler | undefined, method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    if (handler === undefined) return await this.answer(method, params, context);
    const answer = await handler(method, params, context);
    if (answer === undefined) return await this.answer(method, params, context);
    const problem = method === "roots/list" ? rootsProblem(answer) : answerProblem(method, answer);
    if (problem !== undefined)
      throw new McpTestkitError(`The call's onServerRequest answered ${method} with ${describeValue(answer)}; ${problem}. Return undefined to leave ${method} to the driver's own handlers.`);
    return answer;
  }

  /** The result for a server request; throws an `RpcError` to answer with an error. */
  async answer(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject> {
    switch (method) {
      case "ping":
        return {};
      case "roots/list":
        if (this.roots === undefined) {
          const declared = this.options.capabilities?.roots !== undefined;
          throw new RpcError(
            ErrorCode.MethodNotFound,
            declared
              ? 'mcp-testkit: this client declares the roots capability (capabilities.roots) but was given no roots to list; pass roots: [{ uri: "file:///..." }] to the driver (mcpShell / mcpConnect / mcpAttach), or answer roots/list in a call\'s onServerRequest.'
              : 'mcp-testkit: this client declared no roots capability, so it has no roots to list; pass roots: [{ uri: "file:///..." }] to the driver (mcpShell / mcpConnect / mcpAttach) to answer roots/list.',
          );
        }
        return { roots: this.roots };
      case "sampling/createMessage":
        return await this.answerWith(this.options.onSampling, method, `onSampling: (params) => ({ role: "assistant", content: { type: "text", text: "..." }, model: "test-model" })`, params, context);
      case "elicitation/create":
        return await this.answerWith(this.options.onElicitation, method, `onElicitation: (params) => ({ action: "accept", content: { ... } })`, params, context);
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `mcp-testkit: this client has no handler for ${JSON.stringify(method)}.`);
    }
  }

  /** The test's handler answers; without one, an error that names the option to pass. */
  private async answerWith(
    handler: ((params: never, context: ServerRequestContext) => unknown) | undefined,
    method: string,
    option: string,
    params: JsonObject | undefined,
    context: ServerRequestContext,
  ): Promise<JsonObject> {
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `mcp-testkit: this client does not answer ${method}; pass ${option} to the driver to answer it.`);
    const answer = await handler(params as never, context);
    const problem = answerProblem(method, answer);
    // The test's own handler broke its contract: said here, not as the server's fault later.
    if (problem !== undefined) throw new McpTestkitError(`${option.split(":")[0]} returned ${describeValue(answer)}; ${problem} (did it forget to return?). For example: ${option}`);
    return answer as JsonObject;
  }
}

const ELICIT_ACTIONS = ["accept", "decline", "cancel"];

/** What is wrong with a handler's answer, or undefined when it has the shape its method needs. */
function answerProblem(method: string, answer: unknown): string | undefined {
  if (!isObject(answer)) return "expected a result object";
  if (method === "elicitation/create" && !ELICIT_ACTIONS.includes(answer.action as string)) return 'expected { action: "accept" | "decline" | "cancel", content? }';
  if (method === "sampling/createMessage" && (typeof answer.role !== "string" || !(isObject(answer.content) || Array.isArray(answer.content)) || typeof answer.model !== "string"))
    return "expected { role, content, model }";
  return undefined;
}

function rootsProblem(answer: unknown): string | undefined {
  if (!isObject(answer) || !isRootList(answer.roots)) return "expected { roots: [{ uri, name? }] }";
  return undefined;
}

function isRootList(roots: unknown): roots is Root[] {
  return Array.isArray(roots) && roots.every((root) => isObject(root) && typeof root.uri === "string");
}

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function checkRoots(roots: unknown): void {
  if (!isRootList(roots)) {
    throw new McpTestkitError(`roots must be an array of { uri: string, name?: string }, got ${JSON.stringify(roots)}.`);
  }
}
