/**
 * SKILL.md's frontmatter: what the mock writes, the driver reads back as the same JSON, for any
 * frontmatter of strings, numbers, booleans, lists and nested mappings; what real skills write
 * (block scalars, quotes, comments) reads as YAML reads it; what the reader cannot take is
 * refused with its line, never read differently.
 */
import { fc, it as prop } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { FrontmatterError, readSkillMd, writeSkillMd } from "../../src/protocol/index.js";

const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const key = fc.string({ minLength: 1, maxLength: 12 });
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar, { maxKeys: 3 })), { maxKeys: 4 }));
const frontmatter = fc.dictionary(key, value, { minKeys: 1, maxKeys: 6 });

describe("SKILL.md frontmatter", () => {
  prop.prop([frontmatter, fc.string({ maxLength: 40 })], { numRuns: 300 })("what is written reads back as the same JSON, body included", (written, body) => {
    const text = writeSkillMd(written, body);
    const read = readSkillMd(text);
    // JSON equality: -0 is written as 0, as JSON has it.
    expect(JSON.parse(JSON.stringify(read.frontmatter))).toEqual(JSON.parse(JSON.stringify(written)));
    expect(read.body.replace(/^\n/, "")).toBe(body.replace(/\r?\n/g, "\n").replace(/^\n/, ""));
  });

  it("reads what real skills write: quotes, comments, lists, mappings, block scalars, YAML 1.2 types", () => {
    const text = [
      "---",
      "name: pdf-processing # the skill's name",
      'description: "Extract text: fill forms"',
      "license: 'Apache-2.0, see LICENSE'",
      "allowed-tools:",
      "  - Read",
      "  - 'Bash(python:*)'",
      "metadata:",
      "  version: 1.2",
      "  internal: true",
      "  owner: ~",
      "long: >-",
      "  folded over",
      "  two lines",
      "literal: |",
      "  kept",
      "  as is",
      "wrapped: a plain value",
      "  that goes on",
      "---",
      "# Body",
    ].join("\n");
    expect(readSkillMd(text)).toEqual({
      frontmatter: {
        name: "pdf-processing",
        description: "Extract text: fill forms",
        license: "Apache-2.0, see LICENSE",
        "allowed-tools": ["Read", "Bash(python:*)"],
        metadata: { version: 1.2, internal: true, owner: null },
        long: "folded over two lines",
        literal: "kept\nas is\n",
        wrapped: "a plain value that goes on",
      },
      body: "# Body",
    });
  });

  it("reads a __proto__ key as a key, leaving the prototype alone", () => {
    const { frontmatter } = readSkillMd('---\n__proto__: {"polluted": true}\nname: x\n---\n');
    expect(Object.keys(frontmatter)).toEqual(["__proto__", "name"]);
    expect(Object.getPrototypeOf(frontmatter)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses what it cannot read the way YAML does, with the line", () => {
    const refusal = (yaml: string) => {
      try {
        readSkillMd(`---\n${yaml}\n---\n`);
      } catch (error) {
        expect(error).toBeInstanceOf(FrontmatterError);
        return (error as Error).message;
      }
      throw new Error(`read ${JSON.stringify(yaml)} without complaint`);
    };
    expect(refusal("name: a\nname: b")).toBe('line 3: duplicate key "name"');
    expect(refusal("name: *anchor")).toBe('line 2: "*" starts an anchor, alias, tag or reserved value, which this reader does not take; quote the value');
    expect(refusal("\tname: a")).toBe("line 2: tabs may not indent YAML");
    expect(refusal("list:\n  - a: 1")).toBe("line 3: a mapping inside a list is not supported; write it as JSON ({...})");
    expect(refusal("flow: [a, b]")).toBe("line 2: a flow value must be written as JSON");
    expect(refusal("just text")).toBe('line 2: expected "key: value"');
    expect(refusal("")).toBe("the frontmatter is empty; it needs at least name and description");
    expect(() => readSkillMd("---\nname: a\n")).toThrow('the frontmatter has no closing "---" line');
  });
});
