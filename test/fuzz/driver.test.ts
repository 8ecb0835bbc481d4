/**
 * Fuzzing the driver (public API only) against hostile stdio servers: garbage lines, wrong ids,
 * notifications with names from Object.prototype, silence, half a message, a closed stdout, an
 * exit mid-call. Every call settles (a result or an Error) within its deadline, close() settles
 * too, and nothing escapes as an uncaught exception (vitest fails a run on one).
 */
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect } from "vitest";
import { fc, it } from "@fast-check/vitest";
import { mcpShell } from "../../src/driver/index.js";
import { PROTOTYPE_NAMES } from "./arbitraries.js";
import { within } from "./bounds.js";
import { budget, LONG_RUN, testTimeout } from "./budget.js";

const SERVER = fileURLToPath(new URL("./servers/hostile-stdio.mjs", import.meta.url));
const REQUEST_TIMEOUT_MS = 400;
/** A call settles by its request time-out at the latest; the rest is room for a busy machine. */
const SETTLE_BOUND_MS = REQUEST_TIMEOUT_MS + 3_000;

const action = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ do: "ok" }) },
  fc.record({ do: fc.constant("garbage"), text: fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, " ")) }),
  fc.constant({ do: "wrongId" }),
  fc.record({
    do: fc.constant("notify"),
    method: fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.constantFrom("notifications/tools/list_changed", "notifications/message")),
    params: fc.oneof(fc.constant(undefined), fc.constant({}), fc.jsonValue({ maxDepth: 1 })),
  }),
  fc.constant({ do: "bothResultAndError" }),
  fc.constant({ do: "silent" }),
  fc.constant({ do: "partial" }),
  fc.constant({ do: "closeStdout" }),
  fc.record({ do: fc.constant("exit"), code: fc.constantFrom(0, 1) }),
);

/** Hostile servers tried: the long run stops at its time cap before FUZZ_RUNS here, so it says how far it got. */
let tried = 0;
afterAll(() => {
  if (LONG_RUN) console.log(`fuzz: the driver met ${tried} hostile servers`);
});

describe("fuzz: the driver against hostile stdio servers", () => {
  it.prop([fc.array(action, { minLength: 1, maxLength: 4 })], budget(12, 10))(
    "every call settles with a result or an Error within its deadline, and close() settles",
    async (script) => {
      tried++;
      const driver = mcpShell(`node ${JSON.stringify(SERVER)}`, { env: { HOSTILE_SCRIPT: JSON.stringify(script) }, requestTimeout: REQUEST_TIMEOUT_MS });
      try {
        const calls = [() => driver.initialize(), () => driver.callTool("anything", { a: 1 }), () => driver.ping()];
        for (const call of calls) {
          const settled = await within(
            call().then(
              () => "result",
              (error: unknown) => error,
            ),
            SETTLE_BOUND_MS,
            "a driver call",
          );
          if (settled !== "result") expect(settled).toBeInstanceOf(Error);
        }
      } finally {
        await within(
          driver.close(1_000).catch(() => undefined),
          SETTLE_BOUND_MS,
          "close()",
        );
      }
    },
    testTimeout(10),
  );
});
