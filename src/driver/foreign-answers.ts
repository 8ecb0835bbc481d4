/**
 * Answers that were neither JSON nor an event stream (a web page, most often: the URL is not the
 * MCP endpoint), kept by the id of the request they answered. The SDK's HTTP transport fails
 * such a request with an error that carries no content type, so the driver notes the type as
 * the response passes through its own `fetch`, and says it when the request fails.
 */
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Kept for requests not failed yet; past this many the oldest go. */
const KEPT = 100;

export class ForeignAnswers {
  private readonly contentTypes = new Map<JsonRpcId, string>();

  /** `fetch`, watched: a successful POST answered with another media type is noted for each request it carried. */
  watch(base: Fetch): Fetch {
    return async (url, init) => {
      const response = await base(url, init);
      if (init?.method !== "POST" || !response.ok || typeof init.body !== "string") return response;
      const contentType = response.headers.get("content-type");
      if (contentType === null || isMcpMediaType(contentType)) return response;
      for (const id of requestIds(init.body)) {
        if (this.contentTypes.size >= KEPT) this.contentTypes.delete(this.contentTypes.keys().next().value!);
        this.contentTypes.set(id, mediaType(contentType));
      }
      return response;
    };
  }

  /** The media type that answered request `id` instead of JSON or an event stream, once (it is forgotten when read). */
  take(id: JsonRpcId): string | undefined {
    const contentType = this.contentTypes.get(id);
    this.contentTypes.delete(id);
    return contentType;
  }
}

function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

function isMcpMediaType(contentType: string): boolean {
  const type = mediaType(contentType);
  return type === "application/json" || type === "text/event-stream";
}

/** The ids of the requests a POST body carries; none when it is not JSON. */
function requestIds(body: string): JsonRpcId[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: JsonRpcId[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (isObject(message) && typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number")) ids.push(message.id);
  }
  return ids;
}
