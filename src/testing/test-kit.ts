/**
 * The kit a test talks to: the mock server, a connected SDK client, and tool assertions through
 * that client. `mcpTestKit()` renews its instance around every test; `createTestKit()` holds one
 * instance for one test.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError } from "../errors.js";
import type { MockMcpServer } from "../mock/mock-mcp.js";
import { resolveHooks, type TestHooks } from "./hooks.js";
import { checkKitOptions, openKitInstance, type KitInstance, type KitTransport, type McpTestKitOptions } from "./kit-instance.js";
import { testOutcome, traceDirOf, writeTestPage, writeTestTrace } from "./failure-traces.js";
import { currentTestName } from "./test-name.js";
import { assertToolExists, assertToolFails, assertToolReturns, type ResultCheck, type ToolFailure } from "./tool-assertions.js";

export interface McpTestKit {
  /** The test's mock server: register tools, resources and prompts, read `calls`, assert. */
  readonly server: MockMcpServer;
  /** An official SDK `Client`, connected to `server` in memory and initialized. */
  readonly client: Client;
  /** The client's in-memory transport (`transport.mockSessionId` is `call.sessionId`). */
  readonly transport: KitTransport;
  /** Lists the tools (all pages); throws an AssertionError naming the tools present when `name` is missing. */
  assertToolExists(name: string): Promise<Tool>;
  /**
   * Calls the tool; throws an AssertionError showing the result when `check(result)` returns
   * false or throws, or when the call fails (tool error or JSON-RPC error). Returns the result.
   */
  assertToolReturns(name: string, args: Record<string, unknown>, check: ResultCheck): Promise<CallToolResult>;
  /**
   * Calls the tool; throws an AssertionError unless it fails with a tool error or a JSON-RPC
   * error (whose message equals `expected`, or matches it as a RegExp). Returns the failure.
   */
  assertToolFails(name: string, args: Record<string, unknown>, expected?: string | RegExp): Promise<ToolFailure>;
}

/** The kit of `createTestKit()`: one instance, closed by `close()` or `await using`. */
export interface SingleTestKit extends McpTestKit, AsyncDisposable {
  /** Closes the client, then the server. Safe to call twice. */
  close(): Promise<void>;
}

/** Shared by both kits; `current()` says which instance is live or why none is. */
abstract class KitBase implements McpTestKit {
  protected abstract current(member: string): KitInstance;

  get server(): MockMcpServer {
    return this.current("server").server;
  }

  get client(): Client {
    return this.current("client").client;
  }

  get transport(): KitTransport {
    return this.current("transport").transport;
  }

  // async, so misuse rejects like a failed assertion instead of throwing synchronously.
  async assertToolExists(name: string): Promise<Tool> {
    return assertToolExists(this.current("assertToolExists").client, name);
  }

  async assertToolReturns(name: string, args: Record<string, unknown>, check: ResultCheck): Promise<CallToolResult> {
    return assertToolReturns(this.current("assertToolReturns").client, name, args, check);
  }

  async assertToolFails(name: string, args: Record<string, unknown>, expected?: string | RegExp): Promise<ToolFailure> {
    return assertToolFails(this.current("assertToolFails").client, name, args, expected);
  }
}

class PerTestKit extends KitBase {
  private instance?: KitInstance;

  constructor(private readonly options: McpTestKitOptions) {
    super();
  }

  async open(): Promise<void> {
    if (this.instance) {
      throw new McpTestkitError(
        "mcpTestKit() is still serving another test: one kit gives one test at a time its server and client, so tests that share it cannot run concurrently. Use createTestKit() in each concurrent test.",
      );
    }
    this.instance = await openKitInstance(this.options);
  }

  /** `hookArgument`: what the runner hands afterEach (Vitest: the test's context). */
  async close(hookArgument?: unknown): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    if (instance === undefined) return;
    try {
      await keepTrace(instance, this.options, hookArgument);
    } finally {
      await instance.close();
    }
  }

  protected current(member: string): KitInstance {
    if (this.instance) return this.instance;
    throw new McpTestkitError(
      `kit.${member} is only available while a test runs: mcpTestKit() creates the mock server and client before each test and closes them after it. Use it inside a test, or in a beforeEach registered after mcpTestKit().`,
    );
  }
}

class OneTestKit extends KitBase implements SingleTestKit {
  private closed = false;

  constructor(private readonly instance: KitInstance) {
    super();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.instance.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  protected current(member: string): KitInstance {
    if (!this.closed) return this.instance;
    throw new McpTestkitError(`kit.${member} was used after the kit was closed; create a new one with createTestKit().`);
  }
}

/**
 * Registers hooks that give each test a fresh mock server (`mockMcp(options)`, named
 * "test-server" 1.0.0 unless `serverInfo` says otherwise) and an SDK client connected to it and
 * initialized, and close both after the test. Call it at the top of a file or `describe`.
 *
 * Hooks come from `hooks` (node:test, Vitest without globals) or else from the runner's globals
 * (Jest, Vitest with globals). Tests sharing one kit must not run concurrently.
 */
export function mcpTestKit(options: McpTestKitOptions = {}, hooks?: Partial<TestHooks>): McpTestKit {
  checkKitOptions(options, "mcpTestKit()");
  const { beforeEach, afterEach } = resolveHooks(hooks);
  const kit = new PerTestKit(options);
  // Zero-parameter functions: Jest and node:test treat a hook with a parameter as taking `done`.
  beforeEach(() => kit.open());
  // A rest parameter keeps the length 0 (no `done`), and still takes Vitest's test context.
  afterEach((...args: unknown[]) => kit.close(args[0]));
  return kit;
}

/**
 * Writes the test's trace into the trace folder when it failed (or always, with `keepTraces:
 * "all"`), its timeline page beside it, and names both in the failure.
 */
async function keepTrace(instance: KitInstance, options: McpTestKitOptions, hookArgument: unknown): Promise<void> {
  const dir = traceDirOf(options.traceDir);
  const trace = instance.server.trace;
  if (dir === undefined || trace === undefined) return;
  const outcome = testOutcome(hookArgument);
  const failed = outcome?.failed === true;
  if (!failed && options.keepTraces !== "all") return;
  const file = writeTestTrace(trace, dir, testNameOrEmpty(), failed);
  const page = await writeTestPage(trace, file);
  if (failed) {
    const open = page === undefined ? "open it with mcp-testkit view" : `its timeline is ${page}`;
    outcome!.note(`mcp-testkit: this test's MCP traffic is in ${file} (${open}; convert it with mcp-testkit trace convert)`);
  }
}

function testNameOrEmpty(): string {
  try {
    return currentTestName();
  } catch {
    return "";
  }
}

/** A kit for one test, without hooks: `await using kit = await createTestKit(options)`. */
export async function createTestKit(options: McpTestKitOptions = {}): Promise<SingleTestKit> {
  checkKitOptions(options, "createTestKit()");
  return new OneTestKit(await openKitInstance(options));
}
