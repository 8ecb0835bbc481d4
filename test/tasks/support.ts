/**
 * Shared parts of the tasks tests: a mock closed after each test, and raw requests through
 * `server.handle()` in either revision (2026-07-28 with the tasks extension declared or not;
 * 2025-11-25 on a session that initialized).
 */
import { afterEach } from "vitest";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";
import { modernMeta } from "../modern/support.js";

export const TASKS = "io.modelcontextprotocol/tasks";

const open: MockMcpServer[] = [];

export function useMockCleanup(): void {
  afterEach(async () => {
    for (const server of open.splice(0)) await server.close();
  });
}

export interface RawAnswer {
  id: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: any };
}

/** A mock and a 2026-07-28 sender (declaring the extension unless `extension: false`). */
export async function modernMock(options: MockMcpOptions) {
  const server = await mockMcp({ transport: "memory", ...options });
  open.push(server);
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}, how: { extension?: boolean } = {}): Promise<RawAnswer> => {
    const capabilities = { elicitation: {}, sampling: {}, ...(how.extension !== false && { extensions: { [TASKS]: {} } }) };
    const text = await server.handle(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": capabilities }) } }));
    return JSON.parse(text!) as RawAnswer;
  };
  return { server, send };
}

/** Polls tasks/get until the task is terminal (bounded: 200 polls). */
export async function untilTerminal(send: (method: string, params: Record<string, unknown>) => Promise<RawAnswer>, taskId: string): Promise<RawAnswer> {
  for (let i = 0; i < 200; i++) {
    const got = await send("tasks/get", { taskId });
    const status = got.result?.status ?? got.result?.task?.status;
    if (got.error || ["completed", "failed", "cancelled"].includes(status)) return got;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} did not end within 200 polls`);
}
