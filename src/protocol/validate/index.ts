/** The MCP message validator: JSON-RPC shape checks and per-method, per-version `validateMessage`. */
export { validateRequest, validateResponse, validateToolDefinition, isValid } from "./seed-checks.js";
export { validateMessage } from "./validate-message.js";
export type { ValidationProblem, ValidationRule, ValidateMessageOptions, MessageDirection } from "./problem.js";
