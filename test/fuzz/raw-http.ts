/** A raw HTTP exchange over loopback for the fuzz suite: any method, any headers, any body, with a deadline. */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** Sends one request on a fresh connection; rejects (and destroys the request) if the answer takes longer than `deadlineMs`. */
export function rawRequest(url: string, init: { method: string; headers: Record<string, string>; body?: string }, deadlineMs: number): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: init.method, headers: init.headers, agent: false, setHost: !("host" in init.headers) },
      (res) => {
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
      },
    );
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

/**
 * One request written byte for byte on a fresh socket to 127.0.0.1:`port`: the request target as
 * given (absolute-form, a fragment) and only the headers given (no Host unless passed). The
 * connection closes after the answer; rejects if it takes longer than `deadlineMs`.
 */
export function socketRequest(
  port: number,
  init: { method: string; target: string; headers: Record<string, string>; body?: string },
  deadlineMs: number,
): Promise<RawAnswer & { headers: Record<string, string> }> {
  const body = init.body ?? "";
  const lines = [`${init.method} ${init.target} HTTP/1.1`, ...Object.entries(init.headers).map(([name, value]) => `${name}: ${value}`), "connection: close"];
  if (body !== "" || init.method === "POST") lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a half-closed socket lets node drop an answer that is still being made.
    const socket = connect(port, "127.0.0.1", () => socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${init.method} ${init.target} got no complete answer within ${deadlineMs} ms`));
    }, deadlineMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A whole HTTP/1.1 answer (read to the connection's close): status, headers (lower-case names) and body, chunked or not. */
function parseAnswer(bytes: Buffer): RawAnswer & { headers: Record<string, string> } {
  const split = bytes.indexOf("\r\n\r\n");
  if (split === -1) throw new Error(`not an HTTP answer: ${JSON.stringify(bytes.toString("utf8", 0, 200))}`);
  const [statusLine, ...headerLines] = bytes.toString("latin1", 0, split).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  let body = bytes.subarray(split + 4);
  if (headers["transfer-encoding"] === "chunked") {
    const parts: Buffer[] = [];
    // Bounded by the bytes: each pass consumes one chunk (a zero-size chunk ends it).
    for (let at = 0; at < body.length; ) {
      const eol = body.indexOf("\r\n", at);
      const size = parseInt(body.toString("latin1", at, eol), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: Number(statusLine!.split(" ")[1]), contentType: headers["content-type"], headers, body: body.toString("utf8") };
}
