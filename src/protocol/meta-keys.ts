/**
 * The `_meta` keys of protocol revision 2026-07-28, where a request names its own version,
 * client and capabilities (no `initialize`), results name the server, and subscription
 * notifications their subscription. One list for the mock, the driver and the validator.
 */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** 2025-11-25: names the task a message belongs to (a `tasks/result` result, a server request of a task). */
  relatedTask: "io.modelcontextprotocol/related-task",
} as const;

/** The tasks extension (2026-07-28): a client declares it in `capabilities.extensions`, a server advertises it there. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
