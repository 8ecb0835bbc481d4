/**
 * Prometheus and OpenMetrics text for a metrics snapshot, formatted by prom-client (HELP and
 * TYPE lines, label escaping, the OpenMetrics `_total` suffix and `# EOF`). prom-client is
 * loaded on the first scrape only, so a mock whose metrics nobody reads never loads it; the
 * numbers come from our own aggregates, handed to a fresh prom-client registry per scrape as
 * metric objects of the shape its registry reads (`get()` → name, help, type, values).
 */
import { McpTestkitError } from "../../errors.js";
import { DURATION_BUCKETS_SECONDS, type CounterSample, type HistogramSample, type MetricFamilySnapshot } from "./families.js";
import type { MetricsSnapshot } from "./snapshot.js";
import { errorText } from "../../util/text.js";

/** The text formats `metricsText()` and `/__mcp-testkit/metrics` can produce. */
export type MetricsTextFormat = "prometheus" | "openmetrics";

interface PromValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface PromRegistryModule {
  Registry: {
    new (contentType?: string): { registerMetric(metric: unknown): void; metrics(): Promise<string>; readonly contentType: string };
    readonly PROMETHEUS_CONTENT_TYPE: string;
    readonly OPENMETRICS_CONTENT_TYPE: string;
  };
}

let loading: Promise<PromRegistryModule> | undefined;

function loadPromClient(): Promise<PromRegistryModule> {
  loading ??= import("prom-client").then(
    (module) => ((module as unknown as { Registry?: unknown }).Registry ? module : (module as unknown as { default: PromRegistryModule }).default) as unknown as PromRegistryModule,
    (error: unknown) => {
      loading = undefined;
      throw new McpTestkitError(`Metrics text needs the "prom-client" package, which could not be loaded (${errorText(error)}); install it with npm install prom-client.`);
    },
  );
  return loading;
}

function valuesOf(family: MetricFamilySnapshot): PromValue[] {
  if (family.type !== "histogram") return (family.samples as CounterSample[]).map((sample) => ({ labels: { ...sample.labels }, value: sample.value }));
  const values: PromValue[] = [];
  for (const sample of family.samples as HistogramSample[]) {
    sample.buckets.forEach((count, index) => {
      const le = index < DURATION_BUCKETS_SECONDS.length ? DURATION_BUCKETS_SECONDS[index]! : "+Inf";
      values.push({ labels: { ...sample.labels, le }, value: count, metricName: `${family.name}_bucket` });
    });
    values.push({ labels: { ...sample.labels }, value: sample.sum, metricName: `${family.name}_sum` });
    values.push({ labels: { ...sample.labels }, value: sample.count, metricName: `${family.name}_count` });
  }
  return values;
}

/** The snapshot as exposition text, and the content type to serve it with. */
export async function metricsText(snapshot: MetricsSnapshot, format: MetricsTextFormat = "prometheus"): Promise<{ text: string; contentType: string }> {
  if (format !== "prometheus" && format !== "openmetrics") throw new McpTestkitError(`Unknown metrics format ${JSON.stringify(format)}; use "prometheus" or "openmetrics".`);
  const { Registry } = await loadPromClient();
  const registry = new Registry(format === "openmetrics" ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE);
  for (const family of snapshot.families) {
    // `get` reads `this.name`: for OpenMetrics the registry renames a counter (drops `_total`) before asking.
    registry.registerMetric({
      name: family.name,
      help: family.help,
      type: family.type,
      aggregator: "sum",
      async get(this: { name: string; help: string; type: string; aggregator: string }) {
        return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: valuesOf(family) };
      },
    });
  }
  return { text: await registry.metrics(), contentType: registry.contentType };
}

/** Which format a scrape asks for: OpenMetrics when its Accept header names it (or `?format=openmetrics`). */
export function requestedFormat(request: Request): MetricsTextFormat {
  const query = new URL(request.url).searchParams.get("format");
  if (query === "openmetrics" || query === "prometheus") return query;
  return (request.headers.get("accept") ?? "").includes("application/openmetrics-text") ? "openmetrics" : "prometheus";
}

/** The path the metrics are served at on a mock's port. */
export const METRICS_PATH = "/__mcp-testkit/metrics";

/** A web handler serving a collector's text (GET only). */
export function metricsHandler(snapshot: () => MetricsSnapshot): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD")
      return new Response("Method Not Allowed: metrics are read with GET\n", { status: 405, headers: { allow: "GET, HEAD", "content-type": "text/plain" } });
    try {
      const { text, contentType } = await metricsText(snapshot(), requestedFormat(request));
      return new Response(request.method === "HEAD" ? null : text, { status: 200, headers: { "content-type": contentType } });
    } catch (error) {
      return new Response(`${errorText(error)}\n`, { status: 500, headers: { "content-type": "text/plain" } });
    }
  };
}

/** What the metrics path answers on a mock that collects none: 404, saying how to turn them on. */
export function metricsOffHandler(): Response {
  const text = `This mock collects no metrics: create it with mockMcp({ metrics: true }), or put "metrics": true in a scenario file for mcp-testkit mock.\n`;
  return new Response(text, { status: 404, headers: { "content-type": "text/plain" } });
}
