/**
 * Oracles: server-filesystem on a temp dir (also given its directory as MCP roots, which it
 * asks the client for) and server-memory on a temp file.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { mcpShell } from "../../src/driver/index.js";
import { filesystemBin, memoryBin, useDrivers } from "./support.js";

const track = useDrivers();
const scratch = mkdtempSync(path.join(tmpdir(), "mcp-testkit-driver-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("server-filesystem", () => {
  const dir = path.join(scratch, "files");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "hello.txt"), "Hello from the driver test\n");

  it("lists, reads and writes files in the directory it was given", async () => {
    const app = track(mcpShell(`"${filesystemBin}" "${dir}"`));
    expect(await app.hasTool("read_text_file")).toBe(true);
    const listing = await app.callTool("list_directory", { path: dir });
    expect(listing.expectSuccess().getTextContent()).toContain("[FILE] hello.txt");
    const file = await app.callTool("read_text_file", { path: path.join(dir, "hello.txt") });
    expect(file.getTextContent()).toBe("Hello from the driver test\n");
    await app.callTool("write_file", { path: path.join(dir, "out.txt"), content: "written" }).then((r) => r.expectSuccess());
    expect(readFileSync(path.join(dir, "out.txt"), "utf8")).toBe("written");
    const outside = await app.callTool("read_text_file", { path: "/etc/hostname" });
    expect(outside.isError).toBe(true);
    expect(() => outside.expectSuccess()).toThrow(/Access denied|outside allowed/);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("takes its allowed directories from the client's roots, and follows roots changes", async () => {
    const other = path.join(scratch, "other");
    mkdirSync(other);
    const app = track(mcpShell(`"${filesystemBin}"`, { roots: [{ uri: pathToFileURL(dir).href, name: "files" }] }));
    await app.initialize();
    // The server asks for roots after initialization, and again after roots/list_changed.
    const allowedDirectories = async (expected: string) => {
      let text = "";
      for (let attempt = 0; attempt < 100 && !text.includes(expected); attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        text = (await app.callTool("list_allowed_directories")).getTextContent() ?? "";
      }
      return text;
    };
    expect(await allowedDirectories(dir)).toContain(dir);
    await app.setRoots([{ uri: pathToFileURL(other).href, name: "other" }]);
    const after = await allowedDirectories(other);
    expect(after).toContain(other);
    expect(after).not.toContain(dir);
    expect(app.recorder.byMethod("roots/list").length).toBeGreaterThanOrEqual(4); // two requests, two answers
    await app.close();
  });
});

describe("server-memory", () => {
  it("creates entities and relations and finds them again", async () => {
    const file = path.join(scratch, "memory.jsonl");
    const app = track(mcpShell(`"${memoryBin}"`, { env: { MEMORY_FILE_PATH: file } }));
    await app
      .callTool("create_entities", {
        entities: [
          { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
          { name: "Analytical Engine", entityType: "machine", observations: [] },
        ],
      })
      .then((r) => r.expectSuccess());
    await app.callTool("create_relations", { relations: [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }] });
    const found = await app.callTool("search_nodes", { query: "Ada" });
    expect(found.getTextContent()).toContain("wrote the first program");
    const graph = await app.callTool("read_graph");
    expect(graph.getTextContent()).toContain("programmed");
    expect(app.problems).toEqual([]);
    await app.close();
    expect(readFileSync(file, "utf8")).toContain('"name":"Ada"');
  });
});
