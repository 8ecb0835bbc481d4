// A server that speaks only 2026-07-28 (our mock over stdio) and is slow to start: it reads
// nothing for the first `argv[2]` ms (default 1500), as a cold `npx` start can be.
const delayMs = Number(process.argv[2] ?? 1500);
await new Promise((resolve) => setTimeout(resolve, delayMs));
const { mockMcp } = await import("../../../dist/index.js");
await mockMcp({ transport: "stdio", protocolVersions: ["2026-07-28"], tools: { hello: { returns: "hello" } } });
