/**
 * The protected mock's public types: the `auth` option, `server.auth`, faults by name, the
 * record's events, and `call.auth` in a step function.
 */
import { describe, expectTypeOf, it } from "vitest";
import { mockMcp, type AuthEvent, type AuthFault, type CallerAuth, type MockAuth, type MockAuthOptions, type ToolCall } from "../../src/index.js";

describe("the protected mock's types", () => {
  it("takes auth options, true, or nothing", () => {
    expectTypeOf<MockAuthOptions>().toMatchTypeOf<{ scopes?: readonly string[]; faults?: readonly AuthFault[] }>();
    void mockMcp({ auth: true });
    void mockMcp({ auth: { consent: (request) => (request.scopes.includes("admin") ? "deny" : "approve"), faults: [{ fault: "iss-wrong" }] } });
    // @ts-expect-error a fault is named by one of its kinds
    void mockMcp({ auth: { faults: [{ fault: "iss-wrng" }] } });
  });

  it("gives server.auth and call.auth their shapes", async () => {
    const server = await mockMcp({ auth: {}, tools: { t: (call) => ({ returns: call.auth?.subject ?? "" }) } });
    expectTypeOf(server.auth).toEqualTypeOf<MockAuth>();
    expectTypeOf(server.auth.record).toEqualTypeOf<AuthEvent[]>();
    expectTypeOf<ToolCall["auth"]>().toEqualTypeOf<CallerAuth | undefined>();
    expectTypeOf<CallerAuth["scopes"]>().toEqualTypeOf<readonly string[]>();
    const event = server.auth.record[0];
    if (event?.kind === "authorization") expectTypeOf(event.pkce).toEqualTypeOf<{ challengeSent: boolean; method?: string }>();
    await server.close();
  });
});
