/**
 * A one-line spinner on stderr for slow steps ("starting the server", "listing tools"), shown
 * only when stderr is a terminal; otherwise every call is a no-op, so piped and CI output stay
 * plain. It never touches stdout: lines for stdout go through `print`, which clears the
 * spinner first and redraws it after.
 */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const INTERVAL_MS = 80;

export interface Progress {
  /** Shows `text` as the current step. */
  step(text: string): void;
  /** Writes a line to stdout without garbling the spinner. */
  print(line: string): void;
  /** Removes the spinner for good. */
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, enabled: boolean = stream.isTTY === true && !process.env.CI): Progress {
  if (!enabled) {
    return {
      step: () => undefined,
      print: (line) => process.stdout.write(`${line}\n`),
      stop: () => undefined,
    };
  }
  let text = "";
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const width = () => Math.max(10, (stream.columns ?? 80) - 1);
  const draw = () => {
    if (text === "") return;
    const line = `${FRAMES[frame % FRAMES.length]} ${text}`;
    stream.write(`\r\x1b[2K${line.length > width() ? `${line.slice(0, width() - 1)}…` : line}`);
    frame++;
  };
  const clear = () => {
    if (text !== "") stream.write("\r\x1b[2K");
  };
  return {
    step(next) {
      text = next;
      if (timer === undefined) {
        timer = setInterval(draw, INTERVAL_MS);
        timer.unref();
      }
      draw();
    },
    print(line) {
      clear();
      process.stdout.write(`${line}\n`);
      draw();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      clear();
      text = "";
    },
  };
}
