/**
 * MCP Apps: the mock serves `ui://` views as `text/html;profile=mcp-app` with their sandbox needs
 * in `_meta.ui`, ties tools to them, and refuses a tool whose view it does not serve. The
 * validator (and so the driver) knows the extension's shapes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { mcpAttach } from "../../src/driver/index.js";
import { validateMessage } from "../../src/protocol/index.js";

const VIEW = "ui://weather/view.html";

describe("MCP Apps in the mock", () => {
  it("serves a view and the tool that names it, as an SDK client reads them", async () => {
    await using server = await mockMcp({
      transport: "memory",
      apps: { [VIEW]: { html: "<!doctype html><p>Sunny</p>", csp: { connectDomains: ["https://api.weather.example"] }, prefersBorder: true } },
      tools: { get_weather: { _meta: { ui: { resourceUri: VIEW, visibility: ["model", "app"] } }, responses: { returns: { tempC: 21 } } } },
    });
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(await server.connectInMemory());
    try {
      const { tools } = await client.listTools();
      expect(tools[0]?._meta).toEqual({ ui: { resourceUri: VIEW, visibility: ["model", "app"] } });
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        { uri: VIEW, name: "weather/view.html", mimeType: "text/html;profile=mcp-app", _meta: { ui: { csp: { connectDomains: ["https://api.weather.example"] }, prefersBorder: true } } },
      ]);
      const read = await client.readResource({ uri: VIEW });
      expect(read.contents).toEqual([{ uri: VIEW, mimeType: "text/html;profile=mcp-app", text: "<!doctype html><p>Sunny</p>" }]);
    } finally {
      await client.close();
    }
  });

  it("the driver finds no problem with the mock's views and tools", async () => {
    await using server = await mockMcp({ transport: "memory", apps: { [VIEW]: "<p>hi</p>" }, tools: { show: { _meta: { ui: { resourceUri: VIEW } } } } });
    await using driver = mcpAttach(server.connectInMemory());
    await driver.getTools();
    await driver.getResources();
    await driver.readResource(VIEW);
    expect(driver.problems).toEqual([]);
  });

  it("refuses a tool whose view is not served, naming the closest", async () => {
    const start = (options: Parameters<typeof mockMcp>[0]) =>
      mockMcp({ transport: "memory", ...options }).then(
        async (server) => (await server.close(), "started"),
        (error: Error) => error.message,
      );
    expect(await start({ apps: { [VIEW]: "<p/>" }, tools: { w: { _meta: { ui: { resourceUri: "ui://weather/veiw.html" } } } } })).toContain(
      'Tool "w": "_meta.ui.resourceUri" names "ui://weather/veiw.html", which the mock does not serve as an app view: did you mean "ui://weather/view.html"?',
    );
    expect(await start({ tools: { w: { _meta: { ui: { resourceUri: VIEW } } } } })).toContain('the mock serves no view; add one with the "apps" option');
    expect(await start({ apps: { "https://example.com/view": "<p/>" } })).toContain("an app view's URI uses the ui:// scheme");
    expect(await start({ apps: { [VIEW]: { html: "<p/>", csp: { scriptDomains: ["x"] } } as never } })).toContain(
      '"csp.scriptDomains": unknown CSP key; expected one of connectDomains, resourceDomains, frameDomains, baseUriDomains',
    );
    expect(await start({ apps: { [VIEW]: "<p/>" }, tools: { w: { _meta: { ui: { resourceUri: VIEW, csp: {} } } } } })).toContain('"csp" belongs on the view resource\'s _meta.ui, not on the tool');
  });
});

describe("the validator knows the Apps and Skills shapes", () => {
  const answer = (method: string, result: Record<string, unknown>) =>
    validateMessage({ jsonrpc: "2.0", id: 1, result }, { direction: "server-to-client", requestMethod: method, protocolVersion: "2025-11-25" });

  it("a tool's _meta.ui and a view's MIME type and _meta.ui", () => {
    expect(answer("tools/list", { tools: [{ name: "w", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "https://x", visibility: ["everyone"] } } }] })).toEqual([
      { path: "$.result.tools[0]._meta.ui.resourceUri", message: 'expected a ui:// URI naming the view resource, got "https://x"', rule: "result.shape" },
      { path: "$.result.tools[0]._meta.ui.visibility", message: 'expected a list of "model" and "app", got ["everyone"]', rule: "result.shape" },
    ]);
    expect(answer("resources/read", { contents: [{ uri: VIEW, mimeType: "text/html", text: "<p/>" }] })).toEqual([
      { path: "$.result.contents[0].mimeType", message: 'a ui:// view must be served as "text/html;profile=mcp-app"; got "text/html"', rule: "result.shape" },
    ]);
    expect(answer("resources/read", { contents: [{ uri: VIEW, mimeType: "text/html;profile=mcp-app", text: "<p/>", _meta: { ui: { prefersBorder: "yes" } } }] })).toEqual([
      { path: "$.result.contents[0]._meta.ui.prefersBorder", message: "expected true or false", rule: "result.shape" },
    ]);
  });

  it("skills/list entries and skills/get", () => {
    const entry = { uri: "skill://a/SKILL.md", frontmatter: { name: "a" }, resources: [{ uri: "skill://a/SKILL.md", digest: "sha256:ABC", size: -1 }] };
    expect(answer("skills/list", { skills: [entry] }).map((problem) => problem.path)).toEqual([
      "$.result.skills[0].frontmatter.description",
      "$.result.skills[0].resources[0].digest",
      "$.result.skills[0].resources[0].size",
    ]);
    expect(answer("skills/get", { skill: { ...entry, frontmatter: { name: "a", description: "b" }, resources: "dynamic" }, nextCursor: "x" })).toEqual([
      { path: "$.result.nextCursor", message: "skills/get answers one entry, which is not a list: no nextCursor", rule: "result.shape" },
    ]);
  });
});
