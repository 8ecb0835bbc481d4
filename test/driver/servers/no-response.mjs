// Never answers tools/call; reports on stderr the cancellations it receives.
import { serve } from "./zoo-server.mjs";
serve({
  "tools/call": () => undefined,
  "notifications/cancelled": (notification) => console.error(`zoo: cancelled request ${notification.params.requestId}: ${notification.params.reason}`),
});
