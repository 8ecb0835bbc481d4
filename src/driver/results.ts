/**
 * Results of `callTool`, `readResource` and `getPrompt` with helpers. Each object's own fields are
 * exactly what the server sent (nothing hidden, nothing added but the defaults the spec implies),
 * so `toEqual` against a plain result works; helpers and markers live on the prototype.
 */
import type {
  BlobResourceContents,
  CallToolResult,
  ContentBlock,
  GetPromptResult as GetPromptResultData,
  PromptMessage,
  ReadResourceResult as ReadResourceResultData,
  TextResourceContents,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolCallError } from "./errors.js";
import { PROMPT_RESULT_MARKER, READ_RESOURCE_RESULT_MARKER, TOOL_CALL_RESULT_MARKER } from "./markers.js";

export type ContentType = ContentBlock["type"];
export type ContentOfType<T extends ContentType> = Extract<ContentBlock, { type: T }>;
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** The result of `callTool`: `content`, `structuredContent`, `isError` and helpers. */
export class ToolCallResult {
  declare readonly [TOOL_CALL_RESULT_MARKER]: true;
  /** The content blocks (`[]` when the server sent none, as the spec's default says). */
  declare content: ContentBlock[];
  /**
   * The tool's structured result: an object, or from a 2026-07-28 server any JSON value (an
   * array, a number…), so it is typed `unknown` as the spec and SDK v2 type it; narrow it, or
   * cast it to the shape of the tool's `outputSchema`.
   */
  declare structuredContent?: unknown;
  /** True when the tool reported an error in its result (the server answered; the tool failed). */
  declare isError: boolean;
  declare _meta?: Record<string, unknown>;
  [key: string]: unknown;
  readonly #toolName: string;

  constructor(result: CallToolResult | Record<string, unknown>, toolName = "tool") {
    Object.assign(this, result);
    if (!Array.isArray(this.content)) this.content = [];
    // A malformed flag that reads as true (`"yes"`, recorded as a schema problem under
    // strict: false) is still the server saying the tool failed.
    this.isError = Boolean(this.isError);
    this.#toolName = toolName;
  }

  /** The name of the tool that was called. */
  get toolName(): string {
    return this.#toolName;
  }

  /** The text of the first text block, or undefined when there is none. */
  getTextContent(): string | undefined {
    return this.findContentByType("text")?.text;
  }

  /** Throws a `ToolCallError` (with the tool's text) if `isError` is true; returns this result otherwise. */
  expectSuccess(): this {
    if (this.isError) {
      const text = this.getTextContent();
      throw new ToolCallError(`Tool "${this.#toolName}" returned an error result (isError: true)${text === undefined ? "." : `: ${text}`}`, {
        toolName: this.#toolName,
        method: "tools/call",
        result: this,
      });
    }
    return this;
  }

  /** Every content block of that type. */
  getContentByType<T extends ContentType>(type: T): ContentOfType<T>[] {
    return this.content.filter((block): block is ContentOfType<T> => block.type === type);
  }

  /** The first content block of that type, or undefined. */
  findContentByType<T extends ContentType>(type: T): ContentOfType<T> | undefined {
    return this.content.find((block): block is ContentOfType<T> => block.type === type);
  }
}

/** The result of `readResource`: `contents` and helpers. */
export class ReadResourceResult {
  declare readonly [READ_RESOURCE_RESULT_MARKER]: true;
  declare contents: ResourceContents[];
  declare _meta?: Record<string, unknown>;
  [key: string]: unknown;
  readonly #uri: string;

  constructor(result: ReadResourceResultData | Record<string, unknown>, uri = "") {
    Object.assign(this, result);
    if (!Array.isArray(this.contents)) this.contents = [];
    this.#uri = uri;
  }

  /** The URI that was read. */
  get uri(): string {
    return this.#uri;
  }

  /** expect-mcp's name for `contents`. */
  get content(): ResourceContents[] {
    return this.contents;
  }

  /** The text of the first text contents, or undefined. */
  getTextContent(): string | undefined {
    return this.getAllTextResources()[0]?.text;
  }

  /** The base64 blob of the first blob contents, or undefined. */
  getBlobContent(): string | undefined {
    return this.getAllBlobResources()[0]?.blob;
  }

  findByUri(uri: string): ResourceContents | undefined {
    return this.contents.find((item) => item.uri === uri);
  }

  getAllTextResources(): TextResourceContents[] {
    return this.contents.filter((item): item is TextResourceContents => "text" in item && typeof item.text === "string");
  }

  getAllBlobResources(): BlobResourceContents[] {
    return this.contents.filter((item): item is BlobResourceContents => "blob" in item && typeof item.blob === "string");
  }

  hasTextContent(): boolean {
    return this.getAllTextResources().length > 0;
  }

  hasBlobContent(): boolean {
    return this.getAllBlobResources().length > 0;
  }
}

/** The result of `getPrompt`: `messages`, `description` and helpers. */
export class GetPromptResult {
  declare readonly [PROMPT_RESULT_MARKER]: true;
  declare messages: PromptMessage[];
  declare description?: string;
  declare _meta?: Record<string, unknown>;
  [key: string]: unknown;
  readonly #promptName: string;

  constructor(result: GetPromptResultData | Record<string, unknown>, promptName = "") {
    Object.assign(this, result);
    if (!Array.isArray(this.messages)) this.messages = [];
    this.#promptName = promptName;
  }

  get promptName(): string {
    return this.#promptName;
  }

  /** The text of the first message with text content, or undefined. */
  getTextContent(): string | undefined {
    for (const message of this.messages) {
      if (message.content.type === "text") return message.content.text;
    }
    return undefined;
  }
}

// On the prototypes and not enumerable: invisible to `toEqual`, visible to `value[marker]`.
for (const [type, marker] of [
  [ToolCallResult, TOOL_CALL_RESULT_MARKER],
  [ReadResourceResult, READ_RESOURCE_RESULT_MARKER],
  [GetPromptResult, PROMPT_RESULT_MARKER],
] as const) {
  Object.defineProperty(type.prototype, marker, { value: true, enumerable: false });
}
