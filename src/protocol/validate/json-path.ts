/** Formats a path of keys and indexes as a JSON path (`$.result.content[0]["x-y"]`). */

export type PathSegment = string | number;

const plainKey = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatJsonPath(segments: readonly PathSegment[]): string {
  let path = "$";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (plainKey.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
