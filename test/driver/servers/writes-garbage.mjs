// Serves normally, but a tools/call named "garbage" makes it write many MB of lines that are not
// JSON to stdout (ZOO_GARBAGE_LINES lines of about 100 characters), then say so on stderr.
import { serve } from "./zoo-server.mjs";

const lines = Number(process.env.ZOO_GARBAGE_LINES ?? 100_000);
const line = `not json: ${"x".repeat(90)}\n`;

function writeGarbage(left) {
  // In chunks of 1000 lines, waiting for the pipe to drain, so the whole amount really goes out.
  while (left > 0) {
    const batch = Math.min(left, 1000);
    left -= batch;
    if (!process.stdout.write(line.repeat(batch))) return process.stdout.once("drain", () => writeGarbage(left));
  }
  process.stderr.write(`zoo: wrote ${lines} garbage lines\n`);
}

serve({
  "tools/call": (request) => {
    if (request.params?.name === "garbage") writeGarbage(lines);
  },
});
