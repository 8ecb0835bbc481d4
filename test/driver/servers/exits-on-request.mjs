// Serves normally, and ends on its own when asked by a tools/call, after answering it:
// `{ exit: N }` exits with code N; `{ signal: "SIGTERM" }` is ended by that signal (sent to
// itself); `{ closeStdin: true }` closes its own stdin, as if someone else had, and then exits 0
// as a stdio server should when its stdin closes.
import { result, serve } from "./zoo-server.mjs";

const lines = serve({
  "tools/call": (request) => {
    const args = request.params?.arguments ?? {};
    result(request, { content: [{ type: "text", text: "bye" }] });
    // Once the answer is written (stdout is a pipe: the write may be asynchronous).
    process.stdout.write("", () => {
      if (args.closeStdin) process.stdin.destroy();
      else if (args.signal) process.kill(process.pid, args.signal);
      else process.exit(Number(args.exit ?? 0));
    });
  },
});
lines.on("close", () => process.exit(0));
