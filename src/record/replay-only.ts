/**
 * The `replay` record mode: the recording answers, the server is never reached. A request the
 * recording never saw fails as a fake mismatch does (MCP_FAKE_MISMATCH, naming the closest
 * recorded call), so a test that strays from what was recorded fails loud instead of going live.
 */
import { readFile, writeFile } from "node:fs/promises";
import { McpTestkitError } from "../errors.js";
import { mockMcp, type MockMcpOptions } from "../mock/mock-mcp.js";
import type { McpRecording, RecordingMockOptions } from "./record-mcp.js";
import { recordingBlocks } from "./recorded-calls.js";

type Json = Record<string, unknown>;

export async function replayOnly(from: string | Json, mock: RecordingMockOptions | undefined): Promise<McpRecording> {
  const source = typeof from === "string" ? JSON.stringify(from) : "the recording";
  const content = typeof from === "string" ? await readRecording(from) : from;
  const blocks = recordingBlocks(content, source);
  // A scenario carries the server's identity and listing; a fixture file only its answers.
  const scenario: Json = "mcpFakes" in content ? { fixtures: blocks } : "fixtures" in content ? content : { fixtures: blocks };
  const server = await mockMcp({ ...mock, ...scenario } as MockMcpOptions);
  const fixture = () => ({ mcpFakes: blocks[0] as unknown as Json });
  const close = () => server.close();
  return {
    server,
    exchanges: [],
    scenario: () => scenario,
    fixture,
    async save(path, { format = "scenario" } = {}) {
      await writeFile(path, `${JSON.stringify(format === "fixture" ? fixture() : scenario, null, 2)}\n`);
      return path;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function readRecording(path: string): Promise<Json> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new McpTestkitError(
      `recordMcp: mode "replay" cannot read the recording ${JSON.stringify(path)}: ${(error as Error).message}. Record it first (mode "record" or "auto"), or give the path of an existing recording.`,
    );
  }
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new McpTestkitError(`recordMcp: the recording ${JSON.stringify(path)} is not JSON (${(error as Error).message}). Give a file written by mcp-testkit record.`);
  }
}
