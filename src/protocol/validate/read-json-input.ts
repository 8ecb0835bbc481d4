/** Accepts a JSON string or an already-parsed value, so every validator entry point takes both. */

export type JsonInput = { ok: true; value: unknown } | { ok: false; problem: string };

export function readJsonInput(json: unknown): JsonInput {
  if (typeof json !== "string") return { ok: true, value: json };
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    return { ok: false, problem: `not valid JSON: ${(error as Error).message}` };
  }
}
