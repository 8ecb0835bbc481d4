/** A source's answer to a `resources/read` or `prompts/get` (fakes), through its fault when it has one. */
import { withFault } from "../interaction/faults.js";
import type { RunSubject } from "../interaction/handler-run.js";
import { runHandler } from "../interaction/run-handler.js";
import { replyWith, RpcError, type Outcome } from "../outcome.js";
import { answerOrThrow, type SourceAnswer } from "../request-sources.js";
import type { HandlerInput } from "./handler-input.js";

export function answerSource(input: HandlerInput, subject: RunSubject, answered: SourceAnswer): Outcome | Promise<Outcome> {
  if (answered.fault === undefined) return replyWith(input.request.id, answerOrThrow(answered));
  return runHandler(input, {
    subject,
    run: () => withFault(answered.fault, answered),
    answer: (settled, answering) => {
      if ("thrown" in settled) throw settled.thrown instanceof RpcError ? settled.thrown : new RpcError(-32603, String(settled.thrown));
      return replyWith(answering.requestId, answerOrThrow(settled.value as SourceAnswer));
    },
  });
}
