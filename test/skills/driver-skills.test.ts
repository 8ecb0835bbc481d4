/**
 * The driver reads skills as a host should: `listSkills()` fetches no file; `readSkill()` fetches
 * one file when asked and verifies its size, digest and (SKILL.md) frontmatter before handing it
 * over. A mock whose listing lies (`listed`) shows each refusal, both eras, memory and HTTP.
 */
import { describe, expect, it } from "vitest";
import { mockMcp, type SkillDefinition } from "../../src/index.js";
import { mcpAttach, mcpConnect, RequestFailedError, SkillVerificationError } from "../../src/driver/index.js";

const PDF: SkillDefinition = {
  description: "Extract, fill, and assemble PDF documents",
  frontmatter: { license: "MIT", metadata: { owner: "docs-team", tags: ["pdf", "forms"] } },
  body: "# PDF processing\n\nSee references/FORMS.md.\n",
  files: { "references/FORMS.md": "# Forms\n", "scripts/fill.py": "print('fill')\n", "assets/logo.png": new Uint8Array([137, 80, 78, 71, 0, 255]) },
};

async function refusal(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SkillVerificationError);
  return error as SkillVerificationError;
}

describe("driver.listSkills() and readSkill()", () => {
  for (const era of ["legacy", { pin: "2026-07-28" }] as const) {
    it(`lists without reading, then reads each file verified (${typeof era === "string" ? era : era.pin}, over HTTP)`, async () => {
      await using mock = await mockMcp({ skills: { "acme/pdf-processing": PDF, "code-review": { description: "Review a change" } }, pageSize: 1 });
      await using driver = mcpConnect(mock.url!, { versionNegotiation: era });
      const skills = await driver.listSkills();
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://acme/pdf-processing/SKILL.md", "skill://code-review/SKILL.md"]);
      // Listing fetched nothing: no resources/read went out.
      expect(mock.messages.filter((message) => "method" in message && message.method === "resources/read")).toEqual([]);

      const skillMd = await driver.readSkill(skills[0]!);
      expect(skillMd).toMatchObject({ verified: true, mimeType: "text/markdown", frontmatter: { name: "pdf-processing", license: "MIT", metadata: { owner: "docs-team", tags: ["pdf", "forms"] } } });
      expect(skillMd.body).toContain("See references/FORMS.md.");
      expect((await driver.readSkill(skills[0]!, "references/FORMS.md")).text).toBe("# Forms\n");
      const logo = await driver.readSkill(skills[0]!, "assets/logo.png");
      expect([...logo.bytes]).toEqual([137, 80, 78, 71, 0, 255]);
      expect(logo.verified).toBe(true);
      expect(driver.problems).toEqual([]);
    });
  }

  it("reads a skill named by its URI (skills/get first), and a directory's children", async () => {
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": PDF } });
    await using driver = mcpAttach(mock.connectInMemory());
    expect((await driver.getSkill("skill://pdf-processing/SKILL.md")).frontmatter.name).toBe("pdf-processing");
    expect((await driver.readSkill("skill://pdf-processing/SKILL.md")).verified).toBe(true);
    const children = await driver.readSkillDirectory("skill://pdf-processing");
    expect(children.map((child) => [child.uri, child.mimeType])).toEqual([
      ["skill://pdf-processing/SKILL.md", "text/markdown"],
      ["skill://pdf-processing/references", "inode/directory"],
      ["skill://pdf-processing/scripts", "inode/directory"],
      ["skill://pdf-processing/assets", "inode/directory"],
    ]);
    expect((await driver.readSkillDirectory("skill://pdf-processing/scripts")).map((child) => child.uri)).toEqual(["skill://pdf-processing/scripts/fill.py"]);
  });

  it("refuses a file whose digest differs from the listing's, and says what was listed and what came", async () => {
    const wrong = `sha256:${"0".repeat(64)}`;
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": { ...PDF, listed: { files: { "references/FORMS.md": { digest: wrong } } } } } });
    await using driver = mcpAttach(mock.connectInMemory());
    const [skill] = await driver.listSkills();
    expect((await driver.readSkill(skill!)).verified).toBe(true); // SKILL.md itself is listed truly
    const error = await refusal(driver.readSkill(skill!, "references/FORMS.md"));
    expect(error.check).toBe("digest");
    expect(error.uri).toBe("skill://pdf-processing/references/FORMS.md");
    expect(error.listed).toBe(wrong);
    expect(error.message).toContain(`the listing says ${wrong}, the bytes read hash to sha256:`);
    expect(error.message).toContain("Its content was not used");
  });

  it("refuses a file whose size differs, before hashing it", async () => {
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": { ...PDF, listed: { files: { "SKILL.md": { size: 3 } } } } } });
    await using driver = mcpAttach(mock.connectInMemory());
    const [skill] = await driver.listSkills();
    const error = await refusal(driver.readSkill(skill!));
    expect(error.check).toBe("size");
    expect(error.message).toMatch(/the listing says 3 bytes, the server sent \d+/);
  });

  it("refuses a SKILL.md whose frontmatter differs from the listing's, naming each field", async () => {
    await using mock = await mockMcp({
      transport: "memory",
      skills: { "pdf-processing": { ...PDF, listed: { frontmatter: { name: "pdf-processing", description: "Summarise PDFs", license: "MIT", metadata: PDF.frontmatter!.metadata } } } },
    });
    await using driver = mcpAttach(mock.connectInMemory());
    const [skill] = await driver.listSkills();
    const error = await refusal(driver.readSkill(skill!));
    expect(error.check).toBe("frontmatter");
    expect(error.differences).toEqual(['description: listed "Summarise PDFs", read "Extract, fill, and assemble PDF documents"']);
  });

  it("refuses to read a file the skill does not list, without asking the server", async () => {
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": PDF } });
    await using driver = mcpAttach(mock.connectInMemory());
    const [skill] = await driver.listSkills();
    const error = await refusal(driver.readSkill(skill!, "references/MISSING.md"));
    expect(error.check).toBe("unlisted");
    expect(error.message).toContain("skill://pdf-processing/references/FORMS.md");
    expect(mock.messages.filter((message) => "method" in message && message.method === "resources/read")).toEqual([]);
  });

  it("reads a skill listed as dynamic unverified (there is nothing to check against)", async () => {
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": { ...PDF, manifest: "dynamic" } } });
    await using driver = mcpAttach(mock.connectInMemory());
    const [skill] = await driver.listSkills();
    expect(skill!.resources).toBe("dynamic");
    const file = await driver.readSkill(skill!, "references/FORMS.md");
    expect(file).toMatchObject({ verified: false, text: "# Forms\n" });
  });

  it("an unknown skill is the server's -32602, with the closest it serves", async () => {
    await using mock = await mockMcp({ transport: "memory", skills: { "pdf-processing": PDF } });
    await using driver = mcpAttach(mock.connectInMemory());
    const error = await driver.getSkill("skill://pdf-procesing/SKILL.md").then(
      () => undefined,
      (thrown: unknown) => thrown as RequestFailedError,
    );
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error?.code).toBe(-32602);
    expect(error?.serverMessage).toBe('Unknown skill: skill://pdf-procesing/SKILL.md; did you mean "skill://pdf-processing/SKILL.md"?');
  });
});
