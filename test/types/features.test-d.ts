/**
 * Type tests for features of your own and handlers as values: a feature's state type flows into
 * its handlers, `use()` returns its own remover, and the policy takes only what it can act on.
 */
import { describe, expectTypeOf, it } from "vitest";
import { defineFeature, type McpFeature, type McpMethodHandler, type McpMethodRequest, type MessageEvent, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";

describe("defineFeature", () => {
  it("gives each handler the feature's own state", () => {
    const feature = defineFeature({
      name: "x-counter",
      state: () => ({ count: 0, names: [] as string[] }),
      methods: {
        "x/count": (request, state) => {
          expectTypeOf(request).toEqualTypeOf<McpMethodRequest>();
          expectTypeOf(state).toEqualTypeOf<{ count: number; names: string[] }>();
          return { count: state.count };
        },
      },
      notifications: {
        "notifications/x/reset": (notification, state) => {
          expectTypeOf(notification.params).toEqualTypeOf<Record<string, unknown>>();
          state.count = 0;
        },
      },
    });
    expectTypeOf(feature).toEqualTypeOf<McpFeature<{ count: number; names: string[] }>>();
    const options: MockMcpOptions = { features: [feature], onUnhandledMethod: "warn" };
    expectTypeOf(options.features).not.toBeUndefined();
  });

  it("refuses a feature without a name, and a policy it does not know", () => {
    // @ts-expect-error: a feature needs a name
    defineFeature({ methods: {} });
    // @ts-expect-error: "ignore" is not a policy
    const options: MockMcpOptions = { onUnhandledMethod: "ignore" };
    void options;
  });
});

describe("server.use()", () => {
  it("takes a handler and returns the function that removes it", () => {
    expectTypeOf<MockMcpServer["use"]>().parameters.toEqualTypeOf<[method: string, handler: McpMethodHandler]>();
    expectTypeOf<MockMcpServer["use"]>().returns.toEqualTypeOf<() => void>();
  });

  it("hears every message with its direction", () => {
    expectTypeOf<MessageEvent["direction"]>().toEqualTypeOf<"in" | "out">();
  });
});
