/** The message for keys nobody reads, shared by every check of what a user writes (options, tools, steps). */
import { closest } from "./closest.js";

const quoted = (keys: Iterable<string>) => [...keys].map((key) => JSON.stringify(key)).join(", ");

/**
 * The message for keys nobody reads: `Tool "x" has unknown key "descripton"; did you mean
 * "description"? It takes "title", "description", ...`. `suggest` may offer more names than
 * `known` (a tool's step keys and definition keys), `takes` says what the thing accepts.
 */
export function unknownKeysMessage(where: string, unknown: readonly string[], known: Iterable<string>, takes?: string): string {
  const candidates = [...known];
  const named = unknown.map((key) => {
    const near = closest(key, candidates);
    return near === undefined ? JSON.stringify(key) : `${JSON.stringify(key)} (did you mean ${JSON.stringify(near)}?)`;
  });
  const head =
    unknown.length === 1 && named[0]!.includes("did you mean")
      ? `${where} has unknown key ${JSON.stringify(unknown[0])}; did you mean ${JSON.stringify(closest(unknown[0]!, candidates))}?`
      : `${where} has unknown key${unknown.length > 1 ? "s" : ""} ${named.join(", ")}.`;
  return `${head} ${takes ?? `It takes ${quoted(candidates)}`}.`;
}
