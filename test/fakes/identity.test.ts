/** The identity of a request: headers, then query, then the session; repeats and bad policies are HTTP 400s. */
import { describe, expect, it } from "vitest";
import { bindIdentity, readIdentity } from "../../src/fakes/index.js";

const id = (result: ReturnType<typeof readIdentity>) => {
  if (result.kind !== "identity") throw new Error(JSON.stringify(result));
  return result.identity;
};

describe("readIdentity", () => {
  it("reads the test id, context and undeclared override from our headers, percent-decoded", () => {
    const headers = new Headers({ "X-Test-Id": encodeURIComponent("tickets › retry"), "X-Test-Context": "docs%20search", "X-Test-Undeclared": " DENY " });
    expect(id(readIdentity({ headers }))).toEqual({ testId: "tickets › retry", context: "docs search", undeclared: "deny" });
  });

  it("accepts the document's X-AIMock-Context and X-AIMock-MCP-Undeclared headers", () => {
    expect(id(readIdentity({ headers: { "x-aimock-context": "docs-search", "x-aimock-mcp-undeclared": "allow" } }))).toEqual({ testId: null, context: "docs-search", undeclared: "allow" });
  });

  it("falls back to the query, then to the session, field by field", () => {
    const session = { testId: "from session", context: "session ctx", undeclared: "deny" as const };
    expect(id(readIdentity({ query: "?testId=weather+%E2%80%BA+seattle", session }))).toEqual({ testId: "weather › seattle", context: "session ctx", undeclared: "deny" });
    expect(id(readIdentity({ headers: { "X-Test-Id": "h" }, query: new URLSearchParams("testId=q&context=c"), session }))).toEqual({ testId: "h", context: "c", undeclared: "deny" });
  });

  it("uses a header that does not decode as sent, without rejecting the request", () => {
    expect(id(readIdentity({ headers: { "X-Test-Id": "50% off" } })).testId).toBe("50% off");
    expect(id(readIdentity({ headers: { "X-Test-Id": "%2550%25" } })).testId).toBe("%50%");
  });

  it("treats an empty value as not sent", () => {
    expect(id(readIdentity({ headers: { "X-Test-Id": "" }, query: "testId=", session: { testId: "s" } })).testId).toBe("s");
  });

  it("returns only the fields sent, which bindIdentity stores on the session at initialize", () => {
    const first = readIdentity({ headers: { "X-Test-Id": "T1" }, query: "undeclared=deny" });
    if (first.kind !== "identity") throw new Error("unexpected");
    expect(first.sent).toEqual({ testId: "T1", undeclared: "deny" });
    const session = bindIdentity(undefined, first.sent);
    expect(session).toEqual({ testId: "T1", context: null, undeclared: "deny" });
    // A later request's value wins for that field only, for that request.
    expect(id(readIdentity({ headers: { "X-Test-Context": "c" }, session }))).toEqual({ testId: "T1", context: "c", undeclared: "deny" });
    expect(bindIdentity(session, { context: "c2" })).toEqual({ testId: "T1", context: "c2", undeclared: "deny" });
  });

  it.each([
    [{ query: "testId=a&testId=b" }, "Duplicate ?testId= query parameter: 2 values sent, expected one."],
    [{ headers: { "x-test-id": ["a", "b"] } }, "Duplicate X-Test-Id header: 2 values sent, expected one."],
    [{ headers: { "X-Test-Id": "h" }, query: "context=a&context=b" }, "Duplicate ?context= query parameter: 2 values sent, expected one."],
    [{ headers: { "x-test-id": "h" }, query: "testId=a&testId=b" }, "Duplicate ?testId= query parameter: 2 values sent, expected one."],
    [{ headers: { "X-Test-Context": "a", "X-AIMock-Context": "b" } }, 'Duplicate context: the X-Test-Context and X-AIMock-Context headers both sent, with different values ("a", "b"); send one.'],
  ])("a field sent twice on one path (%j) is HTTP 400 MCP_DUPLICATE_IDENTITY", (input, error) => {
    expect(readIdentity(input)).toEqual({ kind: "http-error", status: 400, body: { error, code: "MCP_DUPLICATE_IDENTITY" } });
  });

  it("the same value in both context headers is one value", () => {
    expect(id(readIdentity({ headers: { "X-Test-Context": "a", "X-AIMock-Context": "a" } })).context).toBe("a");
  });

  it.each([
    [{ headers: { "X-AIMock-MCP-Undeclared": "alow" } }, 'Invalid X-AIMock-MCP-Undeclared header: "alow"; expected allow or deny.'],
    [{ query: "undeclared=no" }, 'Invalid ?undeclared= query parameter: "no"; expected allow or deny.'],
  ])("a bad undeclared override (%j) is HTTP 400 MCP_INVALID_UNDECLARED, so a typo never turns deny into allow", (input, error) => {
    expect(readIdentity(input)).toEqual({ kind: "http-error", status: 400, body: { error, code: "MCP_INVALID_UNDECLARED" } });
  });
});
