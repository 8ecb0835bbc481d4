/**
 * Type tests for what users write most: steps, tool specs, scenario options, fakes and events,
 * the simulator's request input and what a server's stop tells observers.
 * A wrong step shape is a compile error in the editor, not a surprise at call time. Checked by
 * Vitest's typecheck (tsc), never run.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  mockMcp,
  recordMcp,
  simulate,
  type McpDriver,
  type McpRecording,
  type MockMcpServer,
  type RecordedExchange,
  type RecordedAsk,
  type RecordedAnswer,
  type CallServerRequestHandler,
  type ClientAsk,
  type AskOptions,
  type McpFakeBlock,
  type ServerStopResult,
  type Simulation,
  type SimulationRequestInit,
  type MockEvents,
  type MockMcpOptions,
  type RequestEndEvent,
  type Step,
  type StepFunction,
  type StepObject,
  type ToolCall,
  type ToolCallContext,
  type ElicitAnswer,
  type ToolSpec,
  type UnknownToolPolicy,
  type TaskError,
  type TaskFailure,
  type TaskHandle,
  type TaskSnapshot,
  type TaskStatus,
  type TaskStatusChange,
  type ToolCallResult,
} from "../../src/index.js";

describe("steps", () => {
  it("take the documented answer kinds", () => {
    const steps: Step[] = [
      { returns: "ok" },
      { returns: { id: 1 } },
      { content: [{ type: "text", text: "hi" }], structuredContent: { a: 1 } },
      { toolError: "no such city" },
      { throws: "rate_limited" },
      { throws: { code: -32001, message: "nope", data: { retryIn: 5 } } },
      { delayMs: 100, returns: "late" },
      { hang: true },
      { result: { anything: true } },
      { disconnect: true },
      { raw: "not json" },
      { returns: "sse", stream: { mode: "sse", closeAfterEvents: 1, retryMs: 10 } },
      { returns: "again", repeat: 3 },
      { asks: [{ method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } }, { method: "roots/list" }], returns: "asked" },
      { broadcast: [{ method: "notifications/resources/updated", params: { uri: "notes://today" } }], endSubscriptions: true, returns: "told" },
      (call) => ({ returns: call.arguments }),
      async (call) => ({ returns: await call.sample({ messages: [] }) }),
    ];
    expectTypeOf(steps).toEqualTypeOf<Step[]>();
  });

  it("refuse a misspelled answer, a wrong value type and a function that returns no step", () => {
    // @ts-expect-error "return" is not a step key ("returns" is)
    const misspelled: StepObject = { return: "ok" };
    // @ts-expect-error hang is a boolean
    const wrongType: StepObject = { hang: "yes" };
    // @ts-expect-error endSubscriptions is a boolean
    const wrongEnd: StepObject = { endSubscriptions: "all" };
    // @ts-expect-error a step broadcasts a list change or a resource update, named exactly
    const wrongNotice: StepObject = { broadcast: [{ method: "notifications/tool/list_changed" }] };
    // @ts-expect-error a stream mode is "json" or "sse"
    const wrongMode: StepObject = { returns: "x", stream: { mode: "websocket" } };
    // @ts-expect-error a step function returns a step, not a string
    const noStep: StepFunction = () => "ok";
    void [misspelled, wrongType, wrongEnd, wrongNotice, wrongMode, noStep];
  });

  it("take asks as requests of the client, and refuse params that are not an object", () => {
    const asks: ClientAsk[] = [{ method: "ping" }, { method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } }];
    const step: StepObject = { asks, returns: "asked" };
    expectTypeOf(step.asks).toEqualTypeOf<ClientAsk[] | undefined>();
    // @ts-expect-error an ask's params are an object, as a JSON-RPC request's are
    const badParams: ClientAsk = { method: "roots/list", params: "all" };
    // @ts-expect-error an ask names its method
    const noMethod: ClientAsk = { params: {} };
    void [badParams, noMethod];
  });

  it("take at most one answer per step, as checkStep does at run time", () => {
    // @ts-expect-error a step gives one answer: "returns" or "toolError", not both
    const twoAnswers: StepObject = { returns: "ok", toolError: "failed" };
    // @ts-expect-error "content" with "result"
    const contentAndResult: StepObject = { content: [], result: {} };
    // Timing and delivery go with any answer. The flags hang and disconnect stay booleans, so a
    // step built in a variable (where false widens to boolean) still fits; the mock refuses
    // `hang: true` beside another answer when the step is checked.
    const built = { returns: "x", hang: false };
    const withTiming: StepObject[] = [built, { throws: "boom", delayMs: 5, repeat: 2 }, { content: [], structuredContent: { a: 1 } }, { hang: true }, { delayMs: 10 }, {}];
    void [twoAnswers, contentAndResult, withTiming];
  });

  it("refuse a misspelled key in a step function's result when the function declares its return type", () => {
    // TypeScript checks the excess properties of a *fresh* object literal only. An arrow
    // function's returned literal is not checked against the contextual return type (its
    // inferred return type is compared by plain assignability, which allows extra keys:
    // microsoft/TypeScript#33507, #35774, #46927), so declare the return type, or use
    // `satisfies StepObject`, to get "did you mean" in the editor.
    // @ts-expect-error "dleayMs" is not a step key ("delayMs" is)
    const annotated: StepFunction = (call): StepObject => ({ returns: call.tool, dleayMs: 5 });
    // @ts-expect-error "hnag" is not a step key ("hang" is)
    const annotatedAsync: StepFunction = async (): Promise<StepObject> => ({ returns: "x", hnag: true });
    // @ts-expect-error "dleayMs" is not a step key
    const satisfied: StepFunction = (call) => ({ returns: call.tool, dleayMs: 5 }) satisfies StepObject;
    const inOptions: MockMcpOptions = {
      tools: {
        // @ts-expect-error "hnag" is not a step key
        t: async () => ({ returns: "x", hnag: true }) satisfies StepObject,
      },
    };
    // Without either, these compile (the mock fails the call naming the key and the closest one:
    // test/mock/steps.test.ts). If TypeScript starts checking them, this file fails: then turn
    // these into @ts-expect-error lines and drop the advice above.
    const unchecked: StepFunction = (call) => ({ returns: call.tool, dleayMs: 5 });
    const uncheckedInOptions: MockMcpOptions = { tools: { t: async () => ({ returns: "x", hnag: true }) } };
    void [annotated, annotatedAsync, satisfied, inOptions, unchecked, uncheckedInOptions];
  });

  it("give step functions a typed call context", () => {
    const step: StepFunction = (call) => {
      expectTypeOf(call).toEqualTypeOf<ToolCallContext>();
      expectTypeOf(call.arguments).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(call.signal).toEqualTypeOf<AbortSignal>();
      expectTypeOf(call.protocolVersion).toEqualTypeOf<string>();
      expectTypeOf(call.identity.testId).toEqualTypeOf<string | undefined>();
      expectTypeOf(call.elicit).returns.resolves.toEqualTypeOf<ElicitAnswer>();
      expectTypeOf(call.elicit).returns.resolves.toHaveProperty("action").toEqualTypeOf<"accept" | "decline" | "cancel">();
      expectTypeOf(call.sample).returns.resolves.toHaveProperty("model").toEqualTypeOf<string>();
      expectTypeOf(call.listRoots).returns.resolves.items.toHaveProperty("uri").toEqualTypeOf<string>();
      expectTypeOf(call.elicit).parameter(1).toEqualTypeOf<AskOptions | undefined>();
      expectTypeOf<AskOptions>().toEqualTypeOf<{ key?: string; signal?: AbortSignal }>();
      return { returns: "ok" };
    };
    void step;
  });
});

describe("tool specs and scenario options", () => {
  it("accept a step, a list of steps, a function or a full definition", () => {
    const specs: ToolSpec[] = [
      { returns: "ok" },
      [{ throws: "first" }, { returns: "then fine" }],
      (call) => ({ returns: call.tool }),
      { description: "Weather", inputSchema: { type: "object", properties: { city: { type: "string" } } }, responses: [{ returns: "sun" }] },
    ];
    void specs;
  });

  it("type the unknown-tool policy, fixtures and fakes options", () => {
    const policies: UnknownToolPolicy[] = ["error", "warn", (call) => ({ returns: `no ${call.tool}` })];
    const block: McpFakeBlock = { scope: { testId: "t" }, tools: [{ name: "search", calls: [{ args: { q: "x" }, result: "found" }] }] };
    const options: MockMcpOptions = { onUnknownTool: policies[1], fixtures: ["./fixtures", block], fakesOptions: { testIdsMax: 10 } };
    // @ts-expect-error "ignore" is not a policy
    const wrongPolicy: MockMcpOptions = { onUnknownTool: "ignore" };
    const logged: MockMcpOptions = {
      logger: (level, line) => {
        expectTypeOf(level).toEqualTypeOf<"error" | "warn" | "info">();
        expectTypeOf(line).toBeString();
      },
    };
    // @ts-expect-error the logger is a function, not a stream
    const wrongLogger: MockMcpOptions = { logger: process.stderr };
    void [options, wrongPolicy, logged, wrongLogger];
  });

  it("take a JSON-RPC error in place of a resource's or a prompt's answer", () => {
    const options: MockMcpOptions = {
      resources: { "notes://gone": { name: "gone", throws: "Not recorded" }, "notes://{day}": { throws: { code: -32002, message: "none", data: { day: 1 } } } },
      prompts: { retired: { title: "Retired", throws: { code: -32602, message: "retired" } } },
    };
    // @ts-expect-error a thrown error needs its message
    const noMessage: MockMcpOptions = { prompts: { p: { throws: { code: 1 } } } };
    void [options, noMessage];
  });

  it("let a resource's read and a prompt's messages function ask the client, typed as a step function's asks", () => {
    const options: MockMcpOptions = {
      resources: {
        "notes://asked": {
          read: async (_uri, _variables, request) => {
            expectTypeOf(request.elicit).returns.resolves.toEqualTypeOf<ElicitAnswer>();
            const roots = await request.listRoots({ key: "roots" });
            expectTypeOf(roots).items.toHaveProperty("uri").toEqualTypeOf<string>();
            return roots.map((root) => root.uri).join(",");
          },
        },
      },
      prompts: { p: { messages: async (_args, request) => [{ role: "user", content: (await request.sample({ messages: [] })).model }] } },
    };
    void options;
  });
});

describe("events", () => {
  it("type each listener's payload by the event's name", async () => {
    const server = await mockMcp({ transport: "memory" });
    server.on("call:end", (call) => expectTypeOf(call).toEqualTypeOf<ToolCall>());
    server.on("request:end", (event) => {
      expectTypeOf(event).toEqualTypeOf<RequestEndEvent>();
      expectTypeOf(event.outcome).toEqualTypeOf<"result" | "error" | "none" | "drop" | "raw">();
      expectTypeOf(event.start).toEqualTypeOf<MockEvents["request:start"]>();
    });
    server.on("stream:close", (event) => expectTypeOf(event.reason).toEqualTypeOf<MockEvents["stream:close"]["reason"]>());
    expectTypeOf(server.on("session:open", () => undefined)).toEqualTypeOf<() => void>();
    // @ts-expect-error there is no "call:finish" event
    server.on("call:finish", () => undefined);
    await server.close();
  });
});

describe("the simulator's request", () => {
  it("is a Request or its plain parts { method, url, headers, body }", async () => {
    const sim = simulate(await mockMcp({ transport: "memory" }));
    const url = "http://127.0.0.1:8082/mcp";
    expectTypeOf(sim.startRequest(new Request(url))).toEqualTypeOf<Promise<Simulation>>();
    expectTypeOf(sim.startRequest({ method: "POST", url, headers: { accept: "application/json, text/event-stream" }, body: "{}" })).toEqualTypeOf<Promise<Simulation>>();
    const forms: SimulationRequestInit[] = [{ url }, { url: new URL(url), headers: [["accept", "text/event-stream"]] }, { method: "POST", url, headers: new Headers(), body: new Uint8Array(2) }];
    // @ts-expect-error the url is required
    const noUrl: SimulationRequestInit = { method: "POST" };
    // @ts-expect-error a body is text or bytes, not a message object (JSON.stringify it)
    const objectBody: SimulationRequestInit = { url, body: { jsonrpc: "2.0" } };
    // @ts-expect-error header values are strings
    const numberHeader: SimulationRequestInit = { url, headers: { "content-length": 2 } };
    void [forms, noUrl, objectBody, numberHeader];
    sim.close();
  });
});

describe("a server's stop, as observers hear it", () => {
  it("carries the outcome, and for the driver who ended it and a process's exit", () => {
    const stop: ServerStopResult = { outcome: "failed", error: new Error("x"), initiator: "server", exitCode: 2, exitSignal: null };
    expectTypeOf(stop.initiator).toEqualTypeOf<"client" | "server" | undefined>();
    expectTypeOf(stop.exitCode).toEqualTypeOf<number | null | undefined>();
    // @ts-expect-error the initiator is the client or the server
    const wrong: ServerStopResult = { outcome: "completed", initiator: "user" };
    void [stop, wrong];
  });
});

describe("recordMcp: a recording mock in front of a driver", () => {
  it("takes the driver and scope options; gives the mock, the exchanges and the two forms", async () => {
    const upstream = {} as McpDriver;
    const recording: McpRecording = await recordMcp(upstream, { scope: { testId: "t" }, closedWorld: true, mock: { transport: "memory" } });
    expectTypeOf(recording.server).toEqualTypeOf<MockMcpServer>();
    expectTypeOf(recording.exchanges).toEqualTypeOf<readonly RecordedExchange[]>();
    expectTypeOf(recording.save).parameter(1).toEqualTypeOf<{ format?: "scenario" | "fixture" } | undefined>();
    expectTypeOf(recording.save).returns.toEqualTypeOf<Promise<string>>();
    // @ts-expect-error the mock's tools are the server's: they cannot be given
    await recordMcp(upstream, { mock: { tools: {} } });
    // @ts-expect-error a scope is "shared" or { testId?, context? }
    await recordMcp(upstream, { scope: "everyone" });
  });

  it("keeps what the server asked the agent during a call, with the agent's answer", () => {
    const exchange = {} as RecordedExchange;
    if (exchange.kind === "tool") expectTypeOf(exchange.asks).toEqualTypeOf<RecordedAsk[] | undefined>();
    expectTypeOf<RecordedAsk["answer"]>().toEqualTypeOf<RecordedAnswer>();
  });
});

describe("a call's onServerRequest", () => {
  it("answers a server request, or leaves it (undefined) to the driver's handlers", async () => {
    const driver = {} as McpDriver;
    await driver.callTool("t", {}, { onServerRequest: (method) => (method === "roots/list" ? { roots: [] } : undefined) });
    await driver.callTool("t", {}, { onServerRequest: async () => ({ action: "decline" }) });
    const handler: CallServerRequestHandler = (_method, params, context) => {
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
      return params;
    };
    // @ts-expect-error it answers with a result object, not a string
    await driver.callTool("t", {}, { onServerRequest: () => "accept" });
    void handler;
  });
});

describe("tool calls as tasks", () => {
  it("callTool takes { task }, startTask gives a handle", async () => {
    const driver = {} as McpDriver;
    await driver.callTool("t", {}, { task: true });
    await driver.callTool("t", {}, { task: { ttlMs: 60_000, deadlineMs: 5_000, onStatus: (change) => expectTypeOf(change.status).toEqualTypeOf<TaskStatus>() } });
    const task = await driver.startTask("t", { a: 1 }, { deadlineMs: 1_000, signal: AbortSignal.timeout(5_000) });
    expectTypeOf(task).toEqualTypeOf<TaskHandle>();
    expectTypeOf(task.wait()).toEqualTypeOf<Promise<ToolCallResult>>();
    expectTypeOf(task.status()).toEqualTypeOf<Promise<TaskSnapshot>>();
    expectTypeOf(task.history).toEqualTypeOf<readonly TaskStatusChange[]>();
    await task.update({ confirm: { action: "accept", content: { confirm: true } } });
    const error = {} as TaskError;
    expectTypeOf(error.reason).toEqualTypeOf<TaskFailure>();
    // @ts-expect-error the task option is true or the task's options
    await driver.callTool("t", {}, { task: "yes" });
    // @ts-expect-error ttlMs is a number of ms
    await driver.startTask("t", {}, { ttlMs: "1m" });
  });
});
