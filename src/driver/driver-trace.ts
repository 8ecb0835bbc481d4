/** A driver's trace: what its message tap tells, as trace entries (with the validator's problems). */
import { entryFromDriverMessage } from "../trace/from-events.js";
import { TraceLog, traceOptionsOf, type TraceOption } from "../trace/trace-log.js";
import type { MessageTap } from "./message-tap.js";

/** A new trace fed by `tap`, or undefined when `option` is off. */
export function traceDriver(tap: MessageTap, option: TraceOption | undefined, target: string): TraceLog | undefined {
  const options = traceOptionsOf(option, "the driver's option");
  if (options === undefined) return undefined;
  const log = new TraceLog(options, "driver", withoutCredentials(target));
  tap.events.on("message", (event) => log.add(entryFromDriverMessage(event, 0)));
  return log;
}

/** A URL target without user info or query (where tokens travel); a command as it is. */
function withoutCredentials(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    return `${url.origin}${url.pathname}`;
  } catch {
    return target;
  }
}
