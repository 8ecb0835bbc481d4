// Serves normally, but exits with code 4 when its stdin closes.
import { serve } from "./zoo-server.mjs";
serve().on("close", () => process.exit(4));
