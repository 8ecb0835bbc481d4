/**
 * A fixture file's reads and gets take a `fault`, as a tool call's `step` does: a read answered
 * late, a read that drops the connection, a get that hangs until the client gives up. Checked
 * when the file loads, with the entry's path.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FixtureLoadError, mockMcp, type RequestEndEvent } from "../../src/index.js";
import { onCleanup, sdkClient, track, useCleanup } from "../wire/support/http.js";

useCleanup();

/** A fixture file with `content` in a directory of its own, removed after the test. */
async function fixtureFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-testkit-faults-"));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "faults.json");
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe("faults in a fixture file", () => {
  it("a read delayed, then a read that disconnects, and a get that hangs: the SDK client over Streamable HTTP meets each", async () => {
    const file = await fixtureFile({
      mcpFakes: {
        scope: "shared",
        resources: [{ uri: "file:///report.md", reads: [{ result: "# Report", fault: { delayMs: 20 } }, { fault: { disconnect: true } }] }],
        prompts: [{ name: "review", gets: [{ anyArgs: true, fault: { hang: true } }] }],
      },
    });
    const server = track(await mockMcp({ fixtures: file }));
    const ended: Array<[string, RequestEndEvent["outcome"]]> = [];
    server.on("request:end", (event) => ended.push([event.method, event.outcome]));
    const { client } = await sdkClient(server.url!);

    const started = Date.now();
    expect((await client.readResource({ uri: "file:///report.md" })).contents).toEqual([{ uri: "file:///report.md", mimeType: "text/plain", text: "# Report" }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);

    await expect(client.getPrompt({ name: "review" }, { timeout: 200 })).rejects.toThrow(/timed out/i);
    await expect(client.readResource({ uri: "file:///report.md" }, { timeout: 2000 })).rejects.toThrow();
    await expect
      .poll(() => ended.filter(([method]) => method !== "initialize" && method !== "notifications/cancelled"))
      .toEqual([
        ["resources/read", "result"],
        ["prompts/get", "none"],
        ["resources/read", "drop"],
      ]);
  });

  it("a fault that is not one, or a fault that answers with nothing beside it, is refused when the file loads, naming the entry", async () => {
    const refusal = async (reads: unknown[]) => {
      const file = await fixtureFile({ mcpFakes: { scope: "shared", resources: [{ uri: "file:///a", reads }] } });
      return mockMcp({ transport: "memory", fixtures: file }).then(
        () => undefined,
        (error: unknown) => error,
      );
    };
    const notBoolean = await refusal([{ result: "a", fault: { hang: "yes" } }]);
    expect(notBoolean).toBeInstanceOf(FixtureLoadError);
    expect((notBoolean as FixtureLoadError).message).toMatch(/reads\[0\]\.fault.*fault "hang" must be true or false/s);
    expect((notBoolean as FixtureLoadError).rule).toBe("mcp-fakes/bad-entry");
    // A delay alone ends nothing: the read still needs its result or error.
    const nothingBeside = await refusal([{ fault: { delayMs: 5 } }]);
    expect(nothingBeside).toBeInstanceOf(FixtureLoadError);
    expect((nothingBeside as FixtureLoadError).message).toMatch(/reads\[0\].*expected exactly one of them/s);
    // Two endings are the fault's one problem (not also a missing answer); a key inside "stream" is named as stream's.
    const twoEndings = (await refusal([{ fault: { hang: true, raw: "x" } }])) as FixtureLoadError;
    expect(twoEndings.message).toContain('fault gives "hang" and "raw"; each ends the request, so give one');
    expect(twoEndings.message).not.toContain("expected exactly one of them");
    const nested = (await refusal([{ result: "a", fault: { stream: { mode: "sse", bogus: 1 } } }])) as FixtureLoadError;
    expect(nested.message).toContain('fault "stream" must be { mode?: "json" | "sse", closeAfterEvents?: whole number, retryMs?: whole number of ms }, got an object');
  });
});
