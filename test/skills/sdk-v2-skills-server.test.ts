/**
 * The driver against a real skills server: SDK v2's `SkillCatalog` (the SDK's own digests and
 * SKILL.md parsing) on an `McpServer` over Streamable HTTP, both eras. What the SDK lists, the
 * driver verifies and reads; nothing is fetched on listing.
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { memorySkillFiles, SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import { afterEach, describe, expect, it } from "vitest";
import { mcpConnect } from "../../src/driver/index.js";
import { serveWebHandler } from "../support/web-handler-server.js";

const FILES = {
  "pdf-processing/SKILL.md": "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  owner: docs\n---\n\n# PDF\n",
  "pdf-processing/references/FORMS.md": "# Forms\n",
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serveSkills(): Promise<string> {
  const catalog = await SkillCatalog.load(memorySkillFiles(FILES), { onWarning: () => undefined });
  const factory = () => {
    const server = new McpServer({ name: "sdk-v2-skills", version: "2.4.0" }, { capabilities: { resources: {} } });
    catalog.attach(server);
    return server;
  };
  const handler = createMcpHandler(factory);
  const web = await serveWebHandler(handler.fetch);
  cleanups.push(async () => {
    await web.close();
    await handler.close();
  });
  return web.url;
}

describe("the driver reads an SDK v2 skills server", () => {
  for (const versionNegotiation of [{ pin: "2026-07-28" }, "legacy"] as const) {
    it(`lists, then reads each file verified (${typeof versionNegotiation === "string" ? versionNegotiation : versionNegotiation.pin})`, async () => {
      await using driver = mcpConnect(await serveSkills(), { versionNegotiation });
      const skills = await driver.listSkills();
      expect(skills.map((skill) => skill.uri)).toEqual(["skill://pdf-processing/SKILL.md"]);
      expect(driver.messages.filter((record) => record.direction === "outgoing" && record.method === "resources/read")).toEqual([]);
      const skillMd = await driver.readSkill(skills[0]!);
      expect(skillMd).toMatchObject({ verified: true, frontmatter: { name: "pdf-processing", metadata: { owner: "docs" } } });
      expect((await driver.readSkill(skills[0]!, "references/FORMS.md")).text).toBe("# Forms\n");
      expect(driver.problems).toEqual([]);
    });
  }
});
