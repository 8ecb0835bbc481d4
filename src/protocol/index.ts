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
/** The Skills extension (SEP-2640) and MCP Apps (SEP-1865): identifiers, digests, SKILL.md frontmatter, shape checks. */
export { SKILLS_EXTENSION, SKILL_DIGEST_PATTERN, SKILL_LIMITS, DIRECTORY_MIME_TYPE, skillDigest, skillMdUri, type SkillEntry, type SkillFileEntry } from "./skills.js";
export { readSkillMd, writeSkillMd, FrontmatterError } from "./skill-frontmatter.js";
export { APPS_EXTENSION, APP_MIME_TYPE, toolUiProblems, resourceUiProblems, type AppToolMeta, type AppResourceMeta, type AppProblem } from "./apps.js";
export * from "./validate/index.js";
