// A "server" that greets on stdout and answers every line with more text, never a JSON-RPC
// message: what a server that logs to stdout looks like to a client. Exits when stdin ends.
process.stdout.write("Hello, I am a server that logs to stdout\n");
process.stdin.on("data", () => process.stdout.write("garbage line here\n"));
process.stdin.on("end", () => process.exit(0));
