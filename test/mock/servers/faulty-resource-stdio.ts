// A mock whose resource read drops the connection, served on this process's stdin/stdout (spawned by the tests with tsx).
import { disconnect, mockMcp } from "../../../src/index.js";

await mockMcp({ transport: "stdio", resources: { "notes://gone": { read: () => disconnect() }, "notes://here": "still here" } });
