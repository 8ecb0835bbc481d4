/**
 * The matchers on call results: tool call results (plain `CallToolResult` objects and a driver's
 * marked results) and resource read results.
 */
import { describe, expect, it } from "vitest";
import "../../src/matchers/vitest.js";
import { failure, mock, sdkDriver, useCleanup } from "./support.js";

useCleanup();

const ok = { content: [{ type: "text", text: "hello" }] };
const toolError = {
  content: [
    { type: "text", text: "file not found" },
    { type: "text", text: "path: /nope" },
  ],
  isError: true,
};
const imageOnly = { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] };

describe("toBeSuccessful", () => {
  it("passes for a result without isError, fails for isError: true with its text", async () => {
    expect(ok).toBeSuccessful();
    expect({ content: [], isError: false }).toBeSuccessful();
    const failed = await failure(() => expect(toolError).toBeSuccessful());
    expect(failed.message).toBe('expected tool call to succeed, but it returned isError: true with text "file not found\\npath: /nope"');
    expect(failed.hasDiff).toBe(false);
  });

  it("works with .not", async () => {
    expect(toolError).not.toBeSuccessful();
    const failed = await failure(() => expect(ok).not.toBeSuccessful());
    expect(failed.message).toBe('expected tool call to fail (isError: true), but it succeeded with text "hello"');
  });

  it("names the tool of a driver's result", async () => {
    const driver = await sdkDriver(await mock({ tools: { fetch: { toolError: "upstream down" }, ping: { returns: "pong" } } }));
    const result = await driver.callTool("fetch");
    expect(result).not.toBeSuccessful();
    const failed = await failure(() => expect(result).toBeSuccessful());
    expect(failed.message).toBe('expected tool call "fetch" to succeed, but it returned isError: true with text "upstream down"');
    expect(await driver.callTool("ping")).toBeSuccessful();
  });
});

describe("toBeToolError", () => {
  it("passes for isError: true, optionally checking the error's text", async () => {
    expect(toolError).toBeToolError();
    expect(toolError).toBeToolError("not found");
    expect(toolError).toBeToolError(/path: \/nope$/);
    const failed = await failure(() => expect(ok).toBeToolError());
    expect(failed.message).toBe('expected tool call to fail (isError: true), but it succeeded with text "hello"');
    const withText = await failure(() => expect(imageOnly).toBeToolError(/denied/));
    expect(withText.message).toBe("expected tool call to fail (isError: true) with an error text matching /denied/, but it succeeded with no text");
  });

  it("fails on the wrong error text, with a diff for a string", async () => {
    const failed = await failure(() => expect(toolError).toBeToolError("permission denied"));
    expect(failed.message).toBe('expected tool call to fail with an error text containing "permission denied"; got "file not found\\npath: /nope"');
    expect(failed.actual).toBe("file not found\npath: /nope");
    expect(failed.expected).toBe("permission denied");
    const pattern = await failure(() => expect(toolError).toBeToolError(/denied/));
    expect(pattern.message).toBe('expected tool call to fail with an error text matching /denied/; got "file not found\\npath: /nope"');
  });

  it("works with .not", async () => {
    expect(ok).not.toBeToolError();
    expect(toolError).not.toBeToolError("denied");
    const failed = await failure(() => expect(toolError).not.toBeToolError());
    expect(failed.message).toBe('expected tool call not to fail, but it returned isError: true with text "file not found\\npath: /nope"');
    const withText = await failure(() => expect(toolError).not.toBeToolError(/not found/));
    expect(withText.message).toBe('expected tool call not to fail with an error text matching /not found/, but it did: "file not found\\npath: /nope"');
  });

  it("is not fooled by a /g pattern's lastIndex", () => {
    const pattern = /not found/g;
    expect(toolError).toBeToolError(pattern);
    expect(toolError).toBeToolError(pattern);
  });

  it("throws for an argument that is neither a string nor a RegExp", () => {
    // @ts-expect-error a number is not a pattern
    expect(() => expect(toolError).toBeToolError(404)).toThrow("[mcp-testkit] toBeToolError() takes a RegExp or a string to look for; got 404.");
  });
});

describe("toHaveTextContent", () => {
  it("compares the first text block exactly, with a diff", async () => {
    expect(ok).toHaveTextContent("hello");
    expect(toolError).toHaveTextContent("file not found");
    const failed = await failure(() => expect(ok).toHaveTextContent("hello world"));
    expect(failed.message).toBe('expected tool result to have text content "hello world"; got "hello"');
    expect(failed.actual).toBe("hello");
    expect(failed.expected).toBe("hello world");
  });

  it("says which block it compared when there are several", async () => {
    const failed = await failure(() => expect(toolError).toHaveTextContent("path: /nope"));
    expect(failed.message).toBe('expected tool result to have text content "path: /nope"; got "file not found" (the first of 2 text blocks)');
  });

  it("says what the content is when there is no text", async () => {
    const failed = await failure(() => expect(imageOnly).toHaveTextContent("hello"));
    expect(failed.message).toBe('expected tool result to have text content "hello", but it has no text block; its content is: image');
    const empty = await failure(() => expect({ content: [] }).toHaveTextContent("hello"));
    expect(empty.message).toBe('expected tool result to have text content "hello", but it has no text block; its content is empty');
  });

  it("works with .not", async () => {
    expect(ok).not.toHaveTextContent("bye");
    expect(imageOnly).not.toHaveTextContent("hello");
    const failed = await failure(() => expect(ok).not.toHaveTextContent("hello"));
    expect(failed.message).toBe('expected tool result not to have text content "hello", but it does');
  });
});

describe("toMatchTextContent", () => {
  it("tests the first text block with a RegExp or a substring", async () => {
    expect(ok).toMatchTextContent(/^hel+o$/);
    expect(ok).toMatchTextContent("ell");
    const failed = await failure(() => expect(ok).toMatchTextContent(/bye/));
    expect(failed.message).toBe('expected tool result text to match /bye/; got "hello"');
    const substring = await failure(() => expect(ok).toMatchTextContent("bye"));
    expect(substring.message).toBe('expected tool result text to contain "bye"; got "hello"');
    const none = await failure(() => expect(imageOnly).toMatchTextContent(/x/));
    expect(none.message).toBe("expected tool result text to match /x/, but it has no text block; its content is: image");
  });

  it("works with .not", async () => {
    expect(ok).not.toMatchTextContent(/bye/);
    const failed = await failure(() => expect(ok).not.toMatchTextContent(/h/));
    expect(failed.message).toBe('expected tool result text not to match /h/, but it does: "hello"');
  });
});

describe("toHaveStructuredContent", () => {
  const weather = { content: [{ type: "text", text: '{"tempC":21}' }], structuredContent: { tempC: 21, city: "Oslo", hourly: [20, 21] } };

  it("matches partially", async () => {
    expect(weather).toHaveStructuredContent({ tempC: 21 });
    expect(weather).toHaveStructuredContent({ city: /^Os/, hourly: [20, expect.any(Number)] });
    expect(weather).not.toHaveStructuredContent({ tempC: 30 });
  });

  it("fails at the first difference, with a diff of the compared keys", async () => {
    const failed = await failure(() => expect(weather).toHaveStructuredContent({ tempC: 30, city: "Oslo" }));
    expect(failed.message).toBe('expected structuredContent to match {"tempC":30,"city":"Oslo"}; at $.tempC: expected 30, got 21');
    expect(failed.actual).toEqual({ tempC: 21, city: "Oslo" });
    expect(failed.expected).toEqual({ tempC: 30, city: "Oslo" });
  });

  it("says when there is no structuredContent, showing the text instead", async () => {
    const failed = await failure(() => expect(ok).toHaveStructuredContent({ tempC: 21 }));
    expect(failed.message).toBe('expected tool result to have structuredContent matching {"tempC":21}, but it has none (its text: "hello")');
  });

  it("works with .not", async () => {
    const failed = await failure(() => expect(weather).not.toHaveStructuredContent({ city: "Oslo" }));
    expect(failed.message).toBe('expected structuredContent not to match {"city":"Oslo"}, but it does');
  });

  it("takes any JSON value a 2026-07-28 server may send: an array partially, a number exactly; nothing to compare is refused", async () => {
    expect({ content: [], structuredContent: [{ city: "Rome", tempC: 19 }, { city: "Oslo" }] }).toHaveStructuredContent([{ city: "Rome" }, { city: "Oslo" }]);
    expect({ content: [], structuredContent: 3 }).toHaveStructuredContent(3);
    const failed = await failure(() => expect({ content: [], structuredContent: 3 }).toHaveStructuredContent(4));
    expect(failed.message).toBe("expected structuredContent to match 4; at $: expected 4, got 3");
    const refused = await failure(() => expect(weather).toHaveStructuredContent(undefined as never));
    expect(refused.message).toContain("toHaveStructuredContent() takes the expected structuredContent");
  });

  it("reads structuredContent from a driver's result", async () => {
    const driver = await sdkDriver(
      await mock({
        tools: {
          weather: {
            outputSchema: { type: "object", properties: { tempC: { type: "number" } } },
            responses: { returns: { tempC: 21 } },
          },
        },
      }),
    );
    expect(await driver.callTool("weather", { city: "Oslo" })).toHaveStructuredContent({ tempC: 21 });
  });
});

describe("toHaveResourceContent / toHaveTextResource", () => {
  const read = {
    contents: [
      { uri: "file:///logo.png", mimeType: "image/png", blob: "AAAA" },
      { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" },
    ],
  };

  it("toHaveResourceContent finds a content by URI and lists the URIs when it is missing", async () => {
    expect(read).toHaveResourceContent("file:///a.txt");
    expect(read).not.toHaveResourceContent("file:///b.txt");
    const failed = await failure(() => expect(read).toHaveResourceContent("file:///b.txt"));
    expect(failed.message).toBe('expected resource result to have content for "file:///b.txt"; it has: file:///logo.png, file:///a.txt');
    expect(failed.actual).toEqual(["file:///logo.png", "file:///a.txt"]);
    expect(failed.expected).toEqual(["file:///logo.png", "file:///a.txt", "file:///b.txt"]);
    const negated = await failure(() => expect(read).not.toHaveResourceContent("file:///a.txt"));
    expect(negated.message).toBe('expected resource result not to have content for "file:///a.txt", but it does');
    const empty = await failure(() => expect({ contents: [] }).toHaveResourceContent("file:///a.txt"));
    expect(empty.message).toBe('expected resource result to have content for "file:///a.txt"; it has no contents');
  });

  it("toHaveTextResource compares the first text content exactly", async () => {
    expect(read).toHaveTextResource("alpha");
    expect(read).not.toHaveTextResource("beta");
    const failed = await failure(() => expect(read).toHaveTextResource("beta"));
    expect(failed.message).toBe('expected resource result to have text content "beta"; got "alpha"');
    expect(failed.actual).toBe("alpha");
    expect(failed.expected).toBe("beta");
    const negated = await failure(() => expect(read).not.toHaveTextResource("alpha"));
    expect(negated.message).toBe('expected resource result not to have text content "alpha", but it does');
    const blobOnly = await failure(() => expect({ contents: [read.contents[0]] }).toHaveTextResource("alpha"));
    expect(blobOnly.message).toBe('expected resource result to have text content "alpha", but it has one content without text');
  });

  it("reads a driver's resource result", async () => {
    const driver = await sdkDriver(await mock({ resources: { "file:///README.md": "read me" } }));
    const result = await driver.readResource("file:///README.md");
    expect(result).toHaveResourceContent("file:///README.md");
    expect(result).toHaveTextResource("read me");
  });
});
