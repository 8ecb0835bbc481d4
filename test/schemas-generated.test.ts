/**
 * schemas/*.json are generated from the zod definitions the mock checks with (`npm run
 * schemas`): a change to a step or a fixture entry that was not carried to the files fails here,
 * naming the command that fixes it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildJsonSchemas, schemasDir } from "../scripts/schemas.js";

describe("schemas/", () => {
  const built = buildJsonSchemas();

  it("holds the schemas editors use: mcp-fakes.schema.json, scenario.schema.json and surface.schema.json", () => {
    expect(Object.keys(built).sort()).toEqual(["mcp-fakes.schema.json", "scenario.schema.json", "surface.schema.json"]);
  });

  for (const [name, text] of Object.entries(built)) {
    it(`${name} is what npm run schemas writes`, () => {
      const committed = readFileSync(join(schemasDir, name), "utf8");
      expect(committed, `schemas/${name} differs from the zod definitions: run npm run schemas and commit the result`).toBe(text);
    });
  }

  it("a step in either file takes exactly the keys the step check takes, less those a fixture refuses", async () => {
    const { STEP_KEYS, FAKE_STEP_KEYS } = await import("../src/formats/step-keys.js");
    const scenario = JSON.parse(built["scenario.schema.json"]!);
    const fakes = JSON.parse(built["mcp-fakes.schema.json"]!);
    expect(Object.keys(scenario.$defs.step.properties)).toEqual([...STEP_KEYS]);
    expect(Object.keys(fakes.$defs.step.properties)).toEqual([...FAKE_STEP_KEYS]);
    expect(FAKE_STEP_KEYS).not.toContain("repeat");
    expect(FAKE_STEP_KEYS).not.toContain("inputRequired");
  });
});
