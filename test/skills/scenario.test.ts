/**
 * Skills and app views in a JSON scenario (`mcp-testkit mock scenario.json`): the schema editors
 * use and the loader agree on what a good one is, and both refuse a malformed skill; the CLI
 * serves the example scenario's skills to the driver.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadScenario } from "../../src/cli/scenario.js";
import { mockMcp } from "../../src/index.js";
import { mcpAttach } from "../../src/driver/index.js";

const readJson = (relative: string) => JSON.parse(readFileSync(fileURLToPath(new URL(relative, import.meta.url)), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(readJson("../../schemas/mcp-fakes.schema.json"));
const validate = ajv.compile(readJson("../../schemas/scenario.schema.json"));
const EXAMPLE = fileURLToPath(new URL("../../examples/scenarios/skills.json", import.meta.url));

async function loadError(scenario: Record<string, unknown>): Promise<string | undefined> {
  try {
    await (await mockMcp({ transport: "memory", ...scenario } as never)).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("skills in a scenario file", () => {
  it("the example loads, and its skills and view reach the driver", async () => {
    const scenario = await loadScenario(EXAMPLE);
    await using server = await mockMcp({ transport: "memory", ...scenario } as never);
    await using driver = mcpAttach(server.connectInMemory());
    const skills = await driver.listSkills();
    expect(skills.map((skill) => skill.uri)).toEqual(["skill://pdf-processing/SKILL.md", "skill://acme/code-review/SKILL.md"]);
    expect((await driver.readSkill(skills[1]!)).body).toBe("\nRead the diff, then comment.\n");
    expect((await driver.readResource("ui://weather/view.html")).contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
  });

  const broken: Array<[string, Record<string, unknown>, string]> = [
    ["a skill without a description", { skills: { "pdf-processing": { body: "x" } } }, 'has no "description"'],
    ["a skill name in capitals", { skills: { PDF: { description: "x" } } }, "breaks the Agent Skills naming rules"],
    ["a listed digest that is no digest", { skills: { pdf: { description: "x", listed: { files: { "SKILL.md": { digest: "abc" } } } } } }, '"sha256:" and 64 lowercase hex digits'],
    ["an unknown key", { skills: { pdf: { description: "x", file: {} } } }, 'did you mean "files"?'],
    ["a view that is not ui://", { apps: { "https://x/view": "<p/>" } }, "uses the ui:// scheme"],
  ];
  for (const [what, scenario, message] of broken) {
    it(`refuses ${what}, in the schema and the loader`, async () => {
      expect(validate(scenario)).toBe(false);
      expect(await loadError(scenario)).toContain(message);
    });
  }
});
