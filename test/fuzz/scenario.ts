/**
 * The mock the fuzz properties attack, and the oracle that judges its answers. The scenario uses
 * every kind of catalog entry a client can name, and step functions written the way the README
 * writes them (`call.arguments.city`), so a value that reaches them unprepared shows up as -32603.
 */
import { expect } from "vitest";
import type { MockMcpOptions } from "../../src/index.js";
import { ErrorCode, validateMessage } from "../../src/protocol/index.js";

export const RECORD_LIMIT = 50;

export function fuzzScenario(): MockMcpOptions {
  return {
    transport: "memory",
    recordLimit: RECORD_LIMIT,
    tools: {
      echo: (call) => ({ returns: { echoed: call.arguments } }),
      weather: {
        description: "Weather for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } } },
        responses: (call) => ({ content: [{ type: "text", text: `Sunny in ${String(call.arguments.city ?? "nowhere")}` }] }),
      },
    },
    prompts: {
      greet: {
        arguments: [{ name: "name", required: true }, { name: "tone" }],
        messages: [{ role: "user", content: "Hello {{name}}, in a {{tone}} tone" }],
        complete: { name: ["Ada", "Alan"], tone: (value) => ["warm", "dry"].filter((tone) => tone.startsWith(value)) },
      },
    },
    resources: {
      "notes://today": "Ship the docs.",
      "search://q{?term,limit}": { text: "results for {term}, {limit} of them" },
      "repo://{owner}/{name}": { text: "repo {owner}/{name}", complete: { owner: ["octo", "oss"] } },
      "file:///{+path}": { read: (_uri, variables) => `file ${variables.path ?? "?"}` },
    },
  };
}

/** What a message asks for, as far as its answer depends on it. */
interface Sent {
  id: unknown;
  method: unknown;
  isRequestLike: boolean;
}

function sentOf(message: unknown): Sent {
  const object = typeof message === "object" && message !== null && !Array.isArray(message) ? (message as Record<string, unknown>) : undefined;
  return { id: object?.id, method: object?.method, isRequestLike: object !== undefined && "method" in object && object.id !== undefined };
}

const isReadableId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

/**
 * Checks one answer to `message`: valid JSON-RPC, with the request's id (or null when it had no
 * readable one), never an internal error (the scenario has no step that fails on purpose), and a
 * result the validator accepts for that method under `protocolVersion`.
 */
export function expectValidAnswer(message: unknown, reply: string | null, protocolVersion: string): void {
  const sent = sentOf(message);
  if (reply === null) {
    // Only a notification or a response may go unanswered; a request-shaped message is always answered.
    expect(sent.isRequestLike && isReadableId(sent.id) && typeof sent.method === "string" && (message as { jsonrpc?: unknown }).jsonrpc === "2.0").toBe(false);
    return;
  }
  const answer = JSON.parse(reply) as Record<string, unknown>;
  expect(answer.jsonrpc).toBe("2.0");
  expect("result" in answer !== "error" in answer).toBe(true);
  // An error echoes the id when it could be read, else says null.
  if ("result" in answer) expect(answer.id).toBe(sent.id);
  else expect(answer.id).toBe(isReadableId(sent.id) ? sent.id : null);
  if ("error" in answer) {
    const error = answer.error as { code: unknown; message: unknown };
    expect(Number.isInteger(error.code)).toBe(true);
    expect(typeof error.message).toBe("string");
    expect(error.code, `an internal error is a bug of ours: ${String(error.message)}`).not.toBe(ErrorCode.InternalError);
    return;
  }
  if (typeof sent.method === "string") {
    // An initialize result is judged by the version it settles on.
    const version = negotiatedVersion(message, reply, protocolVersion);
    const problems = validateMessage(answer, { direction: "server-to-client", requestMethod: sent.method, protocolVersion: version });
    expect(problems, `the ${sent.method} result breaks the schema`).toEqual([]);
  }
}

/** The version a successful initialize settled on, to judge later answers by. */
export function negotiatedVersion(message: unknown, reply: string | null, current: string): string {
  if (reply === null || sentOf(message).method !== "initialize") return current;
  const answer = JSON.parse(reply) as { result?: { protocolVersion?: unknown } };
  return typeof answer.result?.protocolVersion === "string" ? answer.result.protocolVersion : current;
}
