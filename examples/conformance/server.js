/**
 * A mock MCP server for the official conformance suite (@modelcontextprotocol/conformance 0.1.16,
 * server mode). Every tool, resource, template and prompt below has the exact name and
 * behaviour a server scenario of the suite calls and checks, as its scenario sources specify.
 *
 * Serve it:  mcp-testkit mock examples/conformance/server.js --port 3000
 * Test it:   npm run conformance
 *
 * It is a scenario module: the default export is `mockMcp()` options, so steps can be
 * functions that talk back to the client during a call (progress, logging, sampling,
 * elicitation).
 */

/** A 1x1 red PNG. */
const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/** A WAV file: 8 kHz, 8-bit mono, 10 ms of silence. */
const SILENT_WAV = (() => {
  const samples = 80;
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + samples, 4);
  wav.write("WAVE", 8, "ascii");
  wav.write("fmt ", 12, "ascii");
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24); // sample rate
  wav.writeUInt32LE(8000, 28); // byte rate
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(samples, 40);
  return wav.toString("base64");
})();

const NO_ARGUMENTS = { type: "object", properties: {} };

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A tool step that asks the client for input with `requestedSchema` and reports the answer. */
function elicitWith(message, requestedSchema) {
  return async (call) => {
    const answer = await call.elicit({ message, requestedSchema });
    return { content: [{ type: "text", text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
  };
}

/** A tool that tells every listener the `list` list changed (`call.broadcast`). */
function announcesChange(list) {
  return {
    description: `Announces that the ${list} list changed`,
    inputSchema: NO_ARGUMENTS,
    responses: (call) => {
      call.broadcast(`notifications/${list}/list_changed`);
      return { content: [{ type: "text", text: `${list} changed` }] };
    },
  };
}

export default {
  serverInfo: { name: "mcp-testkit-conformance", version: "0.1.0" },
  // Answer every request as an SSE stream (the SDK server's default), so the SSE scenarios
  // exercise real streams: priming events with ids, several POST streams at once, resumption.
  responseMode: "sse",

  tools: {
    // tools-call-simple-text
    test_simple_text: {
      description: "Tests simple text content response",
      inputSchema: NO_ARGUMENTS,
      responses: { content: [{ type: "text", text: "This is a simple text response for testing." }] },
    },

    // tools-call-image
    test_image_content: {
      description: "Tests image content response",
      inputSchema: NO_ARGUMENTS,
      responses: { content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }] },
    },

    // tools-call-audio
    test_audio_content: {
      description: "Tests audio content response",
      inputSchema: NO_ARGUMENTS,
      responses: { content: [{ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }] },
    },

    // tools-call-embedded-resource
    test_embedded_resource: {
      description: "Tests embedded resource content response",
      inputSchema: NO_ARGUMENTS,
      responses: {
        content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
      },
    },

    // tools-call-mixed-content
    test_multiple_content_types: {
      description: "Tests response with multiple content types (text, image, resource)",
      inputSchema: NO_ARGUMENTS,
      responses: {
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
        ],
      },
    },

    // tools-call-with-logging: three info messages during the call, ~50 ms apart.
    test_tool_with_logging: {
      description: "Tests tool that emits log messages during execution",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        call.log("info", "Tool execution started", "conformance-test-server");
        await sleep(50, call.signal);
        call.log("info", "Tool processing data", "conformance-test-server");
        await sleep(50, call.signal);
        call.log("info", "Tool execution completed", "conformance-test-server");
        return { content: [{ type: "text", text: "Tool with logging executed successfully" }] };
      },
    },

    // tools-call-with-progress: 0/100, 50/100, 100/100 (when the request has a progress token).
    test_tool_with_progress: {
      description: "Tests tool that reports progress notifications",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        call.progress(0, 100, "Completed step 0 of 100");
        await sleep(50, call.signal);
        call.progress(50, 100, "Completed step 50 of 100");
        await sleep(50, call.signal);
        call.progress(100, 100, "Completed step 100 of 100");
        return { content: [{ type: "text", text: String(call.meta?.progressToken ?? "no progress token") }] };
      },
    },

    // tools-call-error: a failed tool run (isError: true), not a JSON-RPC error.
    test_error_handling: {
      description: "Tests error response handling",
      inputSchema: NO_ARGUMENTS,
      responses: { toolError: "This tool intentionally returns an error for testing" },
    },

    // server-sse-polling (pending in 0.1.16): the POST's SSE stream closes right after its
    // priming event (which carries `retry:`), before the answer; the client gets the answer by
    // reconnecting with GET and Last-Event-ID.
    test_reconnection: {
      description: "Tests SSE stream disconnection and client reconnection (SEP-1699). The server closes the stream mid-call and sends the result after the client reconnects.",
      inputSchema: NO_ARGUMENTS,
      responses: {
        stream: { mode: "sse", closeAfterEvents: 0, retryMs: 500 },
        delayMs: 100,
        content: [
          {
            type: "text",
            text: "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.",
          },
        ],
      },
    },

    // tools-call-sampling: a sampling/createMessage round trip during the call.
    test_sampling: {
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
      responses: async (call) => {
        try {
          const answer = await call.sample({
            messages: [{ role: "user", content: { type: "text", text: String(call.arguments.prompt ?? "") } }],
            maxTokens: 100,
          });
          const content = answer.content;
          const text = content && typeof content === "object" && "text" in content ? content.text : JSON.stringify(content);
          return { content: [{ type: "text", text: `LLM response: ${text}` }] };
        } catch (error) {
          return { toolError: `Sampling failed (does the client support sampling?): ${error.message}` };
        }
      },
    },

    // tools-call-elicitation: an elicitation/create round trip during the call.
    test_elicitation: {
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
      responses: async (call) => {
        try {
          const answer = await call.elicit({
            message: String(call.arguments.message ?? ""),
            requestedSchema: {
              type: "object",
              properties: {
                username: { type: "string", description: "User's response" },
                email: { type: "string", description: "User's email address" },
              },
              required: ["username", "email"],
            },
          });
          return { content: [{ type: "text", text: `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
        } catch (error) {
          return { toolError: `Elicitation failed (does the client support elicitation?): ${error.message}` };
        }
      },
    },

    // elicitation-sep1034-defaults: a default for every primitive type.
    test_elicitation_sep1034_defaults: {
      description: "Tests elicitation with default values per SEP-1034",
      inputSchema: NO_ARGUMENTS,
      responses: elicitWith("Please review and update the form fields with defaults", {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
        required: [],
      }),
    },

    // elicitation-sep1330-enums: the five enum shapes of SEP-1330.
    test_elicitation_sep1330_enums: {
      description: "Tests elicitation with enum schema improvements per SEP-1330",
      inputSchema: NO_ARGUMENTS,
      responses: elicitWith("Please select options from the enum fields", {
        type: "object",
        properties: {
          untitledSingle: { type: "string", description: "Untitled single-select enum", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Titled single-select enum",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Legacy titled enum (enumNames, deprecated)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Untitled multi-select enum",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Titled multi-select enum",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
        required: [],
      }),
    },

    // json-schema-2020-12 (pending in 0.1.16): $schema, $defs and additionalProperties kept as written.
    json_schema_2020_12_tool: {
      description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: {
            $anchor: "addressDef",
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
          },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        // 0.2.0 (SEP-2106): composition and conditional keywords kept as written.
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
      responses: (call) => ({ content: [{ type: "text", text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(call.arguments)}` }] }),
    },

    // --- Protocol revision 2026-07-28 (conformance 0.2.0-alpha.12). The same step functions
    // serve both eras: in 2026-07-28 each elicit/sample/listRoots becomes an input request of an
    // input_required result (MRTR), keyed as the scenario names it, and the client's retry
    // resumes the step.

    // input-required-result-basic-elicitation, -missing-input-response, -result-type, -ignore-extra-params
    test_input_required_result_elicitation: {
      description: "Asks the user's name (MRTR elicitation)",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const answer = await call.elicit({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { key: "user_name" });
        return { content: [{ type: "text", text: `Hello, ${answer.content?.name ?? "stranger"}!` }] };
      },
    },

    // input-required-result-basic-sampling
    test_input_required_result_sampling: {
      description: "Asks the client's model a question (MRTR sampling)",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const answer = await call.sample({ messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 }, { key: "capital_question" });
        return { content: [{ type: "text", text: `The model said: ${answer.content?.text ?? ""}` }] };
      },
    },

    // input-required-result-basic-list-roots
    test_input_required_result_list_roots: {
      description: "Asks for the client's roots (MRTR roots/list)",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const roots = await call.listRoots({ key: "client_roots" });
        return { content: [{ type: "text", text: `Roots: ${roots.map((root) => root.uri).join(", ")}` }] };
      },
    },

    // input-required-result-request-state: the mock signs and checks the state itself.
    test_input_required_result_request_state: {
      description: "Asks for a confirmation; the retry's requestState is verified",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const answer = await call.elicit({ message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } }, { key: "confirm" });
        return { content: [{ type: "text", text: `state-ok: confirmed=${answer.content?.ok === true}` }] };
      },
    },

    // input-required-result-tampered-state
    test_input_required_result_tampered_state: {
      description: "Asks for a confirmation; a tampered requestState is rejected",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        await call.elicit({ message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } }, { key: "confirm" });
        return { content: [{ type: "text", text: "confirmed" }] };
      },
    },

    // input-required-result-multiple-input-requests: three asks in one round.
    test_input_required_result_multiple_inputs: {
      description: "Asks for a name, a greeting and the roots at once",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const [name, greeting, roots] = await Promise.all([
          call.elicit({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { key: "user_name" }),
          call.sample({ messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 }, { key: "greeting" }),
          call.listRoots({ key: "client_roots" }),
        ]);
        return { content: [{ type: "text", text: `${greeting.content?.text ?? "Hi"} ${name.content?.name ?? ""} (${roots.length} roots)` }] };
      },
    },

    // input-required-result-multi-round: one round per ask.
    test_input_required_result_multi_round: {
      description: "Asks two questions, one after the other",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const name = await call.elicit({ message: "Step 1: What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { key: "step1" });
        const color = await call.elicit(
          { message: "Step 2: What is your favorite color?", requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } },
          { key: "step2" },
        );
        return { content: [{ type: "text", text: `${name.content?.name} likes ${color.content?.color}` }] };
      },
    },

    // input-required-result-capability-check: only asks the client can answer.
    test_input_required_result_capabilities: {
      description: "Asks only for what the client declared (elicitation and/or sampling)",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        const asks = [];
        if (call.clientCapabilities.elicitation)
          asks.push(call.elicit({ message: "Anything to add?", requestedSchema: { type: "object", properties: { note: { type: "string" } } } }, { key: "note" }));
        if (call.clientCapabilities.sampling) asks.push(call.sample({ messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 }, { key: "hi" }));
        await Promise.all(asks);
        return { content: [{ type: "text", text: `asked ${asks.length}` }] };
      },
    },

    // server-stateless: a tool that needs sampling, so a client without it gets -32021.
    test_missing_capability: {
      description: "Needs the client's sampling capability",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        await call.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
        return { content: [{ type: "text", text: "sampled" }] };
      },
    },

    // server-stateless: elicitation travels inside the result, never as a request on the stream.
    test_streaming_elicitation: {
      description: "Asks for input while streaming",
      inputSchema: NO_ARGUMENTS,
      responses: async (call) => {
        call.progress(0, 1);
        await call.elicit({ message: "Go on?", requestedSchema: { type: "object", properties: {} } });
        return { content: [{ type: "text", text: "streamed" }] };
      },
    },

    // server-stateless: logs only when the request names a log level.
    test_logging_tool: {
      description: "Logs during the call",
      inputSchema: NO_ARGUMENTS,
      responses: (call) => {
        call.log("info", "a log line the client only gets at its requested level");
        return { content: [{ type: "text", text: "logged" }] };
      },
    },

    // server-stateless: hooks that announce a changed list to every listener (subscriptions/listen streams).
    test_trigger_tool_change: announcesChange("tools"),
    test_trigger_prompt_change: announcesChange("prompts"),

    // http-custom-header-server-validation: a string parameter mirrored into Mcp-Param-Region.
    test_custom_headers: {
      description: "A tool whose region parameter travels in the Mcp-Param-Region header too",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } } },
      responses: (call) => ({ content: [{ type: "text", text: `region=${call.arguments.region}` }] }),
    },

    // --- The tasks extension io.modelcontextprotocol/tasks (2026-07-28; the suite's tasks-*
    // scenarios, run with --force). A step with `task` answers a client that declared the
    // extension with a task and scripts its life; any other client gets the step's answer.

    // tasks-*: sync only, never a task.
    greet: {
      description: "Greets someone (never a task)",
      inputSchema: { type: "object", properties: { name: { type: "string" } } },
      responses: (call) => ({ content: [{ type: "text", text: `Hello, ${call.arguments.name ?? "World"}!` }] }),
    },
    // tasks-*: works for `seconds`, then a result; a cancel while it works ends it cancelled.
    slow_compute: {
      description: "Computes for the given number of seconds (a task)",
      inputSchema: { type: "object", properties: { seconds: { type: "number" }, label: { type: "string" } } },
      execution: { taskSupport: "optional" },
      responses: (call) => ({ task: { workingMs: Math.max(0, Number(call.arguments.seconds ?? 0)) * 1000, message: "Computing" }, returns: `Computed ${call.arguments.label ?? "result"}` }),
    },
    // tasks-lifecycle, tasks-required-task-error: a tool error after about a second, only as a task.
    failing_job: {
      description: "A job that fails as a tool error (runs only as a task)",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "required" },
      responses: { task: { workingMs: 1000 }, toolError: "The job failed" },
    },
    // tasks-lifecycle: a protocol error, so the task fails.
    protocol_error_job: {
      description: "A job that ends in a protocol error (a task)",
      inputSchema: NO_ARGUMENTS,
      responses: { task: {}, throws: { code: -32603, message: "Internal error: the job crashed" } },
    },
    // tasks-mrtr-input: one elicitation as the task's input, then a result.
    confirm_delete: {
      description: "Deletes a file once the user confirms (a task that asks)",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      responses: {
        task: { inputMessage: "Waiting for confirmation" },
        asks: [{ method: "elicitation/create", params: { message: "Delete the file?", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } } }],
        returns: "Deleted",
      },
    },
    // tasks-mrtr-input: two elicitations pending at once.
    multi_input: {
      description: "Asks two questions at once (a task that asks)",
      inputSchema: NO_ARGUMENTS,
      responses: {
        task: { inputMessage: "Waiting for two answers" },
        asks: [
          { method: "elicitation/create", params: { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
          { method: "elicitation/create", params: { message: "Confirm?", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } } },
        ],
        returns: "Both answered",
      },
    },
    // tasks-mrtr-composition: asks the name first (MRTR on tools/call), then answers with a task whose result names it.
    test_tool_with_task: {
      description: "Asks a name, then works on it as a task",
      inputSchema: NO_ARGUMENTS,
      execution: { taskSupport: "required" },
      responses: async (call) => {
        const answer = await call.elicit({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { key: "user_name" });
        return { task: { workingMs: 100 }, returns: `Hello, ${answer.content?.name ?? "stranger"}!` };
      },
    },
  },

  resources: {
    // resources-list, resources-read-text
    "test://static-text": {
      name: "static-text",
      title: "Static Text Resource",
      description: "A static text resource for testing",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    },
    // resources-read-binary
    "test://static-binary": {
      name: "static-binary",
      title: "Static Binary Resource",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
      blob: RED_PIXEL_PNG,
    },
    // resources-templates-read: {id} comes from the URI.
    "test://template/{id}/data": {
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      complete: { id: ["1", "123", "42"] },
    },
    // resources-subscribe, resources-unsubscribe
    "test://watched-resource": {
      name: "watched-resource",
      title: "Watched Resource",
      description: "A resource to subscribe to",
      mimeType: "text/plain",
      text: "Watched resource content",
    },
  },

  prompts: {
    // input-required-result-non-tool-request: MRTR on prompts/get (raw control: the messages
    // function asks for input until the retry brings it).
    test_input_required_result_prompt: {
      description: "A prompt that needs context from the user first",
      messages: (_args, request) => {
        const context = request.inputResponses?.user_context?.content?.context;
        if (context === undefined) {
          return {
            inputRequired: {
              inputRequests: {
                user_context: {
                  method: "elicitation/create",
                  params: { message: "What context should the prompt use?", requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] } },
                },
              },
            },
          };
        }
        return [{ role: "user", content: `Use this context: ${context}` }];
      },
    },

    // prompts-get-simple
    test_simple_prompt: {
      title: "Simple Test Prompt",
      description: "A simple prompt without arguments",
      messages: [{ role: "user", content: "This is a simple prompt for testing." }],
    },
    // prompts-get-with-args, completion-complete
    test_prompt_with_arguments: {
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      messages: [{ role: "user", content: "Prompt with arguments: arg1='{{arg1}}', arg2='{{arg2}}'" }],
      complete: { arg1: ["paris", "park", "party", "test", "testValue1"], arg2: ["world", "testValue2"] },
    },
    // prompts-get-embedded-resource
    test_prompt_with_embedded_resource: {
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      messages: ({ resourceUri }) => [
        { role: "user", content: { type: "resource", resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
        { role: "user", content: "Please process the embedded resource above." },
      ],
    },
    // prompts-get-with-image
    test_prompt_with_image: {
      title: "Prompt With Image",
      description: "A prompt that includes image content",
      messages: [
        { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
        { role: "user", content: "Please analyze the image above." },
      ],
    },
  },

  // sep-2640-skills-enumeration, -manifest and -directory (0.2.0-alpha.12, --force): one skill
  // with a file in a subdirectory, so resources/directory/read has a subdirectory to list.
  skills: {
    "pdf-processing": {
      description: "Extract, fill, and assemble PDF documents",
      body: "# PDF processing\n\nRead references/FORMS.md before filling a form.\n",
      files: { "references/FORMS.md": "# Forms\n\nHow to fill PDF forms.\n" },
    },
  },
};
