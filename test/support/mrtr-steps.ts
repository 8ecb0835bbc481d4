/**
 * A step function that needs all three kinds of client input: it elicits a city and samples a
 * model at once, then lists the roots, and answers "<city> / <sampled text> / <root uris>". In
 * 2026-07-28 each ask becomes an input request of an input_required result (MRTR), in the legacy
 * era a request on the stream; tests of both sides of MRTR answer it and check the text.
 */
import type { StepFunction } from "../../src/index.js";

export const askEverything: StepFunction = async (call) => {
  const [answer, sampled] = await Promise.all([
    call.elicit({ mode: "form", message: "Which city?", requestedSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }),
    call.sample({ messages: [{ role: "user", content: { type: "text", text: "weather?" } }], maxTokens: 10 }),
  ]);
  const roots = await call.listRoots();
  return { returns: `${(answer.content as { city: string }).city} / ${(sampled.content as { text: string }).text} / ${roots.map((root) => root.uri).join(",")}` };
};
