/**
 * The mock serves skills (SEP-2640) to real clients: SDK v2's SkillsClient lists, gets, reads
 * and verifies them over Streamable HTTP in 2026-07-28; SDK v1 reads the same `skill://` files as
 * resources in 2025-11-25. Malformed skills are refused when the mock starts, saying what to write.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { mockMcp, McpTestkitError, type SkillDefinition } from "../../src/index.js";
import { useV2Cleanup, v2Http } from "../modern/support.js";

useV2Cleanup();

const PDF: SkillDefinition = {
  description: "Extract, fill, and assemble PDF documents",
  body: "# PDF processing\n\nSkill body.\n",
  files: { "references/FORMS.md": "# Forms\n", "scripts/fill.py": "print('fill')\n" },
};

describe("skills served to SDK v2's SkillsClient (2026-07-28, HTTP)", () => {
  it("lists, gets and reads every file verified; a directory lists its children", async () => {
    await using server = await mockMcp({ skills: { "pdf-processing": PDF, "acme/code-review": { description: "Review a change", frontmatter: { license: "MIT" } } } });
    const skills = new SkillsClient(await v2Http(server.url!));
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);

    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((skill) => skill.frontmatter)).toEqual([
      { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
      { name: "code-review", description: "Review a change", license: "MIT" },
    ]);
    expect(listing).toMatchObject({ ttlMs: 0, cacheScope: "private" });

    const pdf = listing.skills[0]!;
    const skillMd = await skills.read(pdf);
    expect(skillMd).toMatchObject({ verified: true, frontmatter: { name: "pdf-processing" } });
    expect(skillMd.text).toBe("---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\n# PDF processing\n\nSkill body.\n");
    expect((await skills.read(pdf, "scripts/fill.py")).text).toBe("print('fill')\n");

    expect((await skills.get("skill://acme/code-review/SKILL.md")).skill.uri).toBe("skill://acme/code-review/SKILL.md");
    const children = await skills.readDirectory("skill://pdf-processing");
    expect(children.resources.map((child) => child.mimeType)).toEqual(["text/markdown", "inode/directory", "inode/directory"]);
  });

  it("a listing that lies about a file is caught by the SDK's own verification", async () => {
    await using server = await mockMcp({ skills: { "pdf-processing": { ...PDF, listed: { files: { "references/FORMS.md": { digest: `sha256:${"a".repeat(64)}` } } } } } });
    const skills = new SkillsClient(await v2Http(server.url!));
    const [pdf] = (await skills.list()).skills;
    await expect(skills.read(pdf!, "references/FORMS.md")).rejects.toBeInstanceOf(SkillVerificationError);
  });

  it("an unknown skill, a file as a directory and an unknown directory answer -32602 saying why", async () => {
    await using server = await mockMcp({ skills: { "pdf-processing": PDF } });
    const client = await v2Http(server.url!);
    const skills = new SkillsClient(client);
    await expect(skills.get("skill://pdf-processing")).rejects.toThrow("a skill is named by its SKILL.md URI: skill://pdf-processing/SKILL.md");
    await expect(skills.readDirectory("skill://pdf-processing/SKILL.md")).rejects.toThrow("skill://pdf-processing/SKILL.md is a file, not a directory; read it with resources/read");
    await expect(skills.readDirectory("skill://pdf-processing/reference")).rejects.toThrow('no directory skill://pdf-processing/reference; did you mean "skill://pdf-processing/references"?');
  });

  it("pages skills/list by pageSize, never splitting an entry", async () => {
    const many = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`skill-${i}`, { description: `Skill ${i}` }]));
    await using server = await mockMcp({ pageSize: 2, skills: many });
    const client = await v2Http(server.url!);
    const first = await client.request({ method: "skills/list", params: {} }, z.object({ skills: z.array(z.unknown()), nextCursor: z.string().optional() }).loose());
    expect(first.skills).toHaveLength(2);
    expect(typeof first.nextCursor).toBe("string");
    expect((await new SkillsClient(client).list()).skills).toHaveLength(5);
  });

  it("a mock without skills declares no skills extension", async () => {
    await using server = await mockMcp({ tools: { echo: { returns: "hi" } } });
    expect(new SkillsClient(await v2Http(server.url!)).supported).toBe(false);
  });
});

describe("skills in the legacy era", () => {
  it("SDK v1 reads skill:// files as resources and calls skills/list at 2025-11-25", async () => {
    await using server = await mockMcp({ skills: { "pdf-processing": PDF } });
    const client = new ClientV1({ name: "agent", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(server.url!)));
    try {
      expect(client.getServerCapabilities()).toMatchObject({ extensions: { "io.modelcontextprotocol/skills": { directoryRead: true } } });
      const { resources } = await client.listResources();
      expect(resources.find((resource) => resource.uri === "skill://pdf-processing/SKILL.md")).toEqual({
        uri: "skill://pdf-processing/SKILL.md",
        name: "pdf-processing",
        description: "Extract, fill, and assemble PDF documents",
        mimeType: "text/markdown",
        size: 115,
      });
      const read = await client.readResource({ uri: "skill://pdf-processing/references/FORMS.md" });
      expect(read.contents).toEqual([{ uri: "skill://pdf-processing/references/FORMS.md", mimeType: "text/markdown", text: "# Forms\n" }]);
      const listed = await client.request({ method: "skills/list", params: {} }, z.object({ skills: z.array(z.object({ uri: z.string() }).loose()) }));
      expect(listed.skills.map((skill) => skill.uri)).toEqual(["skill://pdf-processing/SKILL.md"]);
    } finally {
      await client.close();
    }
  });

  it("a revision without the extension answers -32601 saying where it exists", async () => {
    await using server = await mockMcp({ transport: "memory", protocolVersions: ["2025-06-18"], skills: { "pdf-processing": PDF } });
    const client = new ClientV1({ name: "agent", version: "1.0.0" });
    await client.connect(await server.connectInMemory());
    try {
      expect(client.getServerCapabilities()?.extensions).toBeUndefined();
      await expect(client.request({ method: "skills/list", params: {} }, z.object({}).loose())).rejects.toThrow(
        /-32601: Method not found: skills\/list is not part of protocol version 2025-06-18 \(it came with 2025-11-25/,
      );
    } finally {
      await client.close();
    }
  });
});

describe("a malformed skill is refused when the mock starts", () => {
  const refused = async (skills: Record<string, unknown>) => {
    const error = await mockMcp({ transport: "memory", skills: skills as never }).then(
      async (server) => (await server.close(), undefined),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpTestkitError);
    return (error as Error).message;
  };

  it("names the rule a bad name breaks", async () => {
    expect(await refused({ PDF_Processing: { description: "x" } })).toContain(
      `Skill "PDF_Processing": its name "PDF_Processing" (the path's last segment) breaks the Agent Skills naming rules: only lowercase letters, digits and '-' are allowed. For example "pdf-processing".`,
    );
    expect(await refused({ "pdf--processing": { description: "x" } })).toContain("may not start or end with '-' or hold '--'");
    expect(await refused({ "acme//pdf": { description: "x" } })).toContain('no empty, "." or ".." segment');
  });

  it("asks for a description, and says name and description are made for you", async () => {
    expect(await refused({ "pdf-processing": { body: "hi" } })).toContain('has no "description"');
    expect(await refused({ "pdf-processing": { description: "x", frontmatter: { name: "other" } } })).toContain('"frontmatter.name" is made for you');
  });

  it("reads a whole SKILL.md, and says what is wrong with one", async () => {
    expect(await refused({ "pdf-processing": "no frontmatter" })).toContain('its SKILL.md cannot be read: line 1: SKILL.md must begin with a "---" line');
    expect(await refused({ "pdf-processing": "---\nname: pdf\ndescription: x\n---\n" })).toContain(
      'its SKILL.md says name: "pdf", but the skill\'s name is its path\'s last segment, "pdf-processing"',
    );
    expect(await refused({ "pdf-processing": "---\nname: pdf-processing\n  bad: indent\n---\n" })).toContain('line 3: a plain value may not hold ": "; quote it');
  });

  it("refuses files outside the skill, and lies about files it does not have", async () => {
    expect(await refused({ "pdf-processing": { description: "x", files: { "../secrets.txt": "x" } } })).toContain('file "../secrets.txt" must be a path inside the skill');
    expect(await refused({ "pdf-processing": { description: "x", files: { "SKILL.md": "x" } } })).toContain('"files" may not hold "SKILL.md"');
    expect(await refused({ "pdf-processing": { description: "x", listed: { files: { "FORMS.md": { size: 1 } } } } })).toContain('"listed.files" names "FORMS.md", which is not a file of the skill');
    expect(await refused({ "pdf-processing": { description: "x", listed: { files: { "SKILL.md": { digest: "md5:abc" } } } } })).toContain('"sha256:" and 64 lowercase hex digits');
  });

  it("suggests the key meant for a typo", async () => {
    expect(await refused({ "pdf-processing": { descripton: "x" } })).toContain('did you mean "description"?');
  });
});
