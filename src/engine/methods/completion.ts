/** `completion/complete`: values for a prompt argument or a resource template variable. */
import { ErrorCode } from "../../protocol/errors.js";
import type { CompletionSource } from "../catalog.js";
import { RpcError } from "../outcome.js";
import { ownEntry } from "../own-entry.js";
import { ok, type RequestHandler } from "./handler-input.js";
import { optionalObject } from "./params.js";

/** The spec caps one completion answer at 100 values. */
const MAX_VALUES = 100;

export const complete: RequestHandler = async (input) => {
  const { catalog } = input.state;
  const ref = optionalObject(input.params, "ref", "completion/complete");
  const argument = optionalObject(input.params, "argument", "completion/complete");
  if (!ref || !argument || typeof argument.name !== "string" || typeof argument.value !== "string") {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for completion/complete: needs "ref" and "argument" { name: string, value: string }');
  }
  let sources: Record<string, CompletionSource> | undefined;
  if (ref.type === "ref/prompt" && typeof ref.name === "string") {
    const prompt = catalog.prompts.get(ref.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
    sources = prompt.definition.complete;
  } else if (ref.type === "ref/resource" && typeof ref.uri === "string") {
    const template = catalog.templates.get(ref.uri) ?? catalog.resources.get(ref.uri);
    if (!template) throw new RpcError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`);
    sources = template.definition.complete;
  } else {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for completion/complete: "ref" must be { type: "ref/prompt", name } or { type: "ref/resource", uri }');
  }
  const prefix = argument.value;
  const source = ownEntry(sources, argument.name);
  const contextArgs = (optionalObject(optionalObject(input.params, "context", "completion/complete") ?? {}, "arguments", "completion/complete context") ?? {}) as Record<string, string>;
  let values: string[] = [];
  if (typeof source === "function") values = await source(prefix, { arguments: contextArgs });
  else if (source) values = source.filter((value) => value.startsWith(prefix));
  const completion: Record<string, unknown> = { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES };
  return ok(input, { completion });
};
