export * from "./jsonrpc.js";
export * from "./errors.js";
export * from "./methods.js";
export * from "./versions.js";
export * from "./validate/index.js";
