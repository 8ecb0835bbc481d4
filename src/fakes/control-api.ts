/**
 * The control API: a web-standard handler `(Request) => Promise<Response>` for the routes under
 * `/__mcp-testkit/` (and aimock's `/__aimock/`, so clients written for aimock work), to load,
 * inspect and reset fakes and read the journal from another process or language. It checks no
 * Host or Origin itself, nor the body's size: the mock's router guards every route on its port,
 * this one included, and mounts it with `CONTROL_MAX_BODY_BYTES` and `controlBodyRefusal`.
 */
import { MAX_MESSAGE_DEPTH, parseJsonText } from "../protocol/message-text.js";
import type { FakesListing, InspectQuery } from "./inspect.js";
import type { JournalEntry, JournalQuery, McpFakeOutcome } from "./journal.js";
import type { FakeLoadProblem, FakeLoadWarning } from "./load-errors.js";

export const CONTROL_PREFIX = "/__mcp-testkit";
/** The document's prefix, accepted as an alias. */
export const CONTROL_PREFIX_ALIAS = "/__aimock";

/** What the handler needs from the fakes (see createFakes). */
export interface ControlTarget {
  addFromControl(body: Record<string, unknown>): { problems: FakeLoadProblem[]; warnings: FakeLoadWarning[]; blocksAdded: number };
  clear(): number;
  reset(testId?: string): void;
  inspect(query: InspectQuery): FakesListing;
  journal(query: JournalQuery): JournalEntry[];
  health(): Record<string, unknown>;
}

/** The largest body the control API is given, in bytes (the router refuses a larger one with 413). */
export const CONTROL_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** A body the router refused at the control API, worded as its other problems are: `{ error, code }`. */
export function controlBodyRefusal(refusal: { status: 413; maxBytes: number } | { status: 415; accepted: readonly string[] }): { error: string; code: string } {
  if (refusal.status === 413) return { error: `The body is over ${refusal.maxBytes} bytes; the control API reads at most ${refusal.maxBytes}.`, code: "MCP_CONTROL_BODY_TOO_LARGE" };
  return { error: `The body's Content-Type must be ${refusal.accepted.join(" or ")}.`, code: "MCP_CONTROL_UNSUPPORTED_MEDIA_TYPE" };
}
const OUTCOMES: ReadonlyArray<McpFakeOutcome | "failed"> = ["answered", "mismatch", "exhausted", "not_declared", "evicted", "failed"];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const problem = (status: number, code: string, error: string, headers?: Record<string, string>): Response => json(status, { error, code }, headers);

class BadQuery extends Error {}

/** The query as a record, refusing names the route does not know and repeated names. */
function readQuery(url: URL, known: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of new Set(url.searchParams.keys())) {
    if (!known.includes(name)) throw new BadQuery(`Unknown query parameter ?${name}=; this route takes ${known.map((k) => `?${k}=`).join(", ")}.`);
    const values = url.searchParams.getAll(name);
    if (values.length > 1) throw new BadQuery(`Duplicate ?${name}= query parameter: ${values.length} values sent, expected one.`);
    out[name] = values[0];
  }
  return out;
}

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new BadQuery(`?${name}= must be a whole number, received ${JSON.stringify(value)}.`);
  return Number(value);
}

async function readJsonBody(request: Request): Promise<{ value: unknown } | Response> {
  const text = await request.text();
  if (text.trim() === "") return { value: undefined };
  const read = parseJsonText(text);
  if ("value" in read) return read;
  if (read.unreadable.reason === "notJson") return problem(400, "MCP_CONTROL_BAD_JSON", `The body is not valid JSON (${read.unreadable.detail}).`);
  return problem(400, "MCP_CONTROL_TOO_DEEP", `The body nests arrays and objects more than ${MAX_MESSAGE_DEPTH} levels deep; no fixture does, so it is refused.`);
}

type Route = (request: Request, url: URL) => Promise<Response> | Response;

/** Each route's methods, under either prefix; the handler's table is checked against it. */
const ROUTE_METHODS = {
  "/health": ["GET"],
  "/journal": ["GET"],
  "/fakes": ["GET"],
  "/mcp/fakes": ["GET"],
  "/fixtures": ["POST", "DELETE"],
  "/reset": ["POST"],
} as const satisfies Record<string, readonly string[]>;

type RouteTable = { [P in keyof typeof ROUTE_METHODS]: Record<(typeof ROUTE_METHODS)[P][number], Route> };

/** The methods the control route at `pathname` takes; undefined where there is no such route. */
export function controlMethodsAt(pathname: string): readonly string[] | undefined {
  const prefix = [CONTROL_PREFIX, CONTROL_PREFIX_ALIAS].find((p) => pathname.startsWith(`${p}/`));
  return prefix === undefined ? undefined : (ROUTE_METHODS as Record<string, readonly string[] | undefined>)[pathname.slice(prefix.length)];
}

export function createControlHandler(target: ControlTarget): (request: Request) => Promise<Response> {
  const postFixtures: Route = async (request) => {
    const body = await readJsonBody(request);
    if (body instanceof Response) return body;
    const value = body.value;
    if (typeof value !== "object" || value === null || Array.isArray(value) || (!("mcpFakes" in value) && !("fixtures" in value))) {
      return problem(
        400,
        "MCP_CONTROL_BAD_BODY",
        'Expected a JSON object with an "mcpFakes" key (one block or an array of blocks), for example {"mcpFakes": {"scope": {"testId": "..."}, "tools": [...]}}.',
      );
    }
    const outcome = target.addFromControl(value as Record<string, unknown>);
    if (outcome.problems.length > 0) return json(400, { error: "Validation failed", details: outcome.problems, warnings: outcome.warnings });
    return json(200, { added: 0, mcpFakesAdded: outcome.blocksAdded, warnings: outcome.warnings });
  };

  const postReset: Route = async (request, url) => {
    const query = readQuery(url, ["testId"]);
    const body = await readJsonBody(request);
    if (body instanceof Response) return body;
    const fromBody = (body.value as { testId?: unknown } | undefined)?.testId;
    if (fromBody !== undefined && typeof fromBody !== "string") return problem(400, "MCP_CONTROL_BAD_BODY", `"testId" must be a string, received ${JSON.stringify(fromBody)}.`);
    const testId = query.testId ?? fromBody;
    target.reset(testId);
    return json(200, { reset: testId === undefined ? "all" : { testId } });
  };

  const getFakes: Route = (_request, url) => {
    const query = readQuery(url, ["testId", "context", "mount"]);
    return json(200, target.inspect(query));
  };

  const getJournal: Route = (_request, url) => {
    const query = readQuery(url, ["testId", "context", "mount", "method", "outcome", "service", "limit", "offset"]);
    if (query.outcome !== undefined && !OUTCOMES.includes(query.outcome as McpFakeOutcome))
      throw new BadQuery(`?outcome= must be one of ${OUTCOMES.join(", ")}, received ${JSON.stringify(query.outcome)}.`);
    // Every entry here is MCP traffic; another service has none.
    if (query.service !== undefined && query.service !== "mcp") return json(200, []);
    const { service: _service, limit: rawLimit, offset: rawOffset, outcome, ...filters } = query;
    return json(
      200,
      target.journal({ ...filters, ...(outcome !== undefined && { outcome: outcome as JournalQuery["outcome"] }), limit: count(rawLimit, "limit"), offset: count(rawOffset, "offset") }),
    );
  };

  const table: RouteTable = {
    "/health": { GET: () => json(200, { status: "ok", ...target.health() }) },
    "/journal": { GET: getJournal },
    "/fakes": { GET: getFakes },
    "/mcp/fakes": { GET: getFakes },
    "/fixtures": { POST: postFixtures, DELETE: () => json(200, { removed: target.clear() }) },
    "/reset": { POST: postReset },
  };
  const routes: Record<string, Partial<Record<string, Route>>> = table;

  return async (request) => {
    const url = new URL(request.url);
    const prefix = [CONTROL_PREFIX, CONTROL_PREFIX_ALIAS].find((p) => url.pathname.startsWith(`${p}/`));
    const route = prefix === undefined ? undefined : routes[url.pathname.slice(prefix.length)];
    if (!route) {
      return problem(
        404,
        "MCP_CONTROL_NOT_FOUND",
        `No control route ${request.method} ${url.pathname}. Routes: ${Object.entries(routes)
          .map(([path, methods]) => `${Object.keys(methods).join("|")} ${CONTROL_PREFIX}${path}`)
          .join(", ")}.`,
      );
    }
    const handle = route[request.method];
    if (!handle) return problem(405, "MCP_CONTROL_METHOD_NOT_ALLOWED", `${url.pathname} takes ${Object.keys(route).join(", ")}, not ${request.method}.`, { allow: Object.keys(route).join(", ") });
    try {
      return await handle(request, url);
    } catch (error) {
      if (error instanceof BadQuery) return problem(400, "MCP_CONTROL_BAD_QUERY", error.message);
      throw error;
    }
  };
}

/** Whether a path belongs to the control API, for a router that mounts it beside MCP endpoints. */
export function isControlPath(pathname: string): boolean {
  return pathname.startsWith(`${CONTROL_PREFIX}/`) || pathname.startsWith(`${CONTROL_PREFIX_ALIAS}/`);
}
