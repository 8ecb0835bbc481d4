// A scenario module for `mcp-testkit mock`: its default export is the mockMcp() options, so
// steps can be functions that answer from the call's arguments.
//   mcp-testkit mock examples/scenarios/weather.ts
//   mcp-testkit mock --stdio examples/scenarios/weather.ts
import type { MockMcpOptions, ToolCallContext } from "mcp-testkit";

const TEMPERATURES: Record<string, number> = { Paris: 21, Oslo: 4, Lagos: 31 };

export default {
  serverInfo: { name: "weather-mock", version: "1.0.0" },
  tools: {
    get_weather: {
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: {
        type: "object",
        properties: { city: { type: "string" }, tempC: { type: "number" }, conditions: { type: "string" } },
        required: ["city", "tempC"],
      },
      annotations: { readOnlyHint: true },
      // With an outputSchema, an object `returns` is sent as structuredContent too.
      responses: (call: ToolCallContext) => {
        const city = String(call.arguments.city ?? "");
        const tempC = TEMPERATURES[city];
        if (tempC === undefined) return { toolError: `Unknown city: ${city}. Known cities: ${Object.keys(TEMPERATURES).join(", ")}` };
        return { returns: { city, tempC, conditions: tempC > 25 ? "sunny" : "cloudy" } };
      },
    },
    get_forecast: {
      description: "A three-day forecast; slow, and reports progress when asked to",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      responses: [
        async (call: ToolCallContext) => {
          for (let day = 1; day <= 3; day++) {
            call.progress(day, 3, `day ${day} of 3`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return { returns: `${String(call.arguments.city)}: rain, then sun, then rain` };
        },
        { throws: { code: -32000, message: "forecast service unavailable" } },
      ],
    },
  },
  resources: {
    "weather://cities": { name: "cities", mimeType: "application/json", text: JSON.stringify(Object.keys(TEMPERATURES)) },
    "weather://city/{name}": {
      name: "city",
      description: "The current temperature in one city",
      read: (_uri: string, variables: Record<string, string>) => `${variables.name}: ${TEMPERATURES[variables.name ?? ""] ?? "unknown"} °C`,
      complete: { name: Object.keys(TEMPERATURES) },
    },
  },
} satisfies MockMcpOptions;
