/**
 * Type tests for `server.url`: a string for the default HTTP wire, undefined for memory and stdio,
 * and either when the transport is only known at run time. Run by Vitest's typecheck (and tsc).
 */
import { describe, expectTypeOf, it } from "vitest";
import { mockMcp, type MockMcpOptions, type MockTransportKind } from "../../src/index.js";

describe("server.url is typed by the transport", () => {
  it("is a string over HTTP, the default", async () => {
    expectTypeOf((await mockMcp()).url).toEqualTypeOf<string>();
    expectTypeOf((await mockMcp({ tools: { t: { returns: 1 } } })).url).toEqualTypeOf<string>();
    expectTypeOf((await mockMcp({ transport: "http", port: 0 })).url).toEqualTypeOf<string>();
  });

  it("is undefined in memory and over stdio", async () => {
    expectTypeOf((await mockMcp({ transport: "memory" })).url).toEqualTypeOf<undefined>();
    expectTypeOf((await mockMcp({ http: false })).url).toEqualTypeOf<undefined>();
    expectTypeOf((await mockMcp({ transport: "stdio" })).url).toEqualTypeOf<undefined>();
  });

  it("is either when the transport is a variable", async () => {
    const transport = "memory" as MockTransportKind;
    expectTypeOf((await mockMcp({ transport })).url).toEqualTypeOf<string | undefined>();
    const options: MockMcpOptions = {};
    expectTypeOf((await mockMcp(options)).url).toEqualTypeOf<string | undefined>();
  });

  it("keeps step functions typed inside the options", async () => {
    await mockMcp({ tools: { t: (call) => ({ returns: call.arguments }) } });
    // @ts-expect-error an unknown transport is a type error
    await mockMcp({ transport: "websocket" });
  });
});
