/**
 * The protected mock's part of the control API, under `/__mcp-testkit/auth/`: faults, the
 * record of the sign-in, expiring and revoking tokens, and a token on demand, for a test in
 * another process or language. Like every route on the mock's port it sits behind the router's
 * Host/Origin guard; it answers `{ error, code }` problems as the rest of the control API does.
 */
import { McpTestkitError } from "../errors.js";
import { parseJsonText } from "../protocol/message-text.js";
import type { AuthFault } from "./faults.js";
import type { IssueTokenOptions, MockAuth } from "./mock-auth.js";
import type { AuthEventKind } from "./sign-in-record.js";

export const AUTH_CONTROL_PREFIX = "/__mcp-testkit/auth";

const KINDS: readonly AuthEventKind[] = ["metadata", "registration", "authorization", "token", "revocation", "challenge"];

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
const problem = (status: number, code: string, error: string, headers?: Record<string, string>) => json(status, { error, code }, headers);

type Route = (request: Request, url: URL) => Promise<Response> | Response;

async function readBody(request: Request): Promise<Record<string, unknown> | unknown[] | Response> {
  const text = await request.text();
  if (text.trim() === "") return {};
  const read = parseJsonText(text);
  if (!("value" in read)) return problem(400, "MCP_CONTROL_BAD_JSON", "The body is not valid JSON (or nests too deep).");
  const value = read.value;
  if (typeof value !== "object" || value === null) return problem(400, "MCP_CONTROL_BAD_BODY", "The body must be a JSON object (or, for faults, an array of faults).");
  return value as Record<string, unknown> | unknown[];
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new McpTestkitError(`"${key}" must be a non-empty string.`);
  return value;
}

export function authControlHandler(auth: MockAuth): (request: Request) => Promise<Response> {
  const clientAction =
    (act: (clientId?: string) => number, word: string): Route =>
    async (request) => {
      const body = await readBody(request);
      if (body instanceof Response) return body;
      const clientId = Array.isArray(body) ? undefined : optionalString(body, "clientId");
      return json(200, { [word]: act(clientId) });
    };
  const routes: Record<string, Partial<Record<string, Route>>> = {
    "/journal": {
      GET: (_request, url) => {
        const kind = url.searchParams.get("kind") ?? undefined;
        if (kind !== undefined && !KINDS.includes(kind as AuthEventKind)) throw new McpTestkitError(`?kind= must be one of ${KINDS.join(", ")}, received ${JSON.stringify(kind)}.`);
        const limit = url.searchParams.get("limit");
        if (limit !== null && !/^\d{1,9}$/.test(limit)) throw new McpTestkitError(`?limit= must be a whole number, received ${JSON.stringify(limit)}.`);
        return json(200, auth.journal({ kind: kind as AuthEventKind | undefined, testId: url.searchParams.get("testId") ?? undefined, limit: limit === null ? undefined : Number(limit) }));
      },
    },
    "/faults": {
      GET: () => json(200, auth.faults),
      POST: async (request) => {
        const body = await readBody(request);
        if (body instanceof Response) return body;
        const faults = Array.isArray(body) ? body : Array.isArray(body.faults) ? body.faults : [body];
        auth.addFaults(...(faults as AuthFault[]));
        return json(200, { added: faults.length, faults: auth.faults });
      },
      DELETE: (_request, url) => json(200, { removed: auth.clearFaults(url.searchParams.get("testId") ?? undefined) }),
    },
    "/expire": { POST: clientAction((clientId) => auth.expireTokens(clientId), "expired") },
    "/revoke": { POST: clientAction((clientId) => auth.revokeTokens(clientId), "revoked") },
    "/token": {
      POST: async (request) => {
        const body = await readBody(request);
        if (body instanceof Response) return body;
        if (Array.isArray(body)) return problem(400, "MCP_CONTROL_BAD_BODY", 'The body must be an object such as { "scopes": ["mcp:tools"] }.');
        const scopes = body.scopes;
        if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string"))) throw new McpTestkitError('"scopes" must be an array of strings.');
        const options: IssueTokenOptions = {
          scopes: scopes as string[] | undefined,
          clientId: optionalString(body, "clientId"),
          subject: optionalString(body, "subject"),
          audience: optionalString(body, "audience"),
        };
        return json(200, { access_token: await auth.issueToken(options), token_type: "Bearer" });
      },
    },
    "/reset": {
      POST: () => {
        auth.reset();
        return json(200, { reset: true });
      },
    },
  };

  return async (request) => {
    const url = new URL(request.url);
    const route = routes[url.pathname.slice(AUTH_CONTROL_PREFIX.length)];
    if (route === undefined) {
      const list = Object.entries(routes).map(([path, methods]) => `${Object.keys(methods).join("|")} ${AUTH_CONTROL_PREFIX}${path}`);
      return problem(404, "MCP_CONTROL_NOT_FOUND", `No control route ${request.method} ${url.pathname}. Routes: ${list.join(", ")}.`);
    }
    const handle = route[request.method];
    if (handle === undefined)
      return problem(405, "MCP_CONTROL_METHOD_NOT_ALLOWED", `${url.pathname} takes ${Object.keys(route).join(", ")}, not ${request.method}.`, { allow: Object.keys(route).join(", ") });
    try {
      return await handle(request, url);
    } catch (error) {
      if (error instanceof McpTestkitError) return problem(400, error.code === undefined ? "MCP_CONTROL_BAD_BODY" : String(error.code), error.detail);
      throw error;
    }
  };
}
