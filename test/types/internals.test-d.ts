/**
 * The engine's own parts are internals, not public API: nothing a user imports from the package
 * root can tie them to the engine's shape. Each import below must fail to compile; if one of
 * them is exported again (by a new `export *`, say), its `@ts-expect-error` goes unused and this
 * file fails the type check. The runtime side is in test/packaging.test.ts.
 */
// @ts-expect-error Engine is the mock's core, not public API.
import type { Engine } from "../../src/index.js";
// @ts-expect-error Connection is the engine's per-client state.
import type { Connection } from "../../src/index.js";
// @ts-expect-error Outcome is what the engine hands a wire, an internal contract.
import type { Outcome } from "../../src/index.js";
// @ts-expect-error Peer is how the engine writes to a client, an internal contract.
import type { Peer } from "../../src/index.js";
// @ts-expect-error Session was the engine's state per client (now Connection and NegotiatedState).
import type { Session } from "../../src/index.js";
// @ts-expect-error NegotiatedState is what a handshake agreed, kept by the engine.
import type { NegotiatedState } from "../../src/index.js";
// @ts-expect-error isObject is a helper of ours (a plain-object check), not public API.
import { isObject } from "../../src/index.js";
// @ts-expect-error wireDirection is the recorder's rule for a message's schema direction, not public API.
import { wireDirection } from "../../src/index.js";
import { describe, expectTypeOf, it } from "vitest";

describe("the package root", () => {
  it("exports none of the engine's internals (the imports above fail to compile)", () => {
    expectTypeOf<Engine | Connection | Outcome | Peer | Session | NegotiatedState>().toBeAny();
    expectTypeOf(isObject).toBeAny();
    expectTypeOf(wireDirection).toBeAny();
  });
});
