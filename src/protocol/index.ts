// Named, not `export *`: jsonrpc.ts also holds `isObject`, a helper of ours, not public API.
export {
  errorResponse,
  isErrorResponse,
  isNotification,
  isRequest,
  isResponse,
  resultResponse,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
} from "./jsonrpc.js";
export * from "./errors.js";
export * from "./methods.js";
export * from "./versions.js";
export * from "./validate/index.js";
