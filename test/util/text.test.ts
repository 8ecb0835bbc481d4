import { describe, expect, it } from "vitest";
import { clip, clipCounted } from "../../src/util/text.js";

describe("clip and clipCounted", () => {
  it("clip keeps at most max characters, the ellipsis included", () => {
    expect(clip("abcdef", 10)).toBe("abcdef");
    expect(clip("abcdef", 4)).toBe("abc…");
  });

  it("clipCounted keeps max characters and says how long the text was", () => {
    expect(clipCounted("abcdef", 6)).toBe("abcdef");
    expect(clipCounted("abcdefgh", 3)).toBe("abc… (8 characters)");
  });
});
