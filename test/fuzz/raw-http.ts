/** A raw HTTP exchange over loopback for the fuzz suite: any method, any headers, any body, with a deadline. */
import { request as httpRequest } from "node:http";

export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** Sends one request on a fresh connection; rejects (and destroys the request) if the answer takes longer than `deadlineMs`. */
export function rawRequest(url: string, init: { method: string; headers: Record<string, string>; body?: string }, deadlineMs: number): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: init.method, headers: init.headers, agent: false, setHost: !("host" in init.headers) }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"], body });
      });
      res.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${init.method} ${url} got no complete answer within ${deadlineMs} ms`));
    }, deadlineMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(init.body);
  });
}

/** The JSON-RPC messages of an answer body: JSON (one message or a batch) or the `data:` lines of SSE. */
export function messagesOf(answer: RawAnswer): unknown[] {
  if (answer.contentType?.startsWith("text/event-stream")) {
    return answer.body
      .split("\n")
      .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
      .map((line) => JSON.parse(line.slice(5)) as unknown);
  }
  const parsed = JSON.parse(answer.body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}
