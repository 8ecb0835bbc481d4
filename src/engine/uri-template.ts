/**
 * RFC 6570 URI templates, the subset MCP resource templates use: `{var}` (one segment, no "/"),
 * `{+var}` and `{#var}` (reserved expansion, may span "/"), and `{/var}`, `{?a,b}` forms read
 * back from a concrete URI. Enough to tell which template a URI belongs to and what its
 * variables are.
 */
export class UriTemplate {
  private readonly pattern: RegExp;
  readonly variables: string[] = [];

  constructor(readonly text: string) {
    let source = "^";
    let last = 0;
    for (const match of text.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
      source += escapeRegExp(text.slice(last, match.index));
      const operator = match[1]!;
      const names = match[2]!.split(",").map((name) => name.replace(/[*]$|:\d+$/, "").trim());
      this.variables.push(...names);
      source += expressionPattern(operator, names.length);
      last = match.index! + match[0].length;
    }
    source += escapeRegExp(text.slice(last)) + "$";
    this.pattern = new RegExp(source);
  }

  /** The variables of `uri` if it fits the template, else undefined. */
  match(uri: string): Record<string, string> | undefined {
    const found = this.pattern.exec(uri);
    if (!found) return undefined;
    const values: Record<string, string> = {};
    this.variables.forEach((name, i) => {
      const value = found[i + 1];
      if (value !== undefined) values[name] = safeDecode(value);
    });
    return values;
  }
}

function expressionPattern(operator: string, count: number): string {
  const one = (inner: string) => Array.from({ length: count }, () => inner);
  switch (operator) {
    case "+":
    case "#":
      return (operator === "#" ? "#" : "") + one("(.*?)").join(",");
    case "/":
      return one("/([^/?#]*)").join("");
    case ".":
      return one("\\.([^/?#.]*)").join("");
    case "?":
    case "&":
      return "(?:[?&][^=&#]+=([^&#]*))?".repeat(count);
    case ";":
      return one(";[^=;/?#]+=?([^;/?#]*)").join("");
    default:
      return one("([^/?#,]+)").join(",");
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
